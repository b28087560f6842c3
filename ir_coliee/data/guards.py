"""What threatens a comparison in the case-law data itself (COLIEE-SPEC section 10): byte-identical case
files under different ids in one pool (a relevant case may have a twin that is not in the gold), and test
query cases present verbatim in a training pool of the same or a later edition (training there leaks the
test). Files are compared by a digest of their bytes, each file read once per change of it."""

from __future__ import annotations

import hashlib
from typing import NamedTuple, Optional

from ir_coliee.data.catalog import Registered, catalog
from ir_coliee.data.files import DataFile, FileCache
from ir_coliee.data.layouts import Layout
from ir_coliee.errors import WARNING, Finding


@FileCache
def _digest(f: DataFile) -> bytes:
    return hashlib.blake2b(f.read_bytes(), digest_size=16).digest()


class Leak(NamedTuple):
    """Test query cases found verbatim in one training pool."""

    training: str
    """The training dataset whose pool holds them."""
    queries: list[str]
    """The test query ids, each with the training id of its twin: ``000123 = 004567``."""


def identical_documents(entry: Registered) -> list[list[str]]:
    """Groups of document ids of a case-law dataset whose files are byte-identical (largest first);
    empty for other datasets."""
    if not isinstance(entry.files, Layout):
        return []
    by_digest: dict[bytes, list[str]] = {}
    for doc_id, f in entry.files.docs().items():
        by_digest.setdefault(_digest(f), []).append(doc_id)
    return sorted(
        (ids for ids in by_digest.values() if len(ids) > 1), key=lambda ids: (-len(ids), ids)
    )


def leaked_queries(entry: Registered) -> list[Leak]:
    """The test query cases of a case-law test dataset present verbatim in the pool of a training dataset
    of the same task, of the same or a later edition (only those whose files are under the data root)."""
    if not isinstance(entry.files, Layout) or entry.split != "test":
        return []
    tests = {
        _digest(f): q
        for q in entry.files.query_ids()
        if (f := _query_file(entry.files, q)) is not None
    }
    leaks = []
    for other in catalog().values():
        if other.task != entry.task or other.split != "train" or other.year < entry.year:
            continue
        layout = other.files
        # 2021's train and test queries share one pool: its test cases are in it by design, not leaked
        if (
            not isinstance(layout, Layout)
            or layout.pool() == entry.files.pool()
            or not _present(layout)
        ):
            continue
        found = {tests[d]: doc for doc, f in layout.docs().items() if (d := _digest(f)) in tests}
        if found:
            leaks.append(
                Leak(other.dataset_id, [f"{q} = {doc}" for q, doc in sorted(found.items())])
            )
    return leaks


def _query_file(layout: Layout, query_id: str) -> Optional[DataFile]:
    """A listed query's case file, ``None`` when the pool lacks it (an incomplete copy)."""
    try:
        return layout.query_file(query_id)
    except LookupError:
        return None


def _present(layout: Layout) -> bool:
    """Whether the pool's files are under the data root."""
    try:
        return bool(layout.docs())
    except LookupError:
        return False


def threats(entry: Registered, shown: int = 5) -> list[tuple[str, str]]:
    """``(rule, message)`` for each threat to a comparison on ``entry``: ``identical-documents``,
    ``test-in-training`` (what ``data check`` and ``ir_coliee benchmark`` report); ``unchecked`` when
    the dataset's own case files are not under the data root (its gold alone is enough to score)."""
    if isinstance(entry.files, Layout) and not _present(entry.files):
        why = "identical documents and test cases in training pools not checked: no case files"
        return [("unchecked", why)]
    found = []
    groups = identical_documents(entry)
    if groups:
        files = sum(len(g) for g in groups)
        examples = _first([" = ".join(g) for g in groups], "; ", shown)
        message = (
            f"{len(groups)} groups of byte-identical documents under different ids ({files} files): {examples}"
            " (a relevant document may have a twin that is not in the gold)"
        )
        found.append(("identical-documents", message))
    for leak in leaked_queries(entry):
        message = (
            f"{len(leak.queries)} test query cases are in the training pool of {leak.training} "
            f"(test = training id): {_first(leak.queries, ', ', shown)}; a system trained there has seen them"
        )
        found.append(("test-in-training", message))
    return found


def threat_findings(name: str, entry: Registered) -> list[Finding]:
    """The :func:`threats` to comparing on ``entry`` as warnings about ``name`` (what ``ir_coliee benchmark``
    reports), and each part read from another edition's files."""
    found = threats(entry)
    found += [
        (
            "other-edition",
            f"{s.part} served from the {s.edition} package ({s.location}), not the {entry.year} one",
        )
        for s in entry.files.sources()
        if s.edition is not None and s.edition != entry.year
    ]
    return [Finding(WARNING, name, None, message, rule) for rule, message in found]


def _first(items: list[str], separator: str, shown: int) -> str:
    """The first ``shown`` items, then how many more there are: ``a; b; 3 more``."""
    more = f"{separator}{len(items) - shown} more" if len(items) > shown else ""
    return separator.join(items[:shown]) + more
