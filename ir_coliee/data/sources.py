"""Which file serves each part of a dataset: the record the catalog of dataset ids and ``ir_coliee data
check`` share (free of ir_datasets, so reading a dataset's gold does not load it)."""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from ir_coliee.data.files import DataFile
from ir_coliee.errors import ColieeDataError, ColieeError


class Source(NamedTuple):
    """One part of a dataset and the file it is read from (or why it cannot be)."""

    part: str
    """``docs``, ``queries``, ``qrels``, ..."""
    location: Optional[str]
    """The file it is read from, ``None`` when missing."""
    problem: str
    """What is missing or odd (empty when all is well)."""
    edition: Optional[int] = None
    """The COLIEE edition of the package the file came in, when its path says."""


def source_of(part: str, resolve: Callable[[], DataFile]) -> Source:
    """Where ``part`` is read from, or what is missing or unreadable, without raising."""
    try:
        found = resolve()
    except ColieeDataError as e:
        return Source(part, None, e.short())
    except ColieeError as e:  # a file that says which files serve (a query list) cannot be read
        return Source(part, None, str(e).split("\n")[0])
    return Source(part, found.describe(), "", found.edition)
