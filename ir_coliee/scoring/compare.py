"""Comparing runs correctly: each measure gets the test valid for it (:mod:`ir_coliee.measures.significance`),
on runs in memory (:func:`compare`, :func:`compare_rows`) or read as :func:`ir_coliee.score` reads them
(:func:`compare_runs`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional, Union, cast

from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.errors import ColieeArgumentError, ColieeWarning, Finding
from ir_coliee.formats.textfile import is_input
from ir_coliee.inputs.door import Answers, Prepared, check_measures, prepare
from ir_coliee.inputs.gold import GoldLike
from ir_coliee.inputs.ingest import RunsLike, shared_run
from ir_coliee.measures import AnswerAccuracy
from ir_coliee.measures.parse import MeasureLike, chosen_measures, parse_measures
from ir_coliee.measures.significance import (
    Correction,
    PerQuery,
    bootstrap_sums,
    correct,
    joined,
    mcnemar_p,
    per_query_all,
    percentiles,
    randomization_sums,
    resampling_arguments,
    side_by_side,
    significance_test,
    stat_of,
    wilson_ci,
)
from ir_coliee.model import TORTS, TaskLike, official_entry
from ir_coliee.progress import progress
from ir_coliee.scoring import gated
from ir_coliee.table.tables import Table, gold_table

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


def compare_rows(
    gold: Table,
    named: dict[str, object],
    chosen: Sequence[Measure],
    base: str,
    resamples: int = 10_000,
    correction: Correction = "holm",
    seed: int = 42,
    confidence: float = 0.95,
) -> ComparisonTable:
    """:func:`compare`'s table as plain rows, against a gold read once (:func:`gold_table`), for runs
    already named and measures already chosen (``base``: the baseline's name); deterministic for a given
    ``seed``."""
    import numpy as np

    qids = list(gold)
    data = {
        name: dict(zip(chosen, per_query_all(chosen, qids, gold, run)))
        for name, run in progress(
            named.items(), f"scoring {len(named)} runs", total=len(named), unit="run"
        )
    }
    # each measure's test, named as Experiment and benchmark name it
    tests: dict[str, str] = {str(m): significance_test(m) for m in chosen}
    answers = [m for m in chosen if tests[str(m)] == "exact McNemar"]
    cells = _Cells(data, base, len(gold), confidence)
    cells.accuracy(answers)
    cells.resampled([m for m in chosen if m not in answers], resamples, np.random.default_rng(seed))
    return cells.result(chosen, correction, tests)


def compare(
    qrels: TYPE_QREL,
    runs: Union[Sequence[object], dict],
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
    default to the official ones of ``task`` and ``year``. The gold comes first, as everywhere in the API.
    Gold and runs given as files or a dataset id are read as :func:`ir_coliee.score` reads them (the task and
    its official measures from the files, as :func:`compare_runs` does).
    """
    resampling_arguments(resamples, seed, correction)
    if not 0 < confidence < 1:
        raise ColieeArgumentError(
            f"confidence must be between 0 and 1 (0.95 for 95%), got {confidence!r}"
        )
    named = dict(runs) if isinstance(runs, dict) else {f"run{i}": r for i, r in enumerate(runs)}
    names = list(named)
    base = baseline_name(baseline, names)
    if is_input(qrels) or any(is_input(r) for r in named.values()):
        # files and dataset ids: read as score() reads them, its findings said as warnings
        given = named if isinstance(runs, dict) else list(runs)
        read = compare_runs(
            qrels, given, measures, task, year, names.index(base), resamples, correction, seed
        )
        for f in read.findings:
            warnings.warn(
                f"{f.path}: {f.message}" if f.path else f.message, ColieeWarning, stacklevel=2
            )
        table = read.table
        if isinstance(runs, dict):  # each run keeps the name it was given, not its file's tag
            table.index = table.index.map(dict(zip(table.index, names)))
        return table
    chosen = chosen_measures(measures, task, year)
    gold = gold_table(qrels)
    named = {n: shared_run(r, gold, n) for n, r in named.items()}  # refused as score refuses it
    return compare_rows(gold, named, chosen, base, resamples, correction, seed, confidence).frame()


@dataclasses.dataclass
class _Cells:
    """The table :func:`compare` fills from each run's per-query ``data``: each run's value, interval and
    p-value of each measure."""

    data: dict[str, dict[Measure, PerQuery]]
    base: str
    n: int
    confidence: float

    def __post_init__(self) -> None:
        self.names = list(self.data)
        self.table: dict[str, dict[str, float]] = {name: {} for name in self.names}
        self.p_values: dict[Measure, dict[str, float]] = defaultdict(dict)

    def accuracy(self, answers: Sequence[Measure]) -> None:
        """Accuracy of answers: paired right/wrong outcomes, Wilson intervals and the exact McNemar test."""
        for m in answers:
            for name in self.names:
                right = self.data[name][m].values
                self.table[name][str(m)] = float(right.mean()) if self.n else math.nan
                self.table[name][f"{m} CI low"], self.table[name][f"{m} CI high"] = wilson_ci(
                    int(right.sum()), self.n, self.confidence
                )
                if name != self.base:
                    self.p_values[m][name] = mcnemar_p(right, self.data[self.base][m].values)

    def resampled(
        self, measures: Sequence[Measure], resamples: int, rng: np.random.Generator
    ) -> None:
        """The other measures: bootstrap intervals and the paired randomization test, from column sums."""
        if not measures:
            return
        stats = {m: stat_of(m) for m in measures}
        columns = {
            name: side_by_side([(stats[m], stats[m].columns(self.data[name][m])) for m in measures])
            for name in self.names
        }
        intervals = bootstrap_sums(
            joined([columns[name] for name in self.names]), resamples, rng, self.n
        )
        others = [name for name in self.names if name != self.base]
        if others:
            against = joined([columns[name] for name in others])
            bases = joined([columns[self.base]] * len(others))
            tested = iter(randomization_sums(against, bases, resamples, rng, self.n))
            for name in others:
                for m in measures:
                    self.p_values[m][name] = next(tested)
        values = iter(intervals)
        for name in self.names:
            whole = columns[name].matrix.sum(axis=0)[None, :]
            for m, (stat, cols) in zip(measures, columns[name].parts):
                self.table[name][str(m)] = float(stat.of_sums(whole[:, cols], self.n)[0])
                self.table[name][f"{m} CI low"], self.table[name][f"{m} CI high"] = percentiles(
                    next(values), self.confidence
                )

    def result(
        self, chosen: Sequence[Measure], correction: Correction, tests: dict[str, str]
    ) -> ComparisonTable:
        """The table with the corrected p-values, one row per run, the baseline marked."""
        for m in chosen:
            p_values = self.p_values[m]
            adjusted = dict(zip(p_values, correct(list(p_values.values()), correction)))
            for name in self.names:
                self.table[name][f"{m} p-value"] = p_values.get(name, math.nan)
                self.table[name][f"{m} p-value ({correction})"] = adjusted.get(name, math.nan)
        suffixes = ("", " CI low", " CI high", " p-value", f" p-value ({correction})")
        columns = [f"{m}{suffix}" for m in chosen for suffix in suffixes]
        rows = [[name == self.base, *(self.table[name][c] for c in columns)] for name in self.names]
        return ComparisonTable(
            self.names, ["baseline", *columns], rows, self.confidence, tests, self.data
        )


@dataclasses.dataclass
class ComparisonTable:
    """What :func:`compare` computes, as plain rows (the command prints them without pandas):
    run names; column names (``baseline``, then each measure's value, interval and p-values); one row
    of values per run; the intervals' confidence; the test used for each measure. :meth:`frame` is the
    DataFrame :func:`compare` returns."""

    runs: list[str]
    columns: list[str]
    rows: list[list]
    confidence: float
    tests: dict[str, str]
    per_query: dict[str, dict[Measure, PerQuery]] = dataclasses.field(default_factory=dict)
    """Each run's per-query data of each measure, over the gold queries (what the tests resampled)."""

    def value(self, run: str, column: str) -> object:
        return self.rows[self.runs.index(run)][self.columns.index(column)]

    def renamed(self, old: str, new: str) -> ComparisonTable:
        """The same table with measure ``old`` called ``new`` (in its columns and tests)."""
        columns = [c.replace(old, new) for c in self.columns]
        tests = {new if m == old else m: t for m, t in self.tests.items()}
        return ComparisonTable(self.runs, columns, self.rows, self.confidence, tests)

    def frame(self) -> pd.DataFrame:
        """One row per run (index ``run``); ``attrs``: ``confidence`` and ``tests``."""
        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=self.columns, index=pd.Index(self.runs, name="run"))
        frame["baseline"] = frame["baseline"].astype(bool)
        frame.attrs.update(confidence=self.confidence, tests=dict(self.tests))
        return frame


