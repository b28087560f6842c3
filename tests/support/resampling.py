"""Oracles of the resampling in ``ir_coliee.compare``, written directly on the resampled per-query data
(the package computes the same from column sums): a measure recomputed on each resample, a swap of
two runs' data, and the randomization test's p-value."""

from __future__ import annotations

import numpy as np

from ir_coliee.measures.significance import PerQuery, Stat, randomization_sums, side_by_side


def measure_of(stat: Stat, data: PerQuery) -> np.ndarray:
    """The measure on each resample of data shaped (resamples, queries[, 3])."""
    n = data.values.shape[1]
    if stat.formula is None:
        return data.values.sum(axis=1) / n
    return stat.of_sums(data.counts.sum(axis=1), n)


def taken(data: PerQuery, rows: np.ndarray) -> PerQuery:
    """The data of resampled queries: ``rows`` is (resamples, queries) of query indices."""
    return PerQuery(data.values[rows], data.counts[rows])


def swapped(mine: PerQuery, other: PerQuery, mask: np.ndarray) -> PerQuery:
    """``mine`` with ``other``'s data on the queries flagged in ``mask`` (resamples, queries)."""
    return PerQuery(
        np.where(mask, other.values, mine.values),
        np.where(mask[..., None], other.counts, mine.counts),
    )


def randomization_p(
    stat: Stat, a: PerQuery, b: PerQuery, resamples: int, rng: np.random.Generator
) -> float:
    """Two-sided p-value of the paired randomization test of ``stat(a) - stat(b)``, as compare runs it."""
    columns_a, columns_b = (
        side_by_side([(stat, stat.columns(a))]),
        side_by_side([(stat, stat.columns(b))]),
    )
    return randomization_sums(columns_a, columns_b, resamples, rng, len(a.values))[0]
