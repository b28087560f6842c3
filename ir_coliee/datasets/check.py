"""``ir_coliee data check``: which file serves each part of a dataset, and gold that points nowhere."""

from __future__ import annotations

import ir_datasets

from ir_coliee.datasets.common import REGISTERED, Source

_SHOWN = 10
#: Tasks whose qrels name documents (Tasks 4, 5 and the pilot's decisions name answers).
_DOCUMENT_GOLD = ("1", "2", "3")


def dataset_entry(dataset_id: str):
    """What ir_coliee knows of ``dataset_id``, loading a pattern-registered id (``.../train/h30``) first."""
    if dataset_id not in REGISTERED:
        try:
            ir_datasets.load(dataset_id)
        except KeyError:
            pass
    if dataset_id not in REGISTERED:
        raise KeyError(dataset_id)
    return REGISTERED[dataset_id]


def check_dataset(dataset_id: str) -> list[Source]:
    """The file of each part (``location`` ``None`` when missing) and, when everything is there, notes:
    the counts, and gold document ids that are not in the documents (real gold, e.g. articles the
    Civil Code file lacks)."""
    entry = dataset_entry(dataset_id)
    sources = entry.sources()
    if not all(s.location for s in sources):
        return sources
    dataset = ir_datasets.load(dataset_id)
    counts = [f"{sum(1 for _ in dataset.queries_iter())} queries", f"{sum(1 for _ in dataset.qrels_iter())} qrels"]
    if dataset.has_docs():
        counts.insert(0, f"{dataset.docs_count()} documents")
    sources.append(Source("counts", "", ", ".join(counts)))
    if entry.task in _DOCUMENT_GOLD:
        gold = list(dict.fromkeys(q.doc_id for q in dataset.qrels_iter()))
        found = dataset.docs_store().get_many(gold)
        absent = [d for d in gold if d not in found]
        if absent:
            shown = ", ".join(absent[:_SHOWN]) + (", ..." if len(absent) > _SHOWN else "")
            sources.append(Source("gold", "", f"{len(absent)} gold document ids not in the documents: {shown}"))
    return sources
