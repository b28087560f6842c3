"""Gold and run as plain dictionaries, and the per-query counts every ir_coliee measure derives from.

Below the readers and the providers: the writer ranks runs with it, the provider counts with it.

Conversion is the costly part of scoring a large run, so each input shape that ir_measures accepts
(dict of dicts, pandas DataFrame, iterable of namedtuples) has its own direct path, and only the
rows of gold queries are kept.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import NamedTuple, Optional

from ir_measures.util import TYPE_QREL, TYPE_RUN, QrelsConverter, RunConverter

from ir_coliee.errors import ColieeScoringError

#: query id -> document id -> relevance (gold) or best score (run)
Table = dict[str, dict[str, float]]


class Counts(NamedTuple):
    """One query's counts: relevant documents retrieved, distinct documents retrieved, relevant documents."""

    tp: int
    retrieved: int
    relevant: int


def _unknown_format(kind: str, err: Optional[str]) -> ColieeScoringError:
    return ColieeScoringError(f"cannot read the {kind}: {err}")


def gold_table(qrels: TYPE_QREL) -> Table:
    """The gold as ``{query_id: {doc_id: relevance}}``; its queries define the query set."""
    conv = QrelsConverter(qrels)
    kind, err = conv.predict_type()
    if kind == "UNKNOWN":
        raise _unknown_format("qrels", err)
    if kind == "dict_of_dict":
        return {q: dict(docs) for q, docs in conv.qrels.items()}
    table: Table = {}
    if kind == "pd_dataframe":
        df = conv.qrels
        rows: Iterable[tuple[str, str, float]] = zip(
            df["query_id"].tolist(), df["doc_id"].tolist(), df["relevance"].tolist()
        )
    else:
        rows = ((q.query_id, q.doc_id, q.relevance) for q in conv.as_namedtuple_iter())
    for qid, did, rel in rows:
        table.setdefault(qid, {})[did] = rel
    return table


def run_table(run: TYPE_RUN, keep: Optional[Iterable[str]] = None) -> Table:
    """The run as ``{query_id: {doc_id: score}}``, for the query ids in ``keep`` (all when ``None``).

    A (query, document) pair that appears more than once counts once, with its highest score.
    """
    wanted = None if keep is None else set(keep)
    conv = RunConverter(run)
    kind, err = conv.predict_type()
    if kind == "UNKNOWN":
        raise _unknown_format("run", err)
    if kind == "dict_of_dict":
        return {q: docs for q, docs in conv.run.items() if wanted is None or q in wanted}
    if kind == "pd_dataframe":
        df = conv.run if wanted is None else conv.run[conv.run["query_id"].isin(wanted)]
        rows: Iterable[tuple[str, str, float]] = zip(
            df["query_id"].tolist(), df["doc_id"].tolist(), df["score"].tolist()
        )
    else:
        rows = (
            (r.query_id, r.doc_id, r.score) for r in conv.as_namedtuple_iter() if wanted is None or r.query_id in wanted
        )
    table: Table = {}
    for qid, did, score in rows:
        docs = table.get(qid)
        if docs is None:
            table[qid] = {did: score}
        elif did not in docs or score > docs[did]:
            docs[did] = score
    return table


def top_docs(docs: dict[str, float], cutoff: Optional[int]) -> Iterable[str]:
    """The retrieved documents: all of them, or the ``cutoff`` best by score, ties by doc id descending
    (trec_eval's order)."""
    if cutoff is None or len(docs) <= cutoff:
        return docs.keys()
    return [d for d, _ in heapq.nlargest(cutoff, docs.items(), key=lambda item: (item[1], item[0]))]


def set_counts(gold: Table, run: Table, cutoff: Optional[int], rel: int) -> dict[str, Counts]:
    """Counts of every gold query; a gold query absent from the run has nothing retrieved."""
    out: dict[str, Counts] = {}
    empty: dict[str, float] = {}
    for qid, judged in gold.items():
        retrieved = top_docs(run.get(qid, empty), cutoff)
        tp = 0
        n = 0
        for did in retrieved:
            n += 1
            if judged.get(did, -1) >= rel:
                tp += 1
        relevant = sum(1 for r in judged.values() if r >= rel)
        out[qid] = Counts(tp, n, relevant)
    return out


def answer_counts(gold: Table, run: Table, cutoff: Optional[int], rel: int) -> dict[str, Counts]:
    """Counts of answer accuracy: ``tp`` is 1 when the question's single answer is the gold answer."""
    out: dict[str, Counts] = {}
    empty: dict[str, float] = {}
    for qid, judged in gold.items():
        gold_labels = sorted(label for label, r in judged.items() if r >= rel)
        if len(gold_labels) != 1:
            raise ColieeScoringError(
                f"gold question {qid!r} has {len(gold_labels)} answers with relevance >= {rel} "
                f"({', '.join(map(repr, gold_labels)) or 'none'}); answer accuracy needs exactly one"
            )
        answers: list[str] = sorted(top_docs(run.get(qid, empty), cutoff))
        if len(answers) > 1:
            raise ColieeScoringError(
                f"question {qid!r} has {len(answers)} different answers ({', '.join(map(repr, answers))}); "
                "give one answer per question, or use a cutoff of 1 to take the best-scored one"
            )
        out[qid] = Counts(int(answers == gold_labels), len(answers), 1)
    return out
