"""Gold and run as plain dictionaries, and the per-query counts every ir_coliee measure derives from.

Below the readers and the providers: the writer ranks runs with it, the provider counts with it.

Conversion is the costly part of scoring a large run, so each input shape that ir_measures accepts
(dict of dicts, pandas DataFrame, iterable of namedtuples) has its own direct path, and only the
rows of gold queries are kept.
"""

from __future__ import annotations

import heapq
import itertools
from array import array
from collections import Counter, defaultdict
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING, NamedTuple, Optional, Union, cast

from ir_measures.util import ScoredDoc

from ir_coliee.errors import ColieeScoringError

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

#: query id -> document id -> relevance (gold) or best score (run)
Table = dict[str, dict[str, float]]


class CheckedGold(dict):
    """A gold table of string ids and integer relevance, made by :func:`ir_coliee.table.shapes.gold_table` or by a
    gold file's reader. The layers a gold passes through (scorer, provider, ``compare``) each ask
    ``gold_table`` for it; this one is handed back as it is, not converted again (a twentieth of scoring 10M
    lines, three times over; a fifth of scoring a gold of a million queries)."""

    #: its ids, gathered on first use (:func:`ir_coliee.table.shapes.gold_ids`); its codes at each relevance
    #: level, in ``vars(gold)["coded"]`` (:func:`ir_coliee.table.coded.coded_gold`)
    ids: object = None


class Counts(NamedTuple):
    """One query's counts: relevant documents retrieved, distinct documents retrieved, relevant documents."""

    tp: int
    retrieved: int
    relevant: int


#: The counts of every gold query as columns: the query ids, then the three counts of :class:`Counts`.
CountColumns = tuple[list[str], list[int], list[int], list[int]]


def count_columns(counts: dict[str, Counts]) -> CountColumns:
    tp, retrieved, relevant = [list(c) for c in zip(*counts.values())] if counts else ([], [], [])
    return list(counts), tp, retrieved, relevant


# --- the numpy steps of long runs -------------------------------------------------------------------


def pair_codes(queries: np.ndarray, docs: np.ndarray, n_docs: int) -> np.ndarray:
    """One integer per (query, document) pair of codes."""
    import numpy as np

    codes = np.multiply(queries, max(n_docs, 1), dtype=np.int64)
    codes += docs
    return codes


def sorted_pairs(queries: np.ndarray, docs: np.ndarray, n_docs: int) -> np.ndarray:
    """The lines' pair codes in ascending order: equal neighbours are a pair given twice. A stable sort
    (a merge sort of sorted stretches): runs come grouped by query, which it takes in long stretches,
    in a fifth of the time of numpy's default sort; memory stays two integers per line, where a table of
    every query and document would grow with their product."""
    codes = pair_codes(queries, docs, n_docs)
    codes.sort(kind="stable")  # in place: np.sort would copy them first
    return codes


def repeated_lines(queries: np.ndarray, docs: np.ndarray, n_docs: int) -> np.ndarray:
    """Each line whose pair came on an earlier line, with that first line: rows ``(line, first)`` in
    line order, found by a stable sort of the pair codes (equal codes keep their line order)."""
    import numpy as np

    codes = pair_codes(queries, docs, n_docs)
    order = np.argsort(codes, kind="stable")
    codes = codes[order]
    new = np.ones(len(codes), dtype=bool)
    new[1:] = codes[1:] != codes[:-1]
    # the first line of each pair is where its stretch of equal codes starts
    starts = np.maximum.accumulate(np.where(new, np.arange(len(codes)), 0))
    rows = np.stack([order[~new], order[starts[~new]]], axis=1)
    return rows[np.argsort(rows[:, 0])]


#: The line reader's runs shorter than this take their per-line steps in plain Python: for a submission
#: of a few thousand lines, importing numpy costs more than the work (``bench/bench_speed.py``). Longer
#: runs, and runs held in numpy arrays, take them in numpy. Both give the same values; the tests compare
#: them on every method, at every size.
SMALL_RUN = 30_000

#: A column of line codes or scores: an ``array.array`` (the line reader's) or a numpy array.
Column = Union["array[int]", "array[float]", "np.ndarray"]


