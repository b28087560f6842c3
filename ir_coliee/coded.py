"""Runs as integer codes, and the set counts taken from them with numpy.

A run of ten million lines names a few thousand queries and documents over and over. Kept as codes
(each distinct id stored once, in an Arrow string array; each line two integers and a score), it takes
a tenth of the memory of a string per cell, and the counts every ir_coliee measure needs come from
vectorised steps: map run ids onto the gold's with Arrow's ``index_in``, find the lines whose
(query, document) pair is relevant, and add them up per query with ``bincount``. No Python object
is made per line.

numpy and pyarrow are imported here, at first use of this module, not when ``ir_coliee`` is imported.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ir_coliee.tables import CodedRun, Counts, Table

#: Pair codes below this use a bitmap (one byte each) to find repeated pairs; above it, a hash table.
_BITMAP_LIMIT = 1 << 28


def index_in(ids: pa.Array, vocabulary: list[str]) -> np.ndarray:
    """For each of ``ids``, its position in ``vocabulary``, or -1."""
    found = pc.index_in(ids, value_set=pa.array(vocabulary, pa.string()))
    return found.fill_null(-1).to_numpy(zero_copy_only=False)


#: Lines handled at once where a step needs several arrays as long as the lines: bounds the memory.
_SLICE = 1 << 20


def _slices(n: int) -> list[slice]:
    return [slice(at, at + _SLICE) for at in range(0, n, _SLICE)]


def pair_codes(queries: np.ndarray, docs: np.ndarray, n_docs: int) -> np.ndarray:
    """One integer per (query, document) pair of codes."""
    return queries.astype(np.int64) * max(n_docs, 1) + docs


def repeated_pairs(queries: np.ndarray, docs: np.ndarray, n_docs: int) -> np.ndarray:
    """A mask of the lines whose (query, document) pair came on an earlier line."""
    if not len(queries):
        return np.zeros(0, dtype=bool)
    size = (int(queries.max()) + 1) * max(n_docs, 1)
    if size < _BITMAP_LIMIT:  # O(n), no hashing: if each line sets a new bit, no pair repeats
        seen = np.zeros(size, dtype=bool)
        for part in _slices(len(queries)):
            seen[pair_codes(queries[part], docs[part], n_docs)] = True
        if int(np.count_nonzero(seen)) == len(queries):
            return np.zeros(len(queries), dtype=bool)
    import pandas as pd

    return pd.Series(pair_codes(queries, docs, n_docs)).duplicated().to_numpy()


class CodedGold:
    """The relevant pairs of a gold table as codes, built once per evaluator and relevance level."""

    def __init__(self, gold: Table, rel: int):
        self.queries = list(gold)
        relevant = [[d for d, r in judged.items() if r >= rel] for judged in gold.values()]
        self.docs = list(dict.fromkeys(d for docs in relevant for d in docs))
        position = {d: i for i, d in enumerate(self.docs)}
        self.pairs = np.sort(
            np.array(
                [q * len(self.docs) + position[d] for q, docs in enumerate(relevant) for d in docs], dtype=np.int64
            )
        )
        self.relevant = np.array([len(docs) for docs in relevant], dtype=np.int64)
        size = len(self.queries) * len(self.docs)
        self.table: Optional[np.ndarray] = None
        if size < _BITMAP_LIMIT:  # a lookup per line instead of a binary search
            self.table = np.zeros(size, dtype=bool)
            self.table[self.pairs] = True

    def line_codes(self, run: CodedRun) -> tuple[np.ndarray, np.ndarray]:
        """For each distinct query and document id of ``run``, its position among the gold's, or -1."""
        return index_in(run.query_ids, self.queries), index_in(run.doc_ids, self.docs)

    def relevant_lines(self, query: np.ndarray, doc: np.ndarray) -> np.ndarray:
        """Which lines, given as gold query and gold document positions (-1: not in the gold), name a
        relevant pair."""
        hit = (query >= 0) & (doc >= 0)
        out = np.zeros(len(query), dtype=bool)
        if len(self.pairs):
            pairs = query[hit].astype(np.int64) * len(self.docs) + doc[hit]
            if self.table is not None:
                out[hit] = self.table[pairs]
            else:
                found = np.minimum(np.searchsorted(self.pairs, pairs), len(self.pairs) - 1)
                out[hit] = self.pairs[found] == pairs
        return out

    def counts(self, run: CodedRun) -> dict[str, Counts]:
        """Counts of every gold query (a gold query absent from the run has nothing retrieved), added up
        slice by slice of the run's lines."""
        n = len(self.queries)
        query_of, doc_of = self.line_codes(run)
        again = None if run.unique else repeated_pairs(run.queries, run.docs, len(run.doc_ids))
        tp = np.zeros(n, dtype=np.int64)
        retrieved = np.zeros(n, dtype=np.int64)
        for part in _slices(len(run)):
            line_query = query_of[run.queries[part]]
            kept = line_query >= 0
            if again is not None:
                kept &= ~again[part]
            retrieved += np.bincount(line_query[kept], minlength=n)
            relevant = kept & self.relevant_lines(line_query, doc_of[run.docs[part]])
            tp += np.bincount(line_query[relevant], minlength=n)
        return {
            q: Counts(t, r, rel)
            for q, t, r, rel in zip(self.queries, tp.tolist(), retrieved.tolist(), self.relevant.tolist())
        }
