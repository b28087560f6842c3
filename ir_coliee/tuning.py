"""Tuning how much of a ranking to submit: the cutoff that maximises a measure on training data.

Three kinds of cutoff, each applied per query to a scored run:

* ``rank``: the ``k`` best-scored documents (ties broken as trec_eval does);
* ``score``: the documents scored at least ``t``;
* ``relative-score``: the documents scored at least ``r`` times the query's best score, after
  shifting the query's scores so that its worst is 0 (so it works with negative scores too).

:func:`tune_cutoff` scores every candidate cutoff with the package's measures and returns the best
one with the whole curve; :func:`apply_cutoff` cuts a run, ready for :func:`~ir_coliee.write_run`.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np
import pandas as pd
from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.evaluation import MeasureLike, parse_measures
from ir_coliee.measures import MicroF1
from ir_coliee.progress import progress
from ir_coliee.providers import pipeline
from ir_coliee.tables import Table, gold_table, run_table, top_docs

Over = Literal["rank", "score", "relative-score"]
OVER: tuple[Over, ...] = ("rank", "score", "relative-score")


class Tuned(NamedTuple):
    """The best cutoff and the curve it was chosen from."""

    cutoff: float
    """The best cutoff (a rank, a score, or a ratio); the smallest one among equal values."""
    value: float
    """The measure at that cutoff."""
    curve: pd.DataFrame
    """Every candidate: columns ``cutoff`` and the measure's name."""
    over: Over
    measure: Measure


def _relative(docs: dict[str, float]) -> dict[str, float]:
    low, high = min(docs.values()), max(docs.values())
    span = high - low
    return {d: (s - low) / span if span else 1.0 for d, s in docs.items()}


def cut(table: Table, over: Over, cutoff: float) -> Table:
    """The documents of each query kept by ``cutoff``."""
    if over == "rank":
        return {q: {d: docs[d] for d in top_docs(docs, int(cutoff))} for q, docs in table.items()}
    if over == "score":
        return {q: {d: s for d, s in docs.items() if s >= cutoff} for q, docs in table.items()}
    kept = {}
    for q, docs in table.items():
        ratio = _relative(docs) if docs else {}
        kept[q] = {d: s for d, s in docs.items() if ratio[d] >= cutoff}
    return kept


def _candidates(table: Table, over: str, max_rank: int, steps: int) -> list[float]:
    if over == "rank":
        longest = max((len(d) for d in table.values()), default=1)
        return [float(k) for k in range(1, min(max_rank, longest) + 1)]
    if over == "relative-score":
        return list(np.round(np.linspace(0.0, 1.0, steps + 1), 10))
    scores = np.unique(np.concatenate([np.fromiter(d.values(), float) for d in table.values() if d] or [np.zeros(1)]))
    if len(scores) > steps:
        scores = np.unique(np.quantile(scores, np.linspace(0, 1, steps + 1)))
    return [float(s) for s in scores]


def tune_cutoff(
    run: TYPE_RUN,
    qrels: TYPE_QREL,
    measure: MeasureLike = MicroF1,
    over: Over = "rank",
    max_rank: int = 100,
    steps: int = 100,
) -> Tuned:
    """The cutoff that maximises ``measure`` on ``run`` against ``qrels`` (training data), and the curve.

    Candidates: ranks 1..``max_rank``; for scores, every distinct score (at most ``steps`` + 1
    quantiles of them); for relative scores, ``steps`` + 1 ratios from 0 to 1.
    """
    if over not in OVER:
        raise ValueError(f"unknown cutoff kind {over!r}; expected one of {', '.join(OVER)}")
    (chosen,) = parse_measures([measure])
    gold = gold_table(qrels)
    table = run_table(run)
    evaluator = pipeline.evaluator([chosen], gold)
    rows = []
    candidates = _candidates(table, over, max_rank, steps)
    for cutoff in progress(candidates, f"tuning {chosen} over {over} cutoffs", total=len(candidates), unit="cutoff"):
        value = evaluator.calc_aggregate(cut(table, over, cutoff))[chosen]
        rows.append((cutoff, float(value)))
    curve = pd.DataFrame(rows, columns=["cutoff", str(chosen)])
    best = curve.iloc[int(np.argmax(curve[str(chosen)].to_numpy()))]
    return Tuned(float(best["cutoff"]), float(best[str(chosen)]), curve, over, chosen)


def apply_cutoff(run: TYPE_RUN, over: Over, cutoff: float) -> pd.DataFrame:
    """``run`` cut as :func:`tune_cutoff` would, as a DataFrame (``query_id``, ``doc_id``, ``score``)."""
    if over not in OVER:
        raise ValueError(f"unknown cutoff kind {over!r}; expected one of {', '.join(OVER)}")
    rows = [(q, d, s) for q, docs in cut(run_table(run), over, cutoff).items() for d, s in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


def plot_curve(tuned: Tuned, path: str) -> str:
    """A PNG of the tuning curve with the best cutoff marked (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("plots need matplotlib: pip install matplotlib") from None
    name = str(tuned.measure)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(tuned.curve["cutoff"], tuned.curve[name], marker=".")
    ax.axvline(tuned.cutoff, linestyle="--", color="grey")
    ax.annotate(
        f"{tuned.cutoff:g}: {tuned.value:.4f}", (tuned.cutoff, tuned.value), textcoords="offset points", xytext=(5, 5)
    )
    ax.set_xlabel(f"{tuned.over} cutoff")
    ax.set_ylabel(name)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