class CodedRun:
    """A run as codes: ``queries[i]`` and ``docs[i]`` index ``query_ids`` and ``doc_ids`` (lists of the
    distinct ids); ``scores[i]``. The columns are ``array.array`` or numpy arrays.

    Iterating yields ``ir_measures.ScoredDoc`` rows; :meth:`frame` is the ``query_id, doc_id, score``
    DataFrame (built once, on first use). ``unique``: no (query, document) pair is given twice (the
    reader checked), so nothing needs merging. The per-line steps below run in plain Python for a
    :attr:`small` run, else in numpy.
    """

    __slots__ = (
        "_frame",
        "_pairs",
        "aligned",
        "doc_ids",
        "docs",
        "queries",
        "query_ids",
        "scores",
        "unique",
    )

    def __init__(
        self,
        query_ids: list[str],
        doc_ids: list[str],
        queries: Column,
        docs: Column,
        scores: Column,
        unique: bool = False,
        pairs: Optional[np.ndarray] = None,
    ):
        self.query_ids, self.doc_ids = query_ids, doc_ids
        self.queries, self.docs, self.scores = queries, docs, scores
        self.unique = unique
        #: the distinct pair codes, ascending (:meth:`pairs`), when the reader made them
        self._pairs = pairs
        self._frame: Optional[pd.DataFrame] = None
        #: The key of the gold ids this run's ids were aligned with (``ir_coliee.table.shapes.align``), so that
        #: the layers it passes through do not align it again.
        self.aligned: Optional[int] = None

    def __len__(self) -> int:
        return len(self.queries)

    @property
    def small(self) -> bool:
        """Whether the per-line steps run in plain Python: codes in ``array.array`` (the line reader's)
        shorter than :data:`SMALL_RUN`. Codes in numpy arrays take the numpy steps (numpy is loaded)."""
        return len(self) < SMALL_RUN and isinstance(self.queries, array)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Query codes, document codes and scores as numpy arrays (over the same memory where it can)."""
        import numpy as np

        # codes keep their width (the fast reader's are 32-bit: no copy of ten million lines)
        return np.asarray(self.queries), np.asarray(self.docs), np.asarray(self.scores, dtype=float)

    def lists(self) -> tuple[list[int], list[int]]:
        """Query and document codes as Python lists (the small steps)."""
        return cast(list[int], self.queries.tolist()), cast(list[int], self.docs.tolist())

    def __iter__(self) -> Iterator[ScoredDoc]:
        queries, docs = self.query_ids, self.doc_ids
        for q, d, s in zip(*self.lists(), self.scores.tolist()):
            yield ScoredDoc(queries[q], docs[d], s)

    def with_codes(
        self, query_ids: list[str], doc_ids: list[str], queries: Column, docs: Column, merged: bool
    ) -> CodedRun:
        """The same lines under other ids (``merged``: two ids became one, so pairs may repeat)."""
        return CodedRun(
            query_ids, doc_ids, queries, docs, self.scores, unique=self.unique and not merged
        )

    def remapped(
        self, query_map: Optional[list[int]], doc_map: Optional[list[int]]
    ) -> tuple[Column, Column]:
        """The query and document codes taken through ``query_map`` and ``doc_map`` (``None``: kept)."""
        if self.small:
            queries, docs = self.lists()
            return (
                self.queries
                if query_map is None
                else array("q", map(query_map.__getitem__, queries)),
                self.docs if doc_map is None else array("q", map(doc_map.__getitem__, docs)),
            )
        import numpy as np

        q, d, _ = self.arrays()
        return (
            q if query_map is None else np.asarray(query_map, dtype=np.int64)[q],
            d if doc_map is None else np.asarray(doc_map, dtype=np.int64)[d],
        )

    def repeated(self) -> list[tuple[int, int]]:
        """Each line whose (query, document) pair came on an earlier line, with that first line."""
        if self.unique:
            return []
        if self.small:
            first: dict[tuple[int, int], int] = {}
            return [
                (i, first[pair])
                for i, pair in enumerate(zip(*self.lists()))
                if first.setdefault(pair, i) != i
            ]
        q, d, _ = self.arrays()
        return [(line, first) for line, first in repeated_lines(q, d, len(self.doc_ids)).tolist()]

    def pairs(self) -> np.ndarray:
        """The distinct (query, document) pair codes (:func:`pair_codes`), ascending."""
        if self._pairs is None:
            import numpy as np

            ordered = sorted_pairs(*self.arrays()[:2], len(self.doc_ids))
            first = np.ones(len(ordered), dtype=bool)
            first[1:] = ordered[1:] != ordered[:-1]
            self._pairs = ordered if self.unique else ordered[first]
        return self._pairs

    def frame(self) -> pd.DataFrame:
        """``query_id``, ``doc_id``, ``score``, ids as Python strings (the shape ir_measures and PyTerrier take)."""
        if self._frame is None:
            import pandas as pd
            import pyarrow as pa

            # Arrow takes each id from the distinct ones and hands the column to pandas as it stands
            # (pandas 3's string dtype is Arrow's; older pandas get objects): no Python object per cell
            # on the way, which took a third more memory and twice the time
            q, d, scores = self.arrays()
            self._frame = pd.DataFrame(
                {
                    "query_id": pa.array(self.query_ids, pa.string()).take(pa.array(q)).to_pandas(),
                    "doc_id": pa.array(self.doc_ids, pa.string()).take(pa.array(d)).to_pandas(),
                    "score": scores,
                }
            )
        return self._frame

    def _groups(self) -> Iterator[tuple[int, list[int], list[float]]]:
        """Each query code with the document codes and scores of its lines, in line order."""
        if self.small:
            docs_of: defaultdict[int, tuple[list[int], list[float]]] = defaultdict(lambda: ([], []))
            for q, d, s in zip(*self.lists(), self.scores.tolist()):
                docs_of[q][0].append(d)
                docs_of[q][1].append(s)
            yield from ((q, ds, ss) for q, (ds, ss) in docs_of.items())
            return
        import numpy as np

        query_codes, doc_codes, scores = self.arrays()
        order = (
            None
            if np.all(query_codes[1:] >= query_codes[:-1])
            else np.argsort(query_codes, kind="stable")
        )
        codes = query_codes if order is None else query_codes[order]
        starts = (
            [0, *(np.flatnonzero(codes[1:] != codes[:-1]) + 1).tolist(), len(codes)]
            if len(codes)
            else []
        )
        for start, end in itertools.pairwise(starts):
            rows = slice(start, end) if order is None else order[start:end]
            yield int(codes[start]), doc_codes[rows].tolist(), scores[rows].tolist()

    def table(self, keep: Optional[set[str]] = None) -> Table:
        """The run as ``{query_id: {doc_id: score}}`` (the queries in ``keep``, all when ``None``), each id
        string shared by all its lines; a pair given twice keeps its best score, as :func:`run_table`."""
        out: Table = {}
        for q, doc_codes, scores in self._groups():
            qid = self.query_ids[q]
            if keep is not None and qid not in keep:
                continue
            named = map(self.doc_ids.__getitem__, doc_codes)
            table = out.setdefault(qid, {})
            if self.unique:
                table.update(zip(named, scores))
            else:
                for did, score in zip(named, scores):
                    if did not in table or score > table[did]:
                        table[did] = score
        return out

    def lines_per_query(self) -> list[int]:
        """How many lines each of :attr:`query_ids` has."""
        if self.small:
            counted = Counter(self.queries.tolist())
            return [counted[c] for c in range(len(self.query_ids))]
        import numpy as np

        return np.bincount(
            np.asarray(self.queries, dtype=np.int64), minlength=len(self.query_ids)
        ).tolist()

    def docs_of_queries(self, kept: list[bool]) -> list[str]:
        """The distinct documents of the lines whose query code is marked in ``kept``."""
        if self.small:
            queries, docs = self.lists()
            seen = {d for q, d in zip(queries, docs) if kept[q]}
            return [d for i, d in enumerate(self.doc_ids) if i in seen]
        import numpy as np

        q, d, _ = self.arrays()
        lines = d if all(kept) else d[np.asarray(kept, dtype=bool)[q]]
        found = np.bincount(lines, minlength=len(self.doc_ids)) > 0
        return [doc for doc, p in zip(self.doc_ids, found.tolist()) if p]

    def query_set(self, lines: Optional[list[int]] = None) -> set[str]:
        """The queries that have at least one line (``lines``: :meth:`lines_per_query`, when already counted)."""
        counted = self.lines_per_query() if lines is None else lines
        return {q for q, n in zip(self.query_ids, counted) if n}


def table_frame(table: Table, value: str = "score") -> pd.DataFrame:
    """``{query_id: {doc_id: value}}`` as a ``query_id, doc_id, score`` DataFrame (a run), or with
    ``value="relevance"`` a ``query_id, doc_id, relevance`` one (qrels)."""
    import pandas as pd

    rows = [(q, d, s) for q, docs in table.items() for d, s in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", value])


def top_docs(docs: dict[str, float], cutoff: Optional[int]) -> Collection[str]:
    """The retrieved documents: all of them, or the ``cutoff`` best by score, ties by doc id descending
    (trec_eval's order)."""
    if cutoff is None or len(docs) <= cutoff:
        return docs.keys()
    return [d for d, _ in heapq.nlargest(cutoff, docs.items(), key=lambda item: (item[1], item[0]))]


def set_counts(gold: Table, run: Table, cutoff: Optional[int], rel: int) -> dict[str, Counts]:
    """Counts of every gold query; a gold query absent from the run has nothing retrieved. (A long run
    without cutoff is counted in numpy, :mod:`ir_coliee.table.coded`; here runs are short or cut.)"""
    out: dict[str, Counts] = {}
    empty: dict[str, float] = {}
    for qid, judged in gold.items():
        relevant = {d for d, r in judged.items() if r >= rel}
        top = top_docs(run.get(qid, empty), cutoff)
        out[qid] = Counts(len(relevant.intersection(top)), len(top), len(relevant))
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
