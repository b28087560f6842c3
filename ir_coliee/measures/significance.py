"""Comparing runs correctly: significance tests and confidence intervals that recompute each measure
the way it is defined, so they are valid for micro-averaged scores too.

Every paired test in the ecosystem compares means of per-query values; a micro score (COLIEE Tasks
1, 2) is not such a mean. Here each resample recomputes the measure itself: a micro measure from the
resampled per-query counts (true positives, retrieved, relevant), a macro measure from the
resampled per-query values.

* Paired randomization test: under the null hypothesis the two systems are exchangeable on each
  query, so each resample swaps the two runs' per-query data on a random half of the queries; the
  p-value is the share of resamples whose difference is at least as large as the observed one
  (two-sided, with the observed assignment counted: (k + 1) / (R + 1)).
* Bootstrap percentile confidence intervals: queries drawn with replacement.
* Both resample sums, not queries: every measure is a function of column sums over the queries (counts
  for a micro measure, values for a mean), so a resample is a weighted sum, ``W @ X``, one matrix
  product for all runs and measures (``X``: a run's per-query columns; ``W``: how often each query is
  drawn, or which queries are swapped). The randomization test shares its swaps across runs and
  measures (each test is valid on its own; Holm's correction does not assume independence).
* Multiple testing: Holm's step-down correction (default) over the runs compared with the baseline,
  per measure.
* Accuracy of Y/N answers (Tasks 4, 5, the pilot's decisions) is a proportion of paired right/wrong
  outcomes: there the exact McNemar test on the questions one run gets right and the other wrong, and
  Wilson score intervals, replace the resampling (``frame.attrs["tests"]`` says which was used).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, Optional

from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.errors import ColieeArgumentError
from ir_coliee.measures.formulas import on_arrays
from ir_coliee.measures.pipeline import calc
from ir_coliee.measures.provider import formula_of, is_micro
from ir_coliee.measures.values import CountedValue, Formula
from ir_coliee.model import ANSWERS, DOCUMENTS
from ir_coliee.progress import progress

if TYPE_CHECKING:
    import numpy as np

Correction = Literal["holm", "bonferroni", "none"]
CORRECTIONS: tuple[Correction, ...] = ("holm", "bonferroni", "none")


_CHUNK = 500  # resamples computed at once: bounds memory at (chunk x queries) weights


class PerQuery(NamedTuple):
    """One run's per-query data for one measure, over the gold queries in a fixed order."""

    values: np.ndarray
    """The per-query values (what a macro measure averages), shape (queries,)."""
    counts: np.ndarray
    """True positives, retrieved, relevant per query, shape (queries, 3); zeros where a measure has none."""


class Stat(NamedTuple):
    """How a measure is recomputed from (resampled) per-query data."""

    formula: Optional[Formula]
    """The micro formula applied to summed counts, or ``None`` for a mean of per-query values."""

    def columns(self, data: PerQuery) -> np.ndarray:
        """The per-query columns whose sums decide the measure: counts (micro) or values; (queries, k)."""
        return data.counts.astype(float) if self.formula is not None else data.values[:, None]

    def of_sums(self, sums: np.ndarray, n: int) -> np.ndarray:
        """The measure from column sums over ``n`` queries, shaped (resamples, k)."""
        if self.formula is None:
            return sums[:, 0] / n
        return on_arrays(self.formula, sums[:, 0], sums[:, 1], sums[:, 2])


#: The paired test each kind of measure gets, everywhere (``compare``, ``benchmark``, ``Experiment``).
SignificanceTest = Literal["randomization on counts", "randomization on values", "exact McNemar"]


def significance_test(measure: Measure) -> SignificanceTest:
    """Accuracy of Y/N answers: exact McNemar on the paired right/wrong outcomes; a micro measure: the paired
    randomization test recomputing it from the resampled counts; a mean: the same on per-query values."""
    if getattr(measure, "TAKES", DOCUMENTS) == ANSWERS:
        return "exact McNemar"
    return "randomization on counts" if is_micro(measure) else "randomization on values"


def stat_of(measure: Measure) -> Stat:
    return Stat(
        formula_of(measure) if significance_test(measure) == "randomization on counts" else None
    )


