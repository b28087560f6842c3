"""Gold and run as plain dictionaries, and the per-query counts every ir_coliee measure derives from.

Below the readers and the providers: the writer ranks runs with it, the provider counts with it.

Conversion is the costly part of scoring a large run, so each input shape that ir_measures accepts
(dict of dicts, pandas DataFrame, iterable of namedtuples) has its own direct path, and only the
rows of gold queries are kept.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple, Optional

from ir_measures.util import ScoredDoc

from ir_coliee.errors import ColieeScoringError

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    import pyarrow as pa

#: query id -> document id -> relevance (gold) or best score (run)
Table = dict[str, dict[str, float]]


class Counts(NamedTuple):
    """One query's counts: relevant documents retrieved, distinct documents retrieved, relevant documents."""

    tp: int
    retrieved: int
    relevant: int


class CodedRun:
    """A run as codes: ``queries[i]`` and ``docs[i]`` index ``query_ids`` and ``doc_ids``; ``scores[i]``.

    Iterating yields ``ir_measures.ScoredDoc`` rows; :meth:`frame` is the ``query_id, doc_id, score``
    DataFrame (built once, on first use). ``unique``: no (query, document) pair is given twice (the
    reader checked), so nothing needs merging.
    """

    __slots__ = ("_frame", "aligned", "doc_ids", "docs", "queries", "query_ids", "scores", "unique")

    def __init__(
        self,
        query_ids: pa.Array,
        doc_ids: pa.Array,
        queries: np.ndarray,
        docs: np.ndarray,
        scores: np.ndarray,
        unique: bool = False,
    ):
        self.query_ids, self.doc_ids = query_ids, doc_ids
        self.queries, self.docs, self.scores = queries, docs, scores
        self.unique = unique
        self._frame: Optional[pd.DataFrame] = None
        #: The key of the gold ids this run's ids were aligned with (``ir_coliee.shapes.align``), so that
        #: the layers it passes through do not align it again.
        self.aligned: Optional[int] = None

    def __len__(self) -> int:
        return len(self.queries)

    def __iter__(self) -> Iterator[ScoredDoc]:
        queries, docs = self.query_ids.to_pylist(), self.doc_ids.to_pylist()
        for q, d, s in zip(self.queries.tolist(), self.docs.tolist(), self.scores.tolist()):
            yield ScoredDoc(queries[q], docs[d], s)

    def frame(self) -> pd.DataFrame:
        """``query_id``, ``doc_id``, ``score``, ids as Python strings (the shape ir_measures and PyTerrier take)."""
        if self._frame is None:
            import pandas as pd
            import pyarrow as pa

            # Arrow takes each id from the distinct ones and hands the column to pandas as it stands
            # (pandas 3's string dtype is Arrow's; older pandas get objects): no Python object per cell
            # on the way, which took a third more memory and twice the time
            self._frame = pd.DataFrame(
                {
                    "query_id": self.query_ids.take(pa.array(self.queries)).to_pandas(),
                    "doc_id": self.doc_ids.take(pa.array(self.docs)).to_pandas(),
                    "score": self.scores,
                }
            )
        return self._frame

    def table(self, keep: Optional[set[str]] = None) -> Table:
        """The run as ``{query_id: {doc_id: score}}`` (the queries in ``keep``, all when ``None``), each id
        string shared by all its lines; a pair given twice keeps its best score, as :func:`run_table`."""
        import numpy as np

        queries, docs = self.query_ids.to_pylist(), self.doc_ids.to_pylist()
        order = None if np.all(self.queries[1:] >= self.queries[:-1]) else np.argsort(self.queries, kind="stable")
        codes = self.queries if order is None else self.queries[order]
        starts = [0, *(np.flatnonzero(codes[1:] != codes[:-1]) + 1).tolist(), len(codes)] if len(codes) else []
        out: Table = {}
        for start, end in zip(starts, starts[1:]):
            qid = queries[codes[start]]
            if start == end or (keep is not None and qid not in keep):
                continue
            rows = slice(start, end) if order is None else order[start:end]
            named = map(docs.__getitem__, self.docs[rows].tolist())
            scores = self.scores[rows].tolist()
            table = out.setdefault(qid, {})
            if self.unique:
                table.update(zip(named, scores))
            else:
                for did, score in zip(named, scores):
                    if did not in table or score > table[did]:
                        table[did] = score
        return out

    def lines_per_query(self) -> np.ndarray:
        """How many lines each of :attr:`query_ids` has."""
        import numpy as np

        return np.bincount(self.queries, minlength=len(self.query_ids))

    def query_set(self, lines: Optional[np.ndarray] = None) -> set[str]:
        """The queries that have at least one line (``lines``: :meth:`lines_per_query`, when already counted)."""
        import pyarrow as pa

        present = (self.lines_per_query() if lines is None else lines) > 0
        return set(self.query_ids.filter(pa.array(present)).to_pylist())


def table_frame(table: Table) -> pd.DataFrame:
    """``{query_id: {doc_id: score}}`` as a ``query_id, doc_id, score`` DataFrame."""
    import pandas as pd

    rows = [(q, d, s) for q, docs in table.items() for d, s in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


def top_docs(docs: dict[str, float], cutoff: Optional[int]) -> Iterable[str]:
    """The retrieved documents: all of them, or the ``cutoff`` best by score, ties by doc id descending
    (trec_eval's order)."""
    if cutoff is None or len(docs) <= cutoff:
        return docs.keys()
    return [d for d, _ in heapq.nlargest(cutoff, docs.items(), key=lambda item: (item[1], item[0]))]


def set_counts(gold: Table, run: Table, cutoff: Optional[int], rel: int) -> dict[str, Counts]:
    """Counts of every gold query; a gold query absent from the run has nothing retrieved. Without a
    cutoff, the true positives are the intersection of two sets, which Python takes by walking the
    smaller one (the few relevant documents), not every retrieved document."""
    out: dict[str, Counts] = {}
    empty: dict[str, float] = {}
    for qid, judged in gold.items():
        relevant = {d for d, r in judged.items() if r >= rel}
        docs = run.get(qid, empty)
        if cutoff is None or len(docs) <= cutoff:
            out[qid] = Counts(len(docs.keys() & relevant), len(docs), len(relevant))
        else:
            top = list(top_docs(docs, cutoff))
            out[qid] = Counts(sum(1 for d in top if d in relevant), len(top), len(relevant))
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
