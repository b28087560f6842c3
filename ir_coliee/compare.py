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
* Multiple testing: Holm's step-down correction (default) over the runs compared with the baseline,
  per measure.
* Accuracy of Y/N answers (Tasks 4, 5, the pilot's decisions) is a proportion of paired right/wrong
  outcomes: there the exact McNemar test on the questions one run gets right and the other wrong, and
  Wilson score intervals, replace the resampling (``frame.attrs["tests"]`` says which was used).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, NamedTuple, Optional, Union

import numpy as np
import pandas as pd
from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.evaluation import MeasureLike, parse_measures
from ir_coliee.model import TaskLike, official_measures
from ir_coliee.progress import progress
from ir_coliee.providers import pipeline
from ir_coliee.providers.coliee_provider import KINDS, is_micro
from ir_coliee.tables import gold_table
from ir_coliee.values import CountedValue, Formula

Correction = Literal["holm", "bonferroni", "none"]
CORRECTIONS: tuple[Correction, ...] = ("holm", "bonferroni", "none")


_CHUNK = 500  # resamples computed at once: bounds memory at (chunk x queries x 3) counts


class PerQuery(NamedTuple):
    """One run's per-query data for one measure, over the gold queries in a fixed order."""

    values: np.ndarray
    """The per-query values (what a macro measure averages), shape (queries,)."""
    counts: np.ndarray
    """True positives, retrieved, relevant per query, shape (queries, 3); zeros where a measure has none."""

    def take(self, rows: np.ndarray) -> PerQuery:
        """The data of resampled queries: ``rows`` is (resamples, queries) of query indices."""
        return PerQuery(self.values[rows], self.counts[rows])

    def swap(self, other: PerQuery, mask: np.ndarray) -> PerQuery:
        """This run's data with ``other``'s on the queries flagged in ``mask`` (resamples, queries)."""
        return PerQuery(np.where(mask, other.values, self.values), np.where(mask[..., None], other.counts, self.counts))


class Stat(NamedTuple):
    """How a measure is recomputed from (resampled) per-query data."""

    formula: Optional[Formula]
    """The micro formula applied to summed counts, or ``None`` for a mean of per-query values."""

    def of(self, data: PerQuery) -> np.ndarray:
        """The measure on each resample of data shaped (resamples, queries[, 3])."""
        if self.formula is None:
            return data.values.mean(axis=1)
        return np.array([self.formula(int(tp), int(ret), int(rel)) for tp, ret, rel in data.counts.sum(axis=1)])


def stat_of(measure: Measure) -> Stat:
    kind = KINDS.get(type(measure))
    return Stat(kind.formula(measure) if kind is not None and is_micro(measure) else None)


def per_query(measure: Measure, qids: Sequence[str], qrels: TYPE_QREL, run: TYPE_RUN) -> PerQuery:
    """The per-query values (and counts, for ir_coliee's measures) of ``run``, in the order of ``qids``."""
    values = {m.query_id: m.value for m in pipeline.iter_calc([measure], qrels, run)}
    ordered = [values.get(q, 0.0) for q in qids]
    counts = [(v.tp, v.retrieved, v.relevant) if isinstance(v, CountedValue) else (0, 0, 0) for v in ordered]
    return PerQuery(np.array([float(v) for v in ordered]), np.array(counts, dtype=np.int64).reshape(-1, 3))


def _chunks(total: int) -> list[int]:
    return [min(_CHUNK, total - start) for start in range(0, total, _CHUNK)]


def randomization_p(stat: Stat, a: PerQuery, b: PerQuery, resamples: int, rng: np.random.Generator) -> float:
    """Two-sided p-value of the paired randomization test of ``stat(a) - stat(b)``."""
    whole = np.arange(len(a.values))[None, :]
    observed = abs(stat.of(a.take(whole))[0] - stat.of(b.take(whole))[0])
    extreme = 0
    for size in _chunks(resamples):
        mask = rng.random((size, len(a.values))) < 0.5
        rows = np.broadcast_to(whole, mask.shape)
        a_rows, b_rows = a.take(rows), b.take(rows)
        diffs = np.abs(stat.of(a_rows.swap(b_rows, mask)) - stat.of(b_rows.swap(a_rows, mask)))
        extreme += int(np.sum(diffs >= observed - 1e-12))  # ties with the observed count as extreme
    return (extreme + 1) / (resamples + 1)


def bootstrap_ci(stat: Stat, data: PerQuery, rows: np.ndarray, level: float) -> tuple[float, float]:
    """Percentile interval of the measure over bootstrap resamples of the queries (``rows``)."""
    values = np.concatenate([stat.of(data.take(rows[i : i + _CHUNK])) for i in range(0, len(rows), _CHUNK)])
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


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
    only_a, only_b = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def correct(p_values: Sequence[float], method: Correction) -> list[float]:
    """Holm's step-down, Bonferroni, or no correction of a family of p-values."""
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


RunsLike = Union[Sequence[object], dict]


def compare(
    runs: RunsLike,
    qrels: TYPE_QREL,
    measures: Optional[Sequence[MeasureLike]] = None,
    baseline: Union[int, str] = 0,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    resamples: int = 10_000,
    confidence: float = 0.95,
    correction: Correction = "holm",
    seed: int = 42,
) -> pd.DataFrame:
    """One row per run: each measure, its bootstrap confidence interval, and against the baseline the
    paired randomization test's p-value and its correction. Deterministic for a given ``seed``.

    ``runs`` is a list of runs (named ``run0``, ``run1``, ...) or a ``{name: run}`` dict; ``measures``
    default to the official ones of ``task`` and ``year``.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; expected one of {', '.join(CORRECTIONS)}")
    named = dict(runs) if isinstance(runs, dict) else {f"run{i}": r for i, r in enumerate(runs)}
    names = list(named)
    base = names[baseline] if isinstance(baseline, int) else baseline
    if base not in named:
        raise ValueError(f"baseline {baseline!r} is not one of the runs ({', '.join(names)})")
    if measures is None and task is None:
        raise ValueError("give the measures, or the task (and year) whose official measures to use")
    chosen = official_measures(task, year) if task is not None and measures is None else parse_measures(measures or ())
    gold = gold_table(qrels)
    qids = list(gold)
    rng = np.random.default_rng(seed)
    boot_rows = rng.integers(0, len(qids), size=(resamples, len(qids)))
    whole = np.arange(len(qids))[None, :]
    table: dict[str, dict[str, float]] = {name: {} for name in names}
    tests: dict[str, str] = {}
    for measure in progress(
        chosen, f"comparing {len(names)} runs with {resamples:,} resamples", total=len(chosen), unit="measure"
    ):
        stat = stat_of(measure)
        data = {name: per_query(measure, qids, gold, run) for name, run in named.items()}
        label = str(measure)
        answers = getattr(measure, "TAKES", "documents") == "answers"
        tests[label] = "exact McNemar, Wilson interval" if answers else "paired randomization, bootstrap interval"
        p_values = {}
        for name in names:
            row = table[name]
            row[label] = float(stat.of(data[name].take(whole))[0])
            if answers:
                right = data[name].values
                row[f"{label} CI low"], row[f"{label} CI high"] = wilson_ci(int(right.sum()), len(right), confidence)
            else:
                row[f"{label} CI low"], row[f"{label} CI high"] = bootstrap_ci(stat, data[name], boot_rows, confidence)
            if name != base:
                p_values[name] = (
                    mcnemar_p(data[name].values, data[base].values)
                    if answers
                    else randomization_p(stat, data[name], data[base], resamples, rng)
                )
        adjusted = dict(zip(p_values, correct(list(p_values.values()), correction)))
        for name in names:
            table[name][f"{label} p-value"] = p_values.get(name, math.nan)
            table[name][f"{label} p-value ({correction})"] = adjusted.get(name, math.nan)
    frame = pd.DataFrame.from_dict(table, orient="index")
    frame.index.name = "run"
    frame.insert(0, "baseline", [name == base for name in names])
    frame.attrs["confidence"] = confidence
    frame.attrs["tests"] = tests
    return frame


def plot_intervals(frame: pd.DataFrame, measure: str, path: str) -> str:
    """A PNG of each run's value and confidence interval for ``measure`` (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("plots need matplotlib: pip install matplotlib") from None
    values = frame[measure]
    errors = [values - frame[f"{measure} CI low"], frame[f"{measure} CI high"] - values]
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.5 * len(frame)))
    ax.errorbar(values, range(len(frame)), xerr=errors, fmt="o", capsize=4)
    ax.set_yticks(range(len(frame)), labels=list(frame.index))
    ax.set_xlabel(f"{measure} ({round(100 * frame.attrs.get('confidence', 0.95))}% bootstrap CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
