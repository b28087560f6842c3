"""Gold and run as codes, and the per-query counts every ir_coliee measure derives from: the one engine
(numpy) the provider, the scorers and ``tune`` count with.

A run of ten million lines names a few thousand queries and documents over and over. Kept as codes
(each distinct id stored once, in a list; each line two integers and a score), it takes a tenth of the
memory of a string per cell, and the counts come from vectorised steps: map the gold's relevant pairs
onto the run's codes, look each up among the run's sorted distinct pairs (or those a cutoff keeps),
and add them up per query with ``bincount``. No Python object is made per line, and no table is sized
by queries times documents: memory grows with the input alone.

numpy is imported at first use (a run is made), not with this module: ``import ir_coliee`` does not
load it.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterator
from itertools import chain, count, repeat
from typing import TYPE_CHECKING, Optional, Union

from ir_measures.util import ScoredDoc

from ir_coliee.errors import ColieeScoringError

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

#: query id -> document id -> relevance (gold) or best score (run)
Table = dict[str, dict[str, float]]

#: Dataset ids of collections whose document names repeat across queries carry the query: ``826/032``.
SCOPE = "/"


class CheckedGold(dict):
    """A gold table of string ids and integer relevance, made by :func:`ir_coliee.table.shapes.gold_table` or by a
    gold file's reader. The layers a gold passes through (scorer, provider, ``compare``) each ask
    ``gold_table`` for it; this one is handed back as it is, not converted again (a twentieth of scoring 10M
    lines, three times over; a fifth of scoring a gold of a million queries)."""

    #: its ids, gathered on first use (:func:`gold_ids`); its codes at each relevance level, in
    #: ``vars(gold)["coded"]`` (:func:`coded_gold`)
    ids: object = None


#: The counts of every gold query as columns: the query ids, then relevant documents retrieved, distinct
#: documents retrieved, relevant documents.
CountColumns = tuple[list[str], list[int], list[int], list[int]]


# --- the numpy steps ----------------------------------------------------------------------------


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


#: A column of line codes or scores as a reader hands it over: an ``array.array`` (the line reader's) or a
#: numpy array; the run holds it as a numpy array.
Column = Union["array[int]", "array[float]", "np.ndarray"]


class CodedRun:
    """A run as codes: ``queries[i]`` and ``docs[i]`` index ``query_ids`` and ``doc_ids`` (lists of the
    distinct ids); ``scores[i]``. The columns are numpy arrays, every step below is taken in numpy.

    Iterating yields ``ir_measures.ScoredDoc`` rows; :meth:`frame` is the ``query_id, doc_id, score``
    DataFrame (built once, on first use). ``unique``: no (query, document) pair is given twice (the
    reader checked), so nothing needs merging.
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
        import numpy as np

        self.query_ids, self.doc_ids = query_ids, doc_ids
        # over the same memory where it can: codes keep their width (the fast reader's are 32-bit: no
        # copy of ten million lines), the line reader's arrays are not copied
        self.queries, self.docs = np.asarray(queries), np.asarray(docs)
        self.scores = np.asarray(scores, dtype=float)
        self.unique = unique
        #: the distinct pair codes, ascending (:meth:`pairs`), when the reader made them
        self._pairs = pairs
        self._frame: Optional[pd.DataFrame] = None
        #: The key of the gold ids this run's ids were aligned with (``ir_coliee.table.shapes.align``), so that
        #: the layers it passes through do not align it again.
        self.aligned: Optional[int] = None

    def __len__(self) -> int:
        return len(self.queries)

    def __iter__(self) -> Iterator[ScoredDoc]:
        queries, docs = self.query_ids, self.doc_ids
        for q, d, s in zip(self.queries.tolist(), self.docs.tolist(), self.scores.tolist()):
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
    ) -> tuple[np.ndarray, np.ndarray]:
        """The query and document codes taken through ``query_map`` and ``doc_map`` (``None``: kept)."""
        import numpy as np

        return (
            self.queries
            if query_map is None
            else np.asarray(query_map, dtype=np.int64)[self.queries],
            self.docs if doc_map is None else np.asarray(doc_map, dtype=np.int64)[self.docs],
        )

    def repeated(self) -> list[tuple[int, int]]:
        """Each line whose (query, document) pair came on an earlier line, with that first line."""
        if self.unique:
            return []
        rows = repeated_lines(self.queries, self.docs, len(self.doc_ids))
        return [(line, first) for line, first in rows.tolist()]

    def pairs(self) -> np.ndarray:
        """The distinct (query, document) pair codes (:func:`pair_codes`), ascending."""
        if self._pairs is None:
            import numpy as np

            ordered = sorted_pairs(self.queries, self.docs, len(self.doc_ids))
            first = np.ones(len(ordered), dtype=bool)
            first[1:] = ordered[1:] != ordered[:-1]
            self._pairs = ordered if self.unique else ordered[first]
        return self._pairs

    def ranked(self) -> np.ndarray:
        """The lines in trec_eval's order, the one order every cutoff keeps a prefix of: by query code,
        best score first, ties by doc id descending (as strings); of a pair given twice, only its line
        ranked first (its best score)."""
        import numpy as np

        doc_rank = np.empty(len(self.doc_ids), dtype=np.int64)
        doc_rank[sorted(range(len(self.doc_ids)), key=self.doc_ids.__getitem__)] = np.arange(
            len(self.doc_ids)
        )
        order = np.lexsort((-doc_rank[self.docs], -self.scores, self.queries))
        if self.unique:
            return order
        codes = pair_codes(self.queries[order], self.docs[order], len(self.doc_ids))
        return order[np.sort(np.unique(codes, return_index=True)[1])]

    def top(self, cutoff: Optional[int]) -> np.ndarray:
        """The distinct pair codes, ascending, of each query's ``cutoff`` best documents in the order of
        :meth:`ranked` (all of them when ``None``)."""
        if cutoff is None:
            return self.pairs()
        import numpy as np

        order = self.ranked()
        queries = self.queries[order]
        # a line's place in its query's ranking: its index less that of its query's first line
        place = np.arange(len(order)) - np.searchsorted(queries, queries)
        kept = order[place < cutoff]
        return np.sort(pair_codes(self.queries[kept], self.docs[kept], len(self.doc_ids)))

    def frame(self) -> pd.DataFrame:
        """``query_id``, ``doc_id``, ``score``, ids as Python strings (the shape ir_measures and PyTerrier take)."""
        if self._frame is None:
            import pandas as pd
            import pyarrow as pa

            # Arrow takes each id from the distinct ones and hands the column to pandas as it stands
            # (pandas 3's string dtype is Arrow's; older pandas get objects): no Python object per cell
            # on the way, which took a third more memory and twice the time
            q, d = pa.array(self.queries), pa.array(self.docs)
            self._frame = pd.DataFrame(
                {
                    "query_id": pa.array(self.query_ids, pa.string()).take(q).to_pandas(),
                    "doc_id": pa.array(self.doc_ids, pa.string()).take(d).to_pandas(),
                    "score": self.scores,
                }
            )
        return self._frame

    def _groups(self) -> Iterator[tuple[int, list[int], list[float]]]:
        """Each query code with the document codes and scores of its lines, in line order."""
        import numpy as np

        queries = self.queries
        order = None if np.all(queries[1:] >= queries[:-1]) else np.argsort(queries, kind="stable")
        codes = queries if order is None else queries[order]
        starts = (
            [0, *(np.flatnonzero(codes[1:] != codes[:-1]) + 1).tolist(), len(codes)]
            if len(codes)
            else []
        )
        for start, end in itertools.pairwise(starts):
            rows = slice(start, end) if order is None else order[start:end]
            yield int(codes[start]), self.docs[rows].tolist(), self.scores[rows].tolist()

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
        import numpy as np

        return np.bincount(self.queries, minlength=len(self.query_ids)).tolist()

    def docs_of_queries(self, kept: list[bool]) -> list[str]:
        """The distinct documents of the lines whose query code is marked in ``kept``."""
        import numpy as np

        lines = self.docs if all(kept) else self.docs[np.asarray(kept, dtype=bool)[self.queries]]
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


