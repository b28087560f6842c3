"""``ir_coliee data check``: which file serves each part of a dataset, and gold that points nowhere."""

from __future__ import annotations

import re

import ir_datasets
from ir_datasets.datasets.base import Dataset

from ir_coliee.data.catalog import EXAM_SUBSET, Registered, catalog, dataset_entry
from ir_coliee.data.datasets.common import PARTS
from ir_coliee.data.guards import threats
from ir_coliee.data.locator import LOCATOR, Source
from ir_coliee.errors import some
from ir_coliee.model import DOCUMENTS, task_of

_SHOWN = 10


def _named(part: str, ids: list[str], what: str) -> list[Source]:
    """A note naming the first of ``ids`` and how many there are; none when there are none."""
    return [Source(part, "", f"{len(ids)} {what}: {some(ids, _SHOWN)}")] if ids else []


def _ungraded(dataset: Dataset, entry: Registered, sources: list[Source]) -> list[Source]:
    """Released questions without gold: not queries of the dataset, and not scored."""
    graded = {q.query_id for q in dataset.queries_iter()}
    files = sorted({s.location for s in sources if s.part.startswith("queries") and s.location})
    where = f" (released in {', '.join(files)})" if files else ""
    ungraded = [q for q in entry.files.released() if q not in graded]
    return _named("queries", ungraded, f"released questions have no gold and are not scored{where}")


def _empty_gold(dataset: Dataset) -> list[Source]:
    """Labelled questions whose article gold came out empty: real gold is never empty, the file is odd."""
    if not hasattr(dataset, "questions_iter"):
        return []
    empty = [q.query_id for q in dataset.questions_iter() if q.label and not q.articles]
    return _named("gold", empty, "labelled questions have no gold article (t1 names none)")


def _copies(sources: list[Source]) -> list[Source]:
    """The files read that have copies under the data root, with the copies not read."""
    return [
        Source(
            "copies",
            "",
            f"{chosen} is read; also under the data root, not read: {', '.join(rivals)}",
        )
        for chosen, rivals in LOCATOR.copies.items()
        if any(
            s.location and (s.location == chosen or f"/{chosen}/" in s.location) for s in sources
        )
    ]


def _counts(dataset: Dataset) -> list[Source]:
    """The counts of the user's files (the dataset's ``SizeCounts`` component), and each one that differs
    from a complete official copy ("2,158 of 2,159 documents")."""
    found, short, unknown = [], [], False
    for part, noun in PARTS.items():
        if not getattr(dataset, f"has_{part}")():
            continue
        n, known = dataset.files_count(part), dataset.known_count(part)
        unknown |= known is None
        found.append(f"{n:,} {noun}" + (" (as official)" if known == n else ""))
        if known is not None and n != known:
            problem = (
                f"{n:,} of {known:,} {noun} of a complete official copy: incomplete or altered"
            )
            short.append(Source(part, "", problem))
    note = "; counted from your files where no official size is known" if unknown else ""
    return [Source("counts", "", ", ".join(found) + note), *short]


def check_dataset(dataset_id: str) -> list[Source]:
    """The file of each part (``location`` ``None`` when missing) and, when everything is there, notes:
    the counts, and gold document ids that are not in the documents (real gold, e.g. articles the
    Civil Code file lacks)."""
    entry = dataset_entry(dataset_id)
    sources = entry.files.sources()
    sources.extend(_copies(sources))
    if not all(s.location is not None for s in sources):
        return sources
    dataset = ir_datasets.load(dataset_id)
    sources.extend(_counts(dataset))
    sources.extend(_ungraded(dataset, entry, sources))
    if task_of(entry.task).gold == DOCUMENTS:
        sources.extend(_empty_gold(dataset))
        gold = list(dict.fromkeys(q.doc_id for q in dataset.qrels_iter()))
        found = dataset.docs_store().get_many(gold)
        absent = [d for d in gold if d not in found]
        sources.extend(_named("gold", absent, "gold document ids not in the documents"))
    sources.extend(Source(rule, "", message) for rule, message in threats(entry))
    return sources


def status(dataset_id: str) -> tuple[str, list[str]]:
    """``complete``, ``incomplete`` or ``absent``, and what is wrong (``missing docs``, ``cannot read
    queries, qrels``); reads the folder listing, the gold and the small files that list what a part holds
    (a query list, whose case files must be there)."""
    sources = dataset_entry(dataset_id).files.sources()
    missing = [s for s in sources if s.location is None]
    if not missing:
        return "complete", []
    said = [
        f"{what} {', '.join(s.part for s in missing if s.unreadable == unreadable)}"
        for what, unreadable in (("missing", False), ("cannot read", True))
        if any(s.unreadable == unreadable for s in missing)
    ]
    return ("absent" if len(missing) == len(sources) else "incomplete"), said


def listed_ids() -> list[str]:
    """Every registered id but the per-exam subsets (loadable by pattern, not listed)."""
    return sorted(d for d in catalog() if not re.match(EXAM_SUBSET, d))
