"""Where ir_coliee meets its hosts: registration with ir_measures and ir_datasets, PyTerrier's dataset
provider and ``Experiment``; and :data:`PATCHES`, every place a host is patched (docs/architecture.md
lists them, a test each)."""

from typing import NamedTuple


class Patch(NamedTuple):
    host: str
    what: str
    why: str
    test: str
    """The test that holds it: ``tests/<path>::<name>``."""


#: Each place a host's globals or private classes are touched, because the host has no public hook there.
PATCHES = (
    Patch(
        "ir_measures",
        "the measure names into `ir_measures.measures.registry`, the provider into `providers.registry` and "
        "first in `DefaultPipeline.providers` (`hosts/register.py`)",
        "no plugin mechanism: `calc_aggregate`, `parse_measure` and PyTerrier know only what these hold",
        "tests/hosts/test_register.py::test_install_is_idempotent_and_puts_our_provider_first",
    ),
    Patch(
        "ir_datasets",
        "a finder on `sys.meta_path` that registers the COLIEE datasets right after `ir_datasets` is imported "
        "(`hosts/register.py`)",
        "no plugin mechanism, and importing ir_datasets (with numpy) at `import ir_coliee` would double the "
        "start-up of `ir_coliee eval`",
        "tests/hosts/test_register.py::test_datasets_are_registered_whichever_is_imported_first",
    ),
    Patch(
        "ir_datasets",
        "`ir_datasets.parent_id` wrapped once: a dataset whose docs handler is a linked corpus's gets it as "
        "docs parent (`hosts/register.py`)",
        "`parent_id` only walks up the dataset id, and Tasks 3 and 4 of an edition (and the `/ja` ids) read "
        "one Civil Code",
        "tests/data/test_datasets.py::test_the_docs_links_leave_other_datasets_to_ir_datasets_and_wrap_once",
    ),
    Patch(
        "PyTerrier",
        "a subclass of the private `pyterrier.datasets._irds.IRDSDataset` (`hosts/pt_datasets.py`)",
        "its `get_results()` copies each query's text into every candidate row (tens of GB for Task 1)",
        "tests/hosts/test_pt_datasets_caselaw.py::test_pyterrier_reranks_each_querys_candidates",
    ),
)
