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

import itertools
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, NamedTuple, Optional

from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.errors import ColieeArgumentError, ColieeError, ColieeScoringError, Finding
from ir_coliee.inputs.door import check_measures, prepare
from ir_coliee.inputs.gold import GoldLike
from ir_coliee.inputs.ingest import RunLike, read_apart
from ir_coliee.measures import MicroF1
from ir_coliee.measures.formulas import on_arrays
from ir_coliee.measures.parse import MeasureLike, parse_measures
from ir_coliee.measures.pipeline import pipeline
from ir_coliee.measures.provider import counts_sets, formula_of, is_micro
from ir_coliee.measures.values import exact_mean
from ir_coliee.model import FORMATS, FormatName, TaskLike, official_entry
from ir_coliee.progress import progress
from ir_coliee.table.tables import (
    CodedRun,
    Table,
    align,
    coded_gold,
    coded_run,
    gold_ids,
    gold_table,
    run_table,
    table_frame,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

Over = Literal["rank", "score", "relative-score"]
OVER: tuple[Over, ...] = ("rank", "score", "relative-score")


class Tuned(NamedTuple):
    """The best cutoff and the curve it was chosen from."""

    cutoff: float
    """The best cutoff (a rank, a score, or a ratio); the smallest one among equal values."""
    value: float
    """The measure at that cutoff."""
    points: list[tuple[float, float]]
    """Every candidate cutoff with the measure's value there (what :attr:`curve` holds)."""
    over: Over
    measure: Measure

    @property
    def curve(self) -> pd.DataFrame:
        """Every candidate: columns ``cutoff`` and the measure's name."""
        import pandas as pd

        return pd.DataFrame(self.points, columns=["cutoff", str(self.measure)])


def cut(table: Table, over: Over, cutoff: float) -> Table:
    """The documents of each query kept by ``cutoff``, in the table's order; ranks in trec_eval's order, as
    every count takes them (:meth:`ir_coliee.table.tables.CodedRun.top`)."""
    if over == "rank":
        codes = coded_run(table)
        best = set(codes.top(int(cutoff)).tolist())
        query, doc = (dict(zip(ids, itertools.count())) for ids in (codes.query_ids, codes.doc_ids))
        width = max(len(doc), 1)
        return {
            q: {d: s for d, s in docs.items() if query[q] * width + doc[d] in best}
            for q, docs in table.items()
        }
    if over == "score":
        return {q: {d: s for d, s in docs.items() if s >= cutoff} for q, docs in table.items()}
    kept = {}
    for q, docs in table.items():
        low = min(docs.values(), default=0.0)
        span = max(docs.values(), default=0.0) - low
        kept[q] = {d: s for d, s in docs.items() if ((s - low) / span if span else 1.0) >= cutoff}
    return kept


def _candidates(run: CodedRun, over: str, max_rank: int, steps: int) -> list[float]:
    """Ranks 1..min(max_rank, longest ranking); ratios 0..1; the distinct scores (or ``steps`` + 1
    quantiles), of the lines the counts take (:meth:`~ir_coliee.table.tables.CodedRun.ranked`: a pair
    given twice once, with its best score)."""
    import numpy as np

    if over == "relative-score":
        return list(np.round(np.linspace(0.0, 1.0, steps + 1), 10))
    lines = run.ranked()
    if over == "rank":
        longest = int(np.bincount(run.queries[lines]).max()) if len(lines) else 1
        return [float(k) for k in range(1, min(max_rank, longest) + 1)]
    scores = np.unique(run.scores[lines]) if len(lines) else np.zeros(1)
    if len(scores) > steps:
        scores = np.unique(np.quantile(scores, np.linspace(0, 1, steps + 1)))
    return [float(s) for s in scores]


class _Ranking(NamedTuple):
    """A run's lines as ranked per query (best first, ties by doc id descending: trec_eval's order) with
    the running count of relevant documents: the counts of a query at any cutoff that keeps a prefix of
    its ranking (every kind here does) are two lookups."""

    query: np.ndarray
    """The gold query of each line (-1: not a gold query), in ranked order."""
    score: np.ndarray
    start: np.ndarray
    """Where each gold query's lines start; ``length`` how many there are."""
    length: np.ndarray
    relevant_before: np.ndarray
    """Relevant lines before each position (one more entry than lines)."""
    relevant: np.ndarray
    """Relevant documents of each gold query."""
    ratio: np.ndarray
    """Each line's score relative to its query's (``relative-score``): 0 for the worst, 1 for the best."""

    def kept(self, over: str, cutoff: float) -> np.ndarray:
        """How many lines of each gold query ``cutoff`` keeps."""
        import numpy as np

        if over == "rank":
            return np.minimum(self.length, int(cutoff))
        keep = (self.score if over == "score" else self.ratio) >= cutoff
        return np.bincount(self.query[keep], minlength=len(self.start))

    def curve(self, measure: Measure, over: str, candidates: Iterable[float]) -> list[float]:
        formula = formula_of(measure)
        assert formula is not None  # a measure of ours: counts_sets(measure) held
        values, relevant = [], int(self.relevant.sum())
        for cutoff in candidates:
            retrieved = self.kept(over, cutoff)
            tp = self.relevant_before[self.start + retrieved] - self.relevant_before[self.start]
            if is_micro(measure):
                values.append(formula(int(tp.sum()), int(retrieved.sum()), relevant))
            else:  # the correctly rounded mean, as ir_coliee's aggregator takes it
                values.append(exact_mean(on_arrays(formula, tp, retrieved, self.relevant).tolist()))
        return values


def _ranked(codes: CodedRun, gold: Table, measure: Measure) -> Optional[_Ranking]:
    """The run ranked for :class:`_Ranking`, when ``measure`` is an ir_coliee set measure without a cutoff
    of its own; else ``None`` (the measure is evaluated at each cutoff)."""
    import numpy as np

    if not counts_sets(measure):
        return None
    gold_codes = coded_gold(gold, measure["rel"])
    query_of, doc_of = gold_codes.line_codes(codes)
    order = codes.ranked()  # trec_eval's order, as the counts take it
    order = order[query_of[codes.queries[order]] >= 0]
    # in the gold's order of queries, each ranked as above (one run query per gold query: aligned)
    order = order[np.argsort(query_of[codes.queries[order]], kind="stable")]
    query, score = query_of[codes.queries[order]], codes.scores[order]
    is_relevant = gold_codes.relevant_lines(query, doc_of[codes.docs[order]])
    length = np.bincount(query, minlength=len(gold_codes.queries))
    start = np.cumsum(length) - length
    relevant_before = np.concatenate([[0], np.cumsum(is_relevant)])
    # ranked best first: a query's best score is on its first line, its worst on its last
    high, low = score[start[query]], score[start[query] + length[query] - 1]
    span = high - low
    ratio = np.divide(score - low, span, out=np.ones_like(score), where=span != 0)
    return _Ranking(query, score, start, length, relevant_before, gold_codes.relevant, ratio)


def _cutoff_arguments(over: object, max_rank: object, steps: object) -> None:
    """Refuse, before any file is read, a cutoff kind or a number of candidates the tuning cannot take."""
    if over not in OVER:
        raise ColieeArgumentError(
            f"unknown cutoff kind {over!r}; expected one of {', '.join(OVER)}"
        )
    for name, value in (("max_rank", max_rank), ("steps", steps)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ColieeArgumentError(f"{name} must be a whole number of at least 1, got {value!r}")


def tune_cutoff(
    qrels: TYPE_QREL,
    run: TYPE_RUN,
    measure: MeasureLike = MicroF1,
    over: Over = "rank",
    max_rank: int = 100,
    steps: int = 100,
) -> Tuned:
    """The cutoff that maximises ``measure`` on ``run`` against ``qrels`` (training data), and the curve.

    Candidates: ranks 1..``max_rank``; for scores, every distinct score (at most ``steps`` + 1
    quantiles of them); for relative scores, ``steps`` + 1 ratios from 0 to 1. The gold comes first, as
    everywhere in the API.
    """
    _cutoff_arguments(over, max_rank, steps)
    (chosen,) = parse_measures([measure])
    gold = gold_table(qrels)
    codes = align(coded_run(run), gold_ids(gold)).run  # read once, ids as the gold's
    return _tuned(gold, codes, chosen, over, max_rank, steps)


def _tuned(
    gold: Table, run: CodedRun, chosen: Measure, over: Over, max_rank: int, steps: int
) -> Tuned:
    """:func:`tune_cutoff` on a gold and a run read once, the run's ids in the gold's convention."""
    import numpy as np

    ranked = _ranked(run, gold, chosen)
    candidates = _candidates(run, over, max_rank, steps)
    shown = progress(
        candidates, f"tuning {chosen} over {over} cutoffs", total=len(candidates), unit="cutoff"
    )
    if ranked is not None:  # an ir_coliee set measure: every cutoff from one ranking, with numpy
        values = ranked.curve(chosen, over, shown)
    else:
        evaluator, table = pipeline.evaluator([chosen], gold), run.table()
        values = [float(evaluator.calc_aggregate(cut(table, over, c))[chosen]) for c in shown]
    best = int(np.argmax(values))  # the first largest value (the first NaN, if any)
    return Tuned(
        float(candidates[best]), float(values[best]), list(zip(candidates, values)), over, chosen
    )


def apply_cutoff(run: TYPE_RUN, over: Over, cutoff: float) -> pd.DataFrame:
    """``run`` cut as :func:`tune_cutoff` would, as a DataFrame (``query_id``, ``doc_id``, ``score``)."""
    _cutoff_arguments(over, 1, 1)
    return table_frame(cut(run_table(run), over, cutoff))


def plot_curve(tuned: Tuned, path: str) -> str:
    """A figure (PNG, PDF or SVG by the suffix) of the tuning curve with the best cutoff marked (needs matplotlib)."""
    from ir_coliee.outputs.plots import pyplot, save

    fig, ax = pyplot().subplots(figsize=(6, 3.5))
    ax.plot(*zip(*tuned.points), marker=".")
    ax.axvline(tuned.cutoff, linestyle="--", color="grey")
    ax.annotate(
        f"{tuned.cutoff:g}: {tuned.value:.4f}",
        (tuned.cutoff, tuned.value),
        textcoords="offset points",
        xytext=(5, 5),
    )
    ax.set_xlabel(f"{tuned.over} cutoff")
    ax.set_ylabel(str(tuned.measure))
    fig.tight_layout()
    return save(fig, path)


class Tuning(NamedTuple):
    """What :func:`tune` found: the cutoff and curve, and the cut run ready to write."""

    tuned: Tuned
    kept: Table
    """The run given as ``apply`` (else the tuned run) cut at the best cutoff: ``{query: {doc: score}}``."""
    write_format: FormatName
    """The official submission format of the task (Task 3: TREC 6 columns)."""
    findings: list[Finding]

    @property
    def cut(self) -> pd.DataFrame:
        """:attr:`kept` as a ``query_id, doc_id, score`` DataFrame."""
        return table_frame(self.kept)


def tune(
    gold: GoldLike,
    run: RunLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measure: Optional[MeasureLike] = None,
    over: Over = "rank",
    max_rank: int = 100,
    apply: Optional[RunLike] = None,
) -> Tuning:
    """The cutoff of ``run`` that maximises ``measure`` (default: the task's headline measure, e.g.
    MacroF2 for Task 3) on training ``gold``, and ``apply`` (e.g. the test run) cut with it."""
    if max_rank < 1:
        raise ColieeError(f"--max-rank must be at least 1, got {max_rank}")
    _cutoff_arguments(over, max_rank, 100)
    parse_measures([] if measure is None else [measure])  # known before any file is read
    # a run in memory, like "-" (standard input), has no file to check
    path = os.fspath(apply) if isinstance(apply, (str, os.PathLike)) else "-"
    if path != "-" and not os.path.isfile(path):
        raise ColieeArgumentError(f"apply {path!r}: no such run file")
    prepared = prepare(gold, run, task, year)
    if len(prepared.runs) != 1:  # a folder: a cutoff is learned on one run
        raise ColieeError(f"tune takes one run; {run} holds {len(prepared.runs)}")
    (tuned_run,) = prepared.runs
    info = tuned_run.info
    if over != "rank" and info.format is not None and not FORMATS[info.format].scored:
        raise ColieeScoringError(
            f"{info.path} has no scores ({info.format} format: line order is the ranking); "
            "tune --over rank, or give a run with scores"
        )
    if measure is None:
        measure = official_entry(prepared.task.key, prepared.year).headline
    (checked,) = check_measures([measure], prepared.task, prepared.year)
    tuned = _tuned(prepared.qrels, tuned_run.run, checked, over, max_rank, 100)
    if apply is not None:
        target, said = read_apart(apply, prepared.task, prepared.gold.source)
    else:
        target, said = tuned_run.run, []
    kept = cut(target.table(), over, tuned.cutoff)
    return Tuning(tuned, kept, prepared.task.formats[0], prepared.findings + said)