def plot_intervals(frame: pd.DataFrame, measure: str, path: str) -> str:
    """A figure (PNG, PDF or SVG by the suffix) of each run's value and confidence interval for ``measure``
    (needs matplotlib)."""
    from ir_coliee.outputs.escape import figure_text
    from ir_coliee.outputs.plots import pyplot, save

    values = frame[measure]
    errors = [values - frame[f"{measure} CI low"], frame[f"{measure} CI high"] - values]
    fig, ax = pyplot().subplots(figsize=(6, 0.5 + 0.5 * len(frame)))
    ax.errorbar(values, range(len(frame)), xerr=errors, fmt="o", capsize=4)
    ax.set_yticks(range(len(frame)), labels=[figure_text(r) for r in frame.index])
    ax.set_xlabel(f"{measure} ({round(100 * frame.attrs.get('confidence', 0.95))}% bootstrap CI)")
    fig.tight_layout()
    return save(fig, path)


@dataclasses.dataclass
class Comparison:
    """What :func:`compare_runs` found: the table of :func:`ir_coliee.compare` (``table``, a DataFrame
    built on first use; ``rows``, the same as plain rows) and the findings."""

    rows: ComparisonTable
    findings: list[Finding]
    task: str
    year: Optional[int]
    headline: str

    @functools.cached_property
    def table(self) -> pd.DataFrame:
        """One row per run (index ``run``), as :func:`ir_coliee.compare` returns it."""
        return self.rows.frame()