# --- the gold as codes, and the counts ------------------------------------------------------------------


class GoldIds:
    """The ids of the gold a run is aligned with: its queries (in order, and each one's position) and its
    (judged) documents, as sets: membership is what a run asks of them."""

    def __init__(self, gold: Table):
        self.queries = list(gold)
        self.position = dict(zip(self.queries, itertools.count()))
        self.docs = frozenset(itertools.chain.from_iterable(gold.values()))
        #: documents named ``query/doc`` (a dataset with case-scoped ids)
        self.scoped = bool(self.docs) and all(
            d.startswith(q + SCOPE) for q, docs in gold.items() for d in docs
        )
        self.key = hash((tuple(self.queries), self.docs))


def gold_ids(gold: Table) -> GoldIds:
    """The ids of ``gold``, gathered once per checked gold (the one door, the provider and tune each ask)."""
    ids = getattr(gold, "ids", None)
    if ids is None:
        ids = GoldIds(gold)
        if isinstance(gold, CheckedGold):
            gold.ids = ids
    return ids


def index_in(ids: list[str], position: dict[str, int]) -> np.ndarray:
    """For each of ``ids`` (a run's distinct ids), its ``position`` among the gold's, or -1."""
    import numpy as np

    return np.fromiter(map(position.get, ids, repeat(-1)), dtype=np.int64, count=len(ids))