def per_query_all(
    measures: Sequence[Measure], qids: Sequence[str], qrels: TYPE_QREL, run: TYPE_RUN
) -> list[PerQuery]:
    """The per-query values (and counts, for ir_coliee's measures) of ``run`` for each of ``measures``
    (one evaluation for all of them), in the order of ``qids``."""
    import numpy as np

    values: dict[int, dict[str, float]] = {id(m): {} for m in measures}
    for metric in calc(measures, qrels, run, aggregate=False).per_query:
        values[id(metric.measure)][metric.query_id] = metric.value
    out = []
    for m in measures:
        ordered = [values[id(m)].get(q, 0.0) for q in qids]
        counts = [
            (v.tp, v.retrieved, v.relevant) if isinstance(v, CountedValue) else (0, 0, 0)
            for v in ordered
        ]
        out.append(
            PerQuery(
                np.array([float(v) for v in ordered]),
                np.array(counts, dtype=np.int64).reshape(-1, 3),
            )
        )
    return out


def _chunks(total: int) -> list[int]:
    return [min(_CHUNK, total - start) for start in range(0, total, _CHUNK)]


class _Columns(NamedTuple):
    """Per-query columns of several (run, measure) pairs side by side, and where each pair's columns are."""

    matrix: np.ndarray
    """(queries, all columns)"""
    parts: list[tuple[Stat, slice]]


def side_by_side(items: Sequence[tuple[Stat, np.ndarray]]) -> _Columns:
    import numpy as np

    parts, at = [], 0
    for stat, columns in items:
        parts.append((stat, slice(at, at + columns.shape[1])))
        at += columns.shape[1]
    return _Columns(np.hstack([c for _, c in items]), parts)


def joined(sets: Sequence[_Columns]) -> _Columns:
    """Several column sets side by side, each part where it now stands."""
    return side_by_side([(stat, c.matrix[:, cols]) for c in sets for stat, cols in c.parts])


