"""Runs as integer codes, and the set counts taken from them with numpy.

A run of ten million lines names a few thousand queries and documents over and over. Kept as codes
(each distinct id stored once, in a list; each line two integers and a score), it takes
a tenth of the memory of a string per cell, and the counts every ir_coliee measure needs come from
vectorised steps: map the gold's relevant pairs onto the run's codes, look each up among the run's
sorted distinct pairs, and add them up per query with ``bincount``. No Python object is made per
line, and no table is sized by queries times documents: memory grows with the input alone.

numpy is imported here, at first use of this module: runs held in numpy arrays, and the line reader's
runs of :data:`~ir_coliee.table.tables.SMALL_RUN` lines or more, come here; a :attr:`~ir_coliee.table.tables.CodedRun.small`
run is counted in plain Python (:func:`ir_coliee.table.tables.set_counts`), with the same values.
"""

from __future__ import annotations

from itertools import chain, count, repeat

import numpy as np

from ir_coliee.table.tables import CheckedGold, CodedRun, CountColumns, Table


def index_in(ids: list[str], position: dict[str, int]) -> np.ndarray:
    """For each of ``ids`` (a run's distinct ids), its ``position`` among the gold's, or -1."""
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
        from ir_coliee.table.shapes import gold_ids

        self.queries = list(gold)
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
        hit = (query >= 0) & (doc >= 0)
        out = np.zeros(len(query), dtype=bool)
        if len(self.pairs):
            pairs = query[hit].astype(np.int64) * len(self.docs) + doc[hit]
            found = np.minimum(np.searchsorted(self.pairs, pairs), len(self.pairs) - 1)
            out[hit] = self.pairs[found] == pairs
        return out

    def counts(self, run: CodedRun) -> CountColumns:
        """Counts of every gold query (a gold query absent from the run has nothing retrieved), from the
        run's sorted distinct pairs: each relevant pair, taken to the run's codes, is looked up among
        them (a binary search per relevant pair, not per line), and each query retrieved as many
        documents as it has distinct pairs."""
        n = len(self.queries)
        query_of, doc_of = self.line_codes(run)
        pairs = run.pairs()
        width = max(len(run.doc_ids), 1)
        in_gold = query_of >= 0
        per_query = np.bincount(pairs // width, minlength=len(run.query_ids))
        retrieved = np.zeros(n, dtype=np.int64)
        retrieved[query_of[in_gold]] = per_query[in_gold]  # one run query per gold query (aligned)
        # the gold's codes -> the run's (-1: not in the run)
        run_query = np.full(n, -1, dtype=np.int64)
        run_query[query_of[in_gold]] = np.flatnonzero(in_gold)
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