def coded_gold(gold: Table, rel: int) -> CodedGold:
    """:class:`CodedGold` of ``gold``, made once per checked gold and relevance level: the provider and the
    scorer's totals each count with it, and making it walks every gold pair."""
    made: dict[int, CodedGold] = (
        vars(gold).setdefault("coded", {}) if isinstance(gold, CheckedGold) else {}
    )
    return made[rel] if rel in made else made.setdefault(rel, CodedGold(gold, rel))


class CodedGold:
    """The relevant pairs of a gold table as codes, made column by column (no Python object per pair)."""

    def __init__(self, gold: Table, rel: int):
        import numpy as np

        self.queries, self.rel = list(gold), rel
        judged = list(
            chain.from_iterable(gold.values())
        )  # every judged document, query after query
        # each document coded by sorting the hashes, not by a dict lookup per pair (the larger part of scoring a
        # million queries): as many codes as documents, unless two share a hash (then looked up after all)
        hashes = np.fromiter(map(hash, judged), dtype=np.int64, count=len(judged))
        _, first, doc = np.unique(hashes, return_index=True, return_inverse=True)
        self.docs = list(map(judged.__getitem__, first.tolist()))
        if len(self.docs) < len(gold_ids(gold).docs):
            self.docs = sorted(gold_ids(gold).docs)
            doc = np.fromiter(
                map(dict(zip(self.docs, count())).__getitem__, judged),
                dtype=np.int64,
                count=len(judged),
            )
        self.position = [gold_ids(gold).position, dict(zip(self.docs, count()))]
        relevance = np.fromiter(
            chain.from_iterable(map(dict.values, gold.values())), dtype=float, count=len(judged)
        )
        query = np.repeat(
            np.arange(len(gold)),
            np.fromiter(map(len, gold.values()), dtype=np.int64, count=len(gold)),
        )
        kept = relevance >= rel
        self.pairs = np.sort(query[kept] * len(self.docs) + doc[kept])
        self.relevant = np.bincount(query[kept], minlength=len(gold))

    def line_codes(self, run: CodedRun) -> tuple[np.ndarray, np.ndarray]:
        """For each distinct query and document id of ``run``, its position among the gold's, or -1."""
        return index_in(run.query_ids, self.position[0]), index_in(run.doc_ids, self.position[1])

    def relevant_lines(self, query: np.ndarray, doc: np.ndarray) -> np.ndarray:
        """Which lines, given as gold query and gold document positions (-1: not in the gold), name a
        relevant pair: a binary search among the relevant pairs (a table of every query and document
        would grow with their product, not with the input)."""
        import numpy as np

        hit = (query >= 0) & (doc >= 0)
        out = np.zeros(len(query), dtype=bool)
        if len(self.pairs):
            pairs = query[hit].astype(np.int64) * len(self.docs) + doc[hit]
            found = np.minimum(np.searchsorted(self.pairs, pairs), len(self.pairs) - 1)
            out[hit] = self.pairs[found] == pairs
        return out

    def counts(self, run: CodedRun, cutoff: Optional[int], answers: bool = False) -> CountColumns:
        """Counts of every gold query (a gold query absent from the run has nothing retrieved), of the
        documents ``run`` retrieves, or its best ``cutoff`` of each query (:meth:`CodedRun.top`). Each
        relevant pair, taken to the run's codes, is looked up among the run's distinct pairs (a binary
        search per relevant pair, not per line); each query retrieved as many documents as it has
        distinct pairs. ``answers``: answer accuracy, one gold answer and at most one answer a question
        (:meth:`refuse_answers`)."""
        import numpy as np

        n = len(self.queries)
        query_of, doc_of = self.line_codes(run)
        pairs = run.top(cutoff)
        width = max(len(run.doc_ids), 1)
        in_gold = query_of >= 0
        per_query = np.bincount(pairs // width, minlength=len(run.query_ids))
        retrieved = np.zeros(n, dtype=np.int64)
        retrieved[query_of[in_gold]] = per_query[in_gold]  # one run query per gold query (aligned)
        # the gold's codes -> the run's (-1: not in the run)
        run_query = np.full(n, -1, dtype=np.int64)
        run_query[query_of[in_gold]] = np.flatnonzero(in_gold)
        if answers:
            self.refuse_answers(run, pairs, run_query, retrieved)
        run_doc = np.full(len(self.docs), -1, dtype=np.int64)
        run_doc[doc_of[doc_of >= 0]] = np.flatnonzero(doc_of >= 0)
        gold_query, gold_doc = np.divmod(self.pairs, max(len(self.docs), 1))
        query, doc = run_query[gold_query], run_doc[gold_doc]
        shared = (query >= 0) & (doc >= 0)
        wanted = query[shared] * width + doc[shared]
        found = np.searchsorted(pairs, wanted)
        hit = found < len(pairs)
        hit[hit] = pairs[found[hit]] == wanted[hit]
        tp = np.bincount(gold_query[shared][hit], minlength=n)
        return self.queries, tp.tolist(), retrieved.tolist(), self.relevant.tolist()

    def refuse_answers(
        self, run: CodedRun, pairs: np.ndarray, run_query: np.ndarray, retrieved: np.ndarray
    ) -> None:
        """Refuse, at the first question in gold order, a gold of other than one answer (relevance at
        least ``rel``) or a run of more than one (``pairs``: the run's distinct pairs, ``run_query``: each
        gold question's code in the run): then the counts are those of answer accuracy, ``tp`` 1 where
        the question's one answer is the gold's."""
        import numpy as np

        wrong = np.flatnonzero((self.relevant != 1) | (retrieved > 1))
        if not len(wrong):
            return
        at = int(wrong[0])
        qid = self.queries[at]
        if self.relevant[at] != 1:
            labels = _named(self.pairs, at, self.docs)
            raise ColieeScoringError(
                f"gold question {qid!r} has {len(labels)} answers with relevance >= {self.rel} "
                f"({', '.join(map(repr, labels)) or 'none'}); answer accuracy needs exactly one"
            )
        answers = _named(pairs, int(run_query[at]), run.doc_ids)
        raise ColieeScoringError(
            f"question {qid!r} has {len(answers)} different answers ({', '.join(map(repr, answers))}); "
            "give one answer per question, or use a cutoff of 1 to take the best-scored one"
        )


def _named(pairs: np.ndarray, query: int, ids: list[str]) -> list[str]:
    """The documents ``pairs`` (codes of :func:`pair_codes` over ``ids``) give ``query``, by id."""
    width = max(len(ids), 1)
    return sorted(map(ids.__getitem__, (pairs[pairs // width == query] % width).tolist()))
