"""Systems compared across benchmarks: COLIEE tasks and editions, other ir_datasets collections and gold
files, in one table a paper can print.

Each benchmark is scored alone, as :func:`ir_coliee.score` scores it (its own official measures: COLIEE's
by task and edition, another ir_datasets entry's ``official_measures``, or the measures named), and
each cell gets the paired test valid for its measure, as :func:`ir_coliee.compare` runs it alone
(randomization on counts for micro measures, on per-query values for means, exact McNemar for answer
accuracy); one correction then covers a family of cells: the headline measure of each benchmark (the
default), or every cell. A cell outside the family is not tested: its p-value is NaN and it bears no
mark (its raw p-value stays in :attr:`Scored.p_values`). The summaries never average different measures:
wins, ties and losses against the baseline, the mean of a measure over the benchmarks that share it, the
mean relative placement among an edition's official runs (rank / table size, over complete published tables
only: a partial table is said, never placed against), and one randomization test stratified by benchmark whose statistic is the number of
benchmarks won.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, Optional, TextIO, Union, cast

from ir_coliee.data.guards import threat_findings
from ir_coliee.errors import WARNING, ColieeArgumentError, ColieeError, Finding
from ir_coliee.inputs.door import Prepared, prepare
from ir_coliee.inputs.gold import is_dataset_id
from ir_coliee.inputs.ingest import RunLike
from ir_coliee.measures.parse import MeasureLike, parse_measures
from ir_coliee.measures.significance import (
    Correction,
    correct,
    resampling_arguments,
    stat_of,
    stratified_wins,
)
from ir_coliee.model import official_entry
from ir_coliee.outputs.names import paper_names
from ir_coliee.outputs.tabular import (
    PAPER_MISSING,
    OutputFormat,
    json_rows,
    json_value,
    write_grouped,
    write_json,
    write_rows,
)
from ir_coliee.results import placed
from ir_coliee.scoring.compare import compare_rows
from ir_coliee.scoring.report import not_placed, other_queries
from ir_coliee.scoring.score import SCORERS

if TYPE_CHECKING:
    import pandas as pd

#: ``{benchmark: {system: run}}``: a benchmark is a COLIEE dataset id, another ir_datasets id with qrels,
#: or a gold file; a run is anything :func:`ir_coliee.score` takes.
BenchmarkRuns = Mapping[str, Mapping[str, RunLike]]
#: The measures: one list for every benchmark, or a list per benchmark (the others keep their official ones).
BenchmarkMeasures = Union[None, Sequence[MeasureLike], Mapping[str, Sequence[MeasureLike]]]
#: The cells one correction covers: the headline measure of each benchmark, or every cell.
Family = Literal["headline", "all"]
#: A corrected p-value below this is a win or a loss; above it, a tie.
ALPHA = 0.05
#: The columns of the tidy output (tsv, csv, JSON cells): one row per (system, benchmark, measure).
TIDY_HEADER = [
    "system",
    "benchmark",
    "measure",
    "value",
    "p-value",
    "test",
    "official rank",
    "official table",
]
#: The paper table's marks (LaTeX writes them as math): significant against the baseline; a partial published
#: table.
SIGNIFICANT, PARTIAL = "†", "‡"


#: The paper table's summary columns against the baseline (:meth:`BenchmarkResult.summary_rows`).
SUMMARY = ["W/T/L", "won", "p", "official place"]


class Scored(NamedTuple):
    """One benchmark scored alone: its values, the raw p-values of its tests, where its edition places."""

    name: str
    measures: list[str]
    headline: str
    """The measure the benchmark ranks by (COLIEE's official ranking measure, else the first)."""
    values: dict[str, dict[str, float]]
    """``{measure: {system: value}}``, as :func:`ir_coliee.score` gives them."""
    p_values: dict[str, dict[str, float]]
    """``{measure: {system: p}}`` against the baseline, uncorrected, as :func:`ir_coliee.compare` gives them."""
    tests: dict[str, str]
    placement: dict[str, tuple[int, int]]
    """``{system: (rank, official runs)}`` among the edition's published runs, on the headline measure
    (complete published tables only)."""
    # the edition's published table of the headline: complete, partial, None (none shipped)
    official: Optional[str]
    strata: dict[str, tuple]
    """``{system: (stat, its per-query data, the baseline's)}`` on the headline, for the stratified test."""
    findings: list[Finding]


def _number(value: float, digits: int, missing: str) -> str:
    return missing if math.isnan(value) else f"{value:.{digits}f}"


def _summary_cells(row: Mapping[str, object], digits: int, missing: str) -> list[str]:
    """A summary row (:meth:`BenchmarkResult.summary_rows`) as the paper table's :data:`SUMMARY` shows it."""
    won, p, place = (
        cast(float, row[k]) for k in ("benchmarks won", "stratified p-value", "mean official place")
    )
    wtl = f"{row['wins']}/{row['ties']}/{row['losses']}"
    where = missing if math.isnan(place) else f"{place:.2f} ({row['official tables']})"
    return [wtl, _number(won, 1, missing), _number(p, digits, missing), where]


def _gold_of(benchmark: str) -> tuple[object, Optional[list[str]]]:
    """The gold of a benchmark as :func:`ir_coliee.score` takes it, and its official measures when it is
    an ir_datasets entry that names them (COLIEE's come from the model)."""
    if is_dataset_id(benchmark) or os.path.exists(benchmark):
        return benchmark, None
    import ir_datasets

    try:
        dataset = ir_datasets.load(benchmark)
    except KeyError:
        raise ColieeError(
            f"benchmark {benchmark!r} is neither a file, a COLIEE dataset id nor an ir_datasets id"
        ) from None
    if not dataset.has_qrels():
        raise ColieeError(f"benchmark {benchmark!r} has no qrels to score against")
    doc = dataset.documentation() if hasattr(dataset, "documentation") else {}
    official = doc.get("official_measures") if isinstance(doc, dict) else None
    return dataset.qrels_iter(), list(official) if official else None


def _ran(benchmark: str, run: RunLike) -> RunLike:
    """A run, or a PyTerrier transformer's results on the benchmark's topics (a dataset id's)."""
    if not hasattr(run, "transform") or hasattr(run, "columns"):
        return run
    if os.path.exists(benchmark):
        raise ColieeError(
            f"{benchmark}: a gold file has no topics to run a PyTerrier transformer on; give its run"
        )
    import pyterrier as pt

    return cast(RunLike, run.transform(pt.get_dataset(f"irds:{benchmark}").get_topics()))


def _prepared(
    benchmark: str, systems: Mapping[str, RunLike], measures: BenchmarkMeasures
) -> tuple[Prepared, list]:
    gold, official = _gold_of(benchmark)
    # this benchmark's, or all's
    asked = measures.get(benchmark) if isinstance(measures, Mapping) else measures
    named = list(asked) if asked else official
    give = f"give its measures, measures={{{benchmark!r}: [...]}} in Python or --measure {benchmark}=MEASURE"
    if named is None and not is_dataset_id(benchmark) and not isinstance(gold, str):
        raise ColieeError(f"benchmark {benchmark!r} names no official measures: {give}")
    prepared = prepare(gold, dict(systems), measures_named=named is not None)
    if any(f.rule == "guess" for f in prepared.findings):  # a benchmark never scores a guessed task
        raise ColieeError(
            f"benchmark {benchmark!r} names no COLIEE task (a gold file, not a dataset id: its task would be "
            f"guessed from its contents): {give}"
        )
    source = benchmark if not isinstance(gold, str) else prepared.gold.source
    return prepared._replace(gold=prepared.gold._replace(source=source)), cast(list, named)


def score_benchmark(
    benchmark: str,
    systems: Mapping[str, RunLike],
    baseline: str,
    measures: BenchmarkMeasures = None,
    resamples: int = 10_000,
    seed: int = 42,
) -> Scored:
    """One benchmark scored alone: :func:`ir_coliee.score`'s values, :func:`ir_coliee.compare`'s raw
    p-values (``correction="none"``, the same ``seed``), the placement of each system."""
    systems = {s: _ran(benchmark, run) for s, run in systems.items()}
    prepared, named = _prepared(benchmark, systems, measures)
    if prepared.task.kind.scorer != "measures":
        raise ColieeError(
            f"{benchmark}: {prepared.task.label} is scored by its own rules; compare it alone"
        )
    report = SCORERS["measures"](prepared, named)
    names = report.measures
    # the door names a run file by its tag: here each system keeps the name it was given (the runs in order)
    runs: dict[str, object] = {s: r.run for s, r in zip(systems, prepared.runs)}
    chosen = parse_measures(names)
    compared = compare_rows(prepared.qrels, runs, chosen, baseline, resamples, "none", seed)
    values = {m: {s: row[m] for s, row in zip(systems, report.rows)} for m in names}
    raw = {m: {s: cast(float, compared.value(s, f"{m} p-value")) for s in systems} for m in names}
    entry = prepared.gold.dataset  # a COLIEE dataset (None: a gold file, which names no edition)
    headline = (
        names[0]
        if entry is None
        else official_entry(prepared.task.key, prepared.year).ranking_column(names)
    )
    measure = next(m for m in compared.per_query[baseline] if str(m) == headline)
    data = {s: compared.per_query[s][measure] for s in systems}
    strata = {s: (stat_of(measure), data[s], data[baseline]) for s in systems if s != baseline}
    # what threatens comparing on a COLIEE dataset (data.guards)
    findings = [*report.findings, *(threat_findings(benchmark, entry) if entry is not None else [])]
    # a gold file names no edition; a dataset that is not a test set is not placed (not_placed)
    edition = prepared.year if entry is not None and not_placed(entry.dataset_id) is None else None
    # its placement, and whether the published table is complete
    published = placed(prepared.task.key, edition, headline, values[headline])
    if published[1] and (caveat := other_queries(report)):
        findings.append(Finding(WARNING, benchmark, None, caveat))
    return Scored(
        benchmark, names, headline, values, raw, compared.tests, *published, strata, findings
    )


def _check_arguments(
    runs: BenchmarkRuns, measures: BenchmarkMeasures, base: str, names: Mapping[str, str]
) -> None:
    """What the runs make known, checked before any scoring: the baseline has a run on every benchmark,
    every measure is known and of a benchmark given, every name of a benchmark or system given."""
    for benchmark, systems in runs.items():
        if base not in systems:
            raise ColieeError(
                f"the baseline {base!r} has no run on {benchmark} (runs: {', '.join(systems)})"
            )
    of = measures if isinstance(measures, Mapping) else {}
    parse_measures([m for chosen in (of.values() if of else [measures or ()]) for m in chosen])
    every = [*runs, *(s for b in runs.values() for s in b)]
    for option, keys, known in (("measure", of, list(runs)), ("name", names, every)):
        if unknown := [k for k in keys if k not in known]:
            said = ", ".join(dict.fromkeys(f"--{option} {k}={option.upper()}" for k in known))
            raise ColieeArgumentError(
                f"--{option} {unknown[0]}: no benchmark{' or system' * (option == 'name')} of that "
                f"name; give one of: {said}"
            )


def benchmark(
    runs: BenchmarkRuns,
    *,
    measures: BenchmarkMeasures = None,
    baseline: Optional[str] = None,
    resamples: int = 10_000,
    correction: Correction = "holm",
    family: Family = "headline",
    seed: int = 42,
    names: Optional[Mapping[str, str]] = None,
) -> BenchmarkResult:
    """Systems compared across benchmarks: ``runs`` maps each benchmark to ``{system: run}``; ``baseline``
    (default: the first system of the first benchmark) must have a run on every benchmark. Every value
    equals scoring that benchmark alone; every raw p-value equals its valid test computed alone;
    ``correction`` is applied once, over the ``family``: the headline measure of each benchmark, or
    ``"all"`` cells. ``names`` maps a benchmark or a system to the name the paper table prints (default:
    :func:`ir_coliee.outputs.names.paper_names`)."""
    if family not in ("headline", "all"):
        raise ColieeArgumentError(f"family={family!r}: expected 'headline' or 'all'")
    resampling_arguments(resamples, seed, correction)
    if not runs:
        raise ColieeError("no benchmark given")
    first = next(iter(runs.values()))
    base = baseline if baseline is not None else next(iter(first), "")
    # the baseline first
    order = list(dict.fromkeys([base, *(s for b in runs.values() for s in b)]))
    _check_arguments(runs, measures, base, names or {})
    paper_names(list(runs), order, names or {})  # a clash of names refused before any scoring
    scored = [score_benchmark(b, runs[b], base, measures, resamples, seed) for b in runs]
    return BenchmarkResult(scored, order, base, correction, resamples, seed, family, names or {})


@dataclasses.dataclass(eq=False)
class BenchmarkResult:
    """What :func:`benchmark` found. DataFrames are built on first use; :meth:`tidy_rows`,
    :meth:`summary_rows` and :meth:`write` need no pandas."""

    scored: list[Scored]
    systems: list[str]
    baseline: str
    correction: Correction
    resamples: int
    seed: int
    family: Family = "headline"
    names: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """A benchmark's or a system's name in the paper table (:func:`paper_names`, given ``names`` first)."""

    def __post_init__(self) -> None:
        self.names = paper_names([b.name for b in self.scored], self.systems, self.names)
        self.cells = [(b.name, m) for b in self.scored for m in b.measures]
        """Every (benchmark, measure), in order."""
        self._by_name = {b.name: b for b in self.scored}
        self.corrected = self._correct()
        """``{((benchmark, measure), system): p}`` corrected over the family (cells outside it: absent)."""
        self.findings = [f for b in self.scored for f in b.findings]

    def __repr__(self) -> str:
        return f"BenchmarkResult(benchmarks={list(self._by_name)}, systems={self.systems})"

    def _correct(self) -> dict[tuple[tuple[str, str], str], float]:
        """The p-values of the family's cells, corrected together."""
        tested = [
            ((b.name, m), s, p)
            for b in self.scored
            for m in b.measures
            if self.family == "all" or m == b.headline
            for s, p in b.p_values[m].items()
            if s != self.baseline
        ]
        adjusted = correct([p for _, _, p in tested], self.correction)
        return {(cell, s): q for (cell, s, _), q in zip(tested, adjusted)}

    def value(self, cell: tuple[str, str], system: str) -> float:
        return self._by_name[cell[0]].values[cell[1]].get(system, math.nan)

    def p_value(self, cell: tuple[str, str], system: str) -> float:
        return self.corrected.get((cell, system), math.nan)

    def summary_rows(self) -> list[dict[str, object]]:
        """Per system against the baseline, on each benchmark's headline measure: wins, ties and losses
        (corrected p below :data:`ALPHA`), the mean relative placement among official runs (rank / table size
        with the system in it, 1 the last, over the complete published tables, their number beside it), and the stratified randomization test over all benchmarks (run once, then kept)."""
        return self._summarised

    @functools.cached_property
    def _summarised(self) -> list[dict[str, object]]:
        rows = []
        for s in self.systems:
            if s == self.baseline:
                continue
            held = [b for b in self.scored if s in b.values[b.headline]]  # the benchmarks it ran on
            outcome = Counter(self._outcome((b.name, b.headline), s) for b in held)
            # a table of 25 runs and the system: 5th is 5/26, last 26/26
            ranks = [b.placement[s] for b in held if s in b.placement]  # (rank, table size)
            places = [rank / (size + 1) for rank, size in ranks]
            strata = [b.strata[s] for b in held]
            untested = (math.nan, math.nan)
            won, p = stratified_wins(strata, self.resamples, self.seed) if strata else untested
            rows.append(
                {
                    "system": s,
                    "wins": outcome["win"],
                    "ties": outcome["tie"],
                    "losses": outcome["loss"],
                    "benchmarks won": won,
                    "stratified p-value": p,
                    "mean official place": sum(places) / len(places) if places else math.nan,
                    "official tables": len(places),
                }
            )
        return rows

    def _outcome(self, cell: tuple[str, str], system: str) -> str:
        if not self.p_value(cell, system) < ALPHA:
            return "tie"
        return "win" if self.value(cell, system) > self.value(cell, self.baseline) else "loss"

    @property
    def table(self) -> pd.DataFrame:
        """Systems x (benchmark, measure) values."""
        return self._frame(self.value)

    @property
    def pvalues(self) -> pd.DataFrame:
        """Systems x (benchmark, measure) p-values against the baseline, corrected over the family
        (``correction``, ``family``); NaN for the baseline and outside the family."""
        frame = self._frame(self.p_value)
        frame.attrs["correction"], frame.attrs["family"] = self.correction, self.family
        return frame

    @property
    def placement(self) -> pd.DataFrame:
        """Systems x benchmark: the rank among the edition's official runs (COLIEE cells with a complete
        published table), ``<NA>`` elsewhere."""
        import pandas as pd

        data = {
            b.name: [b.placement.get(s, (None, 0))[0] for s in self.systems] for b in self.scored
        }
        return pd.DataFrame(data, index=pd.Index(self.systems, name="system"), dtype="Int64")

    @property
    def summary(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.summary_rows()).set_index("system")

    def _frame(self, get) -> pd.DataFrame:
        import pandas as pd

        columns = pd.MultiIndex.from_tuples(self.cells, names=["benchmark", "measure"])
        rows = [[get(cell, s) for cell in self.cells] for s in self.systems]
        return pd.DataFrame(rows, index=pd.Index(self.systems, name="system"), columns=columns)

    def tidy_rows(self) -> list[list[object]]:
        """One row per (system, benchmark, measure): value, p-value (corrected; NaN outside the family), test,
        official rank, official table (``complete``, ``partial`` or empty)."""
        rows: list[list[object]] = []
        for cell in self.cells:
            b, m = self._by_name[cell[0]], cell[1]
            for s in self.systems:
                rank = b.placement.get(s, (None, 0))[0] if m == b.headline else None
                test = b.tests.get(m, "") if s != self.baseline else "baseline"
                values = [self.value(cell, s), self.p_value(cell, s)]
                rows.append([s, b.name, m, *values, test, rank, b.official or ""])
        return rows

    def paper_frame(
        self, style: Literal["markdown", "latex"], digits: int
    ) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The paper's table as text (a missing value as ``style`` writes it), and where it is bold: a row per
        system; per benchmark its measures (marked where the corrected p-value is below :data:`ALPHA`, bold
        the highest of each column, ties all bold) and ``rank``, the systems' rank on its headline measure
        (ties share the best); ``mean``, each measure over the benchmarks that share it; the summary against
        the baseline."""
        import pandas as pd

        missing, values, marked = PAPER_MISSING[style], self.table, self.pvalues < ALPHA
        groups = [self.names[b.name] + PARTIAL * (b.official == "partial") for b in self.scored]
        parts = []
        for b in self.scored:  # each benchmark's measures, then its rank
            part = values[b.name]
            parts.append(part.assign(rank=part[b.headline].rank(ascending=False, method="min")))
        size = values.T.groupby(level="measure", sort=False).size()
        # a mean never mixes measures, nor benchmarks a system has no value on
        means = {
            m: values.xs(m, axis=1, level="measure").mean(axis=1, skipna=False)
            for m in size[size > 1].index
        }
        grid = pd.concat(
            [*parts, pd.DataFrame(means, index=values.index)], axis=1, keys=[*groups, "mean"]
        )
        bold = grid.eq(grid.max()) & (grid.columns.get_level_values(1) != "rank")
        text = grid.apply(
            lambda c: c.map(lambda v: _number(v, 0 if c.name[1] == "rank" else digits, missing))
        )
        marks = pd.concat([marked[b.name] for b in self.scored], axis=1, keys=groups)
        marks = marks.reindex(columns=grid.columns, fill_value=False)
        text = text.where(~marks, text + SIGNIFICANT)
        rows = {r["system"]: r for r in self.summary_rows()}
        versus = [
            [missing] * 4 if s not in rows else _summary_cells(rows[s], digits, missing)
            for s in self.systems
        ]
        header = pd.MultiIndex.from_product([[f"vs {self.names[self.baseline]}"], SUMMARY])
        text = pd.concat([text, pd.DataFrame(versus, grid.index, header)], axis=1)
        text.index = pd.Index([self.names[s] for s in self.systems])
        return text, bold.reindex(columns=text.columns, fill_value=False).set_axis(text.index)

    def note(self) -> str:
        """What the paper table's marks mean, the test, the correction and its family."""
        family = "every cell" if self.family == "all" else "the headline measure of each benchmark"
        corrected = f"{self.correction} correction over {family}"
        if self.correction == "none":
            corrected = "no correction"
        said = [
            f"{SIGNIFICANT}: p < {ALPHA} against {self.names[self.baseline]}, the paired test valid for each measure, "
            f"{corrected} ({len(self.corrected)} tests); bold: best of each column",
            "rank: among these systems on the headline measure, as W/T/L",
            "won: benchmarks won in the stratified test (a tie counts one half), p its p-value",
            "official place: mean of rank / table size among the official runs (1: last), over the complete "
            "published tables (their number)",
        ]
        if len({m for _, m in self.cells}) < len(self.cells):
            said.append("mean: over the benchmarks that share the measure")
        if any(b.official == "partial" for b in self.scored):
            said.append(f"{PARTIAL}: the published table is partial, no placement")
        return "; ".join(said) + "."

    def json_document(self) -> dict[str, object]:
        """Everything as one JSON document: the benchmarks (the paper's name, the headline, whether the
        published table is complete), the cells (tidy), the summary, the findings."""
        about = [(b.name, self.names[b.name], b.headline, b.official) for b in self.scored]
        return {
            "baseline": self.baseline,
            "correction": self.correction,
            "family": self.family,
            "benchmarks": json_rows(["benchmark", "name", "headline", "official table"], about),
            "resamples": self.resamples,
            "seed": self.seed,
            "cells": json_rows(TIDY_HEADER, self.tidy_rows()),
            "summary": [{k: json_value(v) for k, v in r.items()} for r in self.summary_rows()],
            "findings": [str(f) for f in self.findings],
        }

    def write(self, out: TextIO, style: OutputFormat = "tsv", digits: int = 4) -> None:
        """The result as one document: tsv and csv one row per (system, benchmark, measure); JSON the same
        with the summary and the benchmarks; Markdown and LaTeX the paper's table (:meth:`paper_frame`) with
        its :meth:`note` (LaTeX: the caption)."""
        if style == "json":
            write_json(self.json_document(), out)
        elif style == "markdown" or style == "latex":
            write_grouped(*self.paper_frame(style, digits), out, style, self.note())
        else:
            write_rows(TIDY_HEADER, self.tidy_rows(), out, digits, style=style)