def _swap_mask(rng: np.random.Generator, size: int, n: int) -> np.ndarray:
    """(size, n) of 0.0 / 1.0, each a fair coin: 8 coins per random byte."""
    import numpy as np

    bits = np.unpackbits(
        rng.integers(0, 256, size=(size, (n + 7) // 8), dtype=np.uint8), axis=1, count=n
    )
    return bits.astype(float)


def _swapped_sums(
    a: np.ndarray, b: np.ndarray, rng: np.random.Generator, chunks: Iterable[int]
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The column sums of ``a`` and ``b`` (queries x columns) with the two swapped on a random half of the
    queries, chunk by chunk of resamples: a swap of query q moves ``a_q - b_q`` from a's sums to b's, so
    a's sums become ``sum(a) - M @ (a - b)`` (``M``: which queries are swapped)."""
    diff = a - b
    sum_a, sum_b = a.sum(axis=0)[None, :], b.sum(axis=0)[None, :]
    for size in chunks:
        moved = _swap_mask(rng, size, len(a)) @ diff
        yield sum_a - moved, sum_b + moved


def randomization_sums(
    a: _Columns, b: _Columns, resamples: int, rng: np.random.Generator, n: int
) -> list[float]:
    """Two-sided p-values of the paired randomization test of ``stat(a) - stat(b)`` for each part."""
    import numpy as np

    sum_a, sum_b = a.matrix.sum(axis=0)[None, :], b.matrix.sum(axis=0)[None, :]
    observed = [
        abs(s.of_sums(sum_a[:, cols], n)[0] - s.of_sums(sum_b[:, cols], n)[0])
        for s, cols in a.parts
    ]
    extreme = [0] * len(a.parts)
    chunks = progress(_chunks(resamples), "randomization test", unit=f"{_CHUNK} resamples")
    for new_a, new_b in _swapped_sums(a.matrix, b.matrix, rng, chunks):
        for i, (stat, cols) in enumerate(a.parts):
            diffs = np.abs(stat.of_sums(new_a[:, cols], n) - stat.of_sums(new_b[:, cols], n))
            # ties with the observed count as extreme
            extreme[i] += int(np.sum(diffs >= observed[i] - 1e-12))
    return [(k + 1) / (resamples + 1) for k in extreme]


def stratified_wins(
    strata: Sequence[tuple[Stat, PerQuery, PerQuery]], resamples: int, seed: int
) -> tuple[float, float]:
    """How many strata (benchmarks) ``a`` wins against ``b`` on their measure (a tie counts one half), and
    the two-sided p-value of the paired randomization test stratified by benchmark: each resample swaps
    the two systems on a random half of the queries of every benchmark, recomputes each benchmark's
    measure as defined (micro from counts), and counts wins again. The statistic is a count of wins, so
    no two measures are ever added or averaged; under the null hypothesis half the strata are expected."""
    import numpy as np

    rng = np.random.default_rng(seed)
    half = len(strata) / 2
    observed = 0.0
    wins = np.zeros((resamples,))
    for stat, a, b in strata:
        cols_a, cols_b = stat.columns(a), stat.columns(b)
        n = len(cols_a)
        observed += _wins(
            stat.of_sums(cols_a.sum(axis=0)[None, :], n),
            stat.of_sums(cols_b.sum(axis=0)[None, :], n),
        )[0]
        swapped = _swapped_sums(cols_a, cols_b, rng, _chunks(resamples))
        wins += np.concatenate([_wins(stat.of_sums(x, n), stat.of_sums(y, n)) for x, y in swapped])
    extreme = np.abs(wins - half) >= abs(observed - half) - 1e-12
    return float(observed), (int(extreme.sum()) + 1) / (resamples + 1)


def _wins(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """1 where ``a`` is larger, 0.5 where they are equal (to rounding), 0 where ``b`` is larger."""
    import numpy as np

    return np.where(np.abs(a - b) <= 1e-12, 0.5, (a > b).astype(float))


def bootstrap_sums(
    columns: _Columns, resamples: int, rng: np.random.Generator, n: int
) -> list[np.ndarray]:
    """The value of each part on every bootstrap resample of the queries (drawn with replacement): the
    weights ``W`` count how often each query is drawn; the sums are ``W @ X``."""
    import numpy as np

    values: list[list[np.ndarray]] = [[] for _ in columns.parts]
    for size in progress(_chunks(resamples), "bootstrap intervals", unit=f"{_CHUNK} resamples"):
        drawn = rng.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
        weights = np.bincount(drawn.ravel(), minlength=size * n).reshape(size, n).astype(float)
        sums = weights @ columns.matrix
        for i, (stat, cols) in enumerate(columns.parts):
            values[i].append(stat.of_sums(sums[:, cols], n))
    return [np.concatenate(v) for v in values]


def percentiles(values: np.ndarray, level: float) -> tuple[float, float]:
    """The two-sided ``level`` interval of ``values`` by numpy's default percentiles (NaN when a value is)."""
    import numpy as np

    tail = (1 - level) / 2 * 100
    low, high = np.percentile(np.asarray(values, dtype=float), [tail, 100 - tail]).tolist()
    return low, high


def _z(confidence: float) -> float:
    """The normal quantile of a two-sided ``confidence`` (bisection on erf: no SciPy needed)."""
    low, high = 0.0, 10.0
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if math.erf(mid / math.sqrt(2)) < confidence else (low, mid)
    return (low + high) / 2


def wilson_ci(correct_: int, n: int, confidence: float) -> tuple[float, float]:
    """Wilson score interval of a proportion ``correct_ / n``."""
    if n == 0:
        return math.nan, math.nan
    z, p = _z(confidence), correct_ / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_p(a: np.ndarray, b: np.ndarray) -> float:
    """Exact two-sided McNemar test of paired right (1) / wrong (0) outcomes: a binomial test on the
    discordant pairs."""
    import numpy as np

    only_a, only_b = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    n = only_a + only_b
    # no discordant pair: the tail is the whole, 1 of 1, and p is 1
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def resampling_arguments(resamples: object, seed: object, correction: object = "none") -> None:
    """Refuse, before any run is scored, a number of resamples, a seed or a correction the tests cannot
    take."""
    if correction not in CORRECTIONS:
        raise ColieeArgumentError(
            f"unknown correction {correction!r}; expected one of {', '.join(CORRECTIONS)}"
        )
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ColieeArgumentError(
            f"resamples must be a whole number of at least 1, got {resamples!r}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ColieeArgumentError(f"seed must be a whole number from 0, got {seed!r}")


def correct(p_values: Sequence[float], method: Correction) -> list[float]:
    """Holm's step-down, Bonferroni, or no correction of a family of p-values (another name is refused, never
    read as Holm)."""
    resampling_arguments(1, 0, method)
    m = len(p_values)
    if method == "none" or m == 0:
        return list(p_values)
    if method == "bonferroni":
        return [min(1.0, p * m) for p in p_values]
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
