"""The COLIEE collections as ir_datasets entries, one module per task family, built on the catalog of
:mod:`ir_coliee.data` (which finds the files and reads the gold without ir_datasets).

:func:`register_all` registers every id and reads no file: it runs when this package is imported, and
``import ir_coliee`` imports it as soon as ir_datasets is imported (``ir_coliee.hosts.register``). Files are
found under the data root (``ir_coliee.data.files.data_root``) when a dataset is iterated.
"""

from __future__ import annotations

from ir_coliee.data.catalog import REGISTERED, catalog
from ir_coliee.data.datasets.caselaw import register_caselaw
from ir_coliee.data.datasets.pilot import register_pilot
from ir_coliee.data.datasets.statute import register_statute


def register_all() -> None:
    """Register every COLIEE dataset of the catalog with ir_datasets (idempotent)."""
    catalog()
    register_caselaw()
    register_statute()
    register_pilot()


register_all()

__all__ = ["REGISTERED", "catalog", "register_all"]