def baseline_name(baseline: Union[int, str], names: list[str]) -> str:
    """The baseline's name: ``baseline`` itself, or the name at that index of ``names``; refused when no
    run has it."""
    if isinstance(baseline, int) and baseline not in range(-len(names), len(names)):
        raise ColieeArgumentError(
            f"baseline {baseline} is not the index of a run (0 to {len(names) - 1})"
        )
    base = names[baseline] if isinstance(baseline, int) else baseline
    if base not in names:
        raise ColieeArgumentError(
            f"baseline {baseline!r} is not one of the runs ({', '.join(names)})"
        )
    return base


def compare_runs(
    gold: GoldLike,
    runs: RunsLike,
    measures: Optional[Sequence[MeasureLike]] = None,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    baseline: Union[int, str] = 0,
    resamples: int = 10_000,
    correction: Correction = "holm",
    seed: int = 42,
    answers: Answers = None,
    answers_gold: Optional[GoldLike] = None,
) -> Comparison:
    """:func:`ir_coliee.compare` on runs read as :func:`score` reads them (official measures by default).

    Accuracy tasks compare paired right/wrong outcomes (exact McNemar, Wilson intervals): Tasks 4 and 5,
    the pilot's tort prediction (JSONL submissions), and the 2026 gated Task 3 (``answers``: each run's
    answer file, in the order of the runs). ``baseline``: the index of a run or its name."""
    resampling_arguments(resamples, seed, correction)
    if isinstance(baseline, int) and baseline < 0:
        raise ColieeArgumentError(f"baseline {baseline!r} is not the index of a run (0 or more)")
    parse_measures(measures or ())  # every name known before any file is read
    prepared = prepare(gold, runs, task, year, "auto", measures is not None, answers, answers_gold)

    n = len(prepared.pilot_runs if prepared.task.gold == TORTS else prepared.runs)
    if isinstance(baseline, int) and baseline >= n:  # the runs known, nothing scored yet
        raise ColieeArgumentError(f"baseline {baseline} is not the index of a run (0 to {n - 1})")

    chosen: list[Measure] = [AnswerAccuracy]
    if prepared.task.gold == TORTS:
        frames, qrels = prepared.pilot_decisions()
        headline = str(AnswerAccuracy)
    elif prepared.gate is not None:
        frames, qrels = _gated_outcomes(prepared)
        headline = gated.NAME
    else:
        frames, qrels = prepared.run_tables(), prepared.qrels
        chosen = check_measures(measures, prepared.task, prepared.year)
        entry = official_entry(prepared.task.key, prepared.year)
        headline = entry.ranking_column([str(m) for m in chosen])
    base = baseline_name(baseline, list(frames))
    table = compare_rows(qrels, frames, chosen, base, resamples, correction, seed)
    if prepared.gate is not None:  # the outcomes of the gated task, as answers: named as they are
        table = table.renamed(str(AnswerAccuracy), gated.NAME)
    return Comparison(table, prepared.findings, prepared.task.key, prepared.year, headline)


def _gated_outcomes(prepared: Prepared) -> tuple[dict[str, TYPE_RUN], Table]:
    """2026 Task 3 as right/wrong outcomes per question (right: the answer is right and every gold article
    retrieved), in the shape of answers, so that the accuracy tests apply."""
    truth, answered = cast(tuple[Table, list], prepared.gate)
    frames: dict[str, TYPE_RUN] = {}
    for r, a in zip(prepared.runs, answered):
        _, values = gated.recall_gated(prepared.qrels, r.run, truth, a.run, ties=False)
        frames[r.info.name] = {q: {"Y" if v else "N": 1.0} for q, v in values.items()}
    return frames, gold_table({q: {"Y": 1} for q in truth})
