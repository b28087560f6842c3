"""``ir_coliee.report``: a season's results as the field publishes them, in one self-contained web page.

The page holds what :func:`ir_coliee.score`, :func:`ir_coliee.compare_runs` and :func:`ir_coliee.analyse`
compute on the same gold and runs, and nothing else: the leaderboard first (official measures, counts,
ranks with ties sharing one, each run's place on the published table of the edition where one is
shipped, a partial table said so), the significance of each run against the best run or a named
baseline, the overview's analyses and their figures, and a section per run with its per-question values
and the findings read from its file. Folders are walked once, as ``analyse`` walks them, and the verbs
then read the files kept."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional, Union

from ir_coliee.errors import ColieeArgumentError, ColieeError, Finding, PathLike
from ir_coliee.formats.textfile import atomic_output
from ir_coliee.inputs.door import gated_task, prepare
from ir_coliee.inputs.gold import GoldLike, is_dataset_id
from ir_coliee.inputs.ingest import RunsLike
from ir_coliee.measures.parse import MeasureLike
from ir_coliee.measures.significance import Correction
from ir_coliee.model import TORTS, TaskLike, task_of
from ir_coliee.outputs import html
from ir_coliee.results import Leaderboard, load_leaderboard
from ir_coliee.scoring.analyse import Analysis, By, analyse, asked_groupings, asked_measures
from ir_coliee.scoring.compare import Comparison, compare_runs
from ir_coliee.scoring.report import Report, not_placed, other_queries, ranked
from ir_coliee.scoring.score import score

if TYPE_CHECKING:
    import pandas as pd


@dataclasses.dataclass(eq=False, repr=False)
class ResultsPage:
    """The page (:attr:`html`) and the results it shows: ``report`` (score), ``comparison``
    (compare_runs), ``analysis`` (analyse; the whole set alone where no grouping applies), ``published``
    (the edition's table, if any), ``findings`` (the files skipped in folders, then score's)."""

    html: str
    report: Report
    comparison: Comparison
    analysis: Analysis
    published: Optional[Leaderboard]
    findings: list[Finding]

    def write(self, path: PathLike) -> str:
        """The page at ``path``, written atomically (UTF-8)."""
        with atomic_output(path, "w") as out:
            out.write(self.html)
        return os.fspath(path)


def _groupings(gold: GoldLike, key: str) -> list[By]:
    """The groupings that apply to the gold: by gold items where a question has several, the anonymised
    parties where the gold is a statute dataset (the only place question texts are read from)."""
    task = task_of(key)
    by: list[By] = [] if task.kind.labels or task.gold == TORTS else ["relevant", "single-multiple"]
    return [*by, "anonymised"] if task.statute and is_dataset_id(gold) else by


def report(
    gold: GoldLike,
    runs: RunsLike,
    by: Union[By, Sequence[By], None] = None,
    measures: Union[MeasureLike, Sequence[MeasureLike], None] = None,
    baseline: Optional[str] = None,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    correction: Correction = "holm",
    resamples: int = 10_000,
    seed: int = 42,
    digits: int = 4,
    answers: Optional[Sequence[PathLike]] = None,
    answers_gold: Optional[GoldLike] = None,
) -> ResultsPage:
    """The results page of ``runs`` against ``gold`` (anything :func:`ir_coliee.analyse` takes).

    ``by``: the groupings of the analyses (default: those that apply, see :func:`_groupings`; a category
    file besides them must be named with them); ``measures``: the analyses' measures besides the headline
    (the leaderboard and the tests use the official ones); ``baseline``: the run each run is tested
    against (default: the best); ``correction``, ``resamples`` and ``seed`` as
    :func:`ir_coliee.compare_runs`; ``digits``: the decimals shown (each cell keeps its exact value in
    ``data-value``); ``answers`` and ``answers_gold``: 2026 Task 3, each run's answer file in the order
    of the runs (folders walked in sorted order), scored with it as recall-gated accuracy, which then
    ranks the runs and places them on the published table, as :func:`ir_coliee.score` scores them
    (answer files found in a folder are skipped there as runs of another task)."""
    if by is not None:
        asked_groupings(by, gold)  # the analyses' arguments, checked before any file is read
    asked_measures(measures)
    task = gated_task(answers, task, gold)
    prepared = prepare(gold, runs, task, year, "auto", False)  # folders walked, non-runs skipped
    if baseline is not None and baseline not in (names := [r.info.name for r in prepared.runs]):
        raise ColieeArgumentError(
            f"baseline {baseline!r} is not one of the runs ({', '.join(names)})"
        )
    paths = [r.info.path for r in prepared.runs]
    kept = paths if paths and all(paths) else runs  # the files that are runs, once each
    scored = score(gold, kept, task, year, answers=answers, answers_gold=answers_gold)
    board = ranked(scored, fractions=False)
    names = [r.name for r in scored.runs]
    base = baseline if baseline is not None else str(board["run"].iloc[0])
    testing = (names.index(base), resamples, correction, seed)
    tested = compare_runs(gold, kept, None, task, year, *testing, answers, answers_gold)
    groupings = _groupings(gold, scored.task) if by is None else by
    analysis = analyse(gold, kept, groupings, measures, task, year)
    unplaced = not_placed(gold)
    try:
        published = load_leaderboard(scored.task, scored.year) if scored.year else None
    except ColieeError:  # no table shipped for the edition
        published = None
    published = None if unplaced else published
    absent = f"Not placed on a published table: {unplaced}." if unplaced else NO_TABLE
    findings = list(dict.fromkeys([*prepared.findings, *scored.findings]))
    sections = [
        ("leaderboard", "Leaderboard", _leaderboard(scored, board, published, absent, digits)),
        ("significance", "Significance", _significance(tested, base, correction, digits)),
        ("analyses", "Analyses", _analyses(analysis, digits)),
        ("figures", "Figures", _figures(analysis)),
        ("findings", "Findings", _findings(findings, scored)),
        ("runs", "Runs", _runs(scored, findings, list(prepared.qrels), digits)),
    ]
    entry = task_of(scored.task).label + (f" {scored.year}" if scored.year else "")
    runs_scored = f"{len(names)} run{'s' * (len(names) != 1)} scored"
    intro = [f"COLIEE {entry}: {runs_scored} against {prepared.gold.source}."]
    text = html.page(f"COLIEE {entry} results", intro, sections)
    return ResultsPage(text, scored, tested, analysis, published, findings)


#: What the page says where no published table of the edition is shipped.
NO_TABLE = "No published table of this edition is shipped."


def _leaderboard(
    scored: Report, board: pd.DataFrame, published: Optional[Leaderboard], absent: str, digits: int
) -> str:
    """The runs best first, each placed on the published table where one ranks by the same headline
    (``absent``: what is said where none is)."""
    board = board.drop(columns="path")
    parts = []
    if published is not None and published.headline not in board.columns:
        gated = task_of(scored.task).gate
        gate = ": give each run's answer file (answers=, --answers)" if gated else ""
        said = f"The published {scored.year} table ranks by {published.headline}, which these runs"
        parts.append(html.paragraph(f"{said} are not scored by{gate}."))
    elif published is not None:
        kind = "" if published.complete else " (partial table)"
        out_of = f" of {len(published.rows) + 1}{kind}"  # the table with the run in it
        board["placement"] = [f"{published.place(v)[0]}{out_of}" for v in board[published.headline]]
        merged = published.with_runs(scored.table)
        caption = (
            f"The published {scored.year} table by {published.headline}, with these runs placed"
            f" ({'the complete official table' if published.complete else 'a partial table'})"
        )
        marked = [str(e).startswith("this run") for e in merged["entry"]]  # "this run = X" too
        parts.append(_frame("placement", caption, merged, digits, marked))
        parts.append(html.paragraph(f"Source: {published.source}"))
        if caveat := other_queries(scored):
            parts.append(html.paragraph(f"Beware: {caveat}."))
    caption = "Official measures, best first (ties share a rank); counts behind each measure"
    ranked_runs = _frame("leaderboard", caption, board, digits)
    return ranked_runs + ("".join(parts) or html.paragraph(absent))


def _frame(
    name: str, caption: str, frame: pd.DataFrame, digits: int, marked: Sequence[bool] = ()
) -> str:
    """:func:`html.table` of a DataFrame's columns and rows."""
    return html.table(name, caption, list(frame.columns), frame.values.tolist(), digits, marked)


def _significance(tested: Comparison, base: str, correction: str, digits: int) -> str:
    """One table per measure, naming its test, its intervals and the correction."""
    rows, parts = tested.rows, []
    for m, test in rows.tests.items():
        columns = ["baseline", *(c for c in rows.columns if c == m or c.startswith(f"{m} "))]
        kind = "Wilson" if "McNemar" in test else "bootstrap percentile"
        caption = (
            f"{m} of each run against {base}: {test} test, p-values corrected by {correction} over "
            f"the runs; {round(100 * rows.confidence)}% {kind} intervals"
        )
        values = [[r, *(tested.rows.value(r, c) for c in columns)] for r in rows.runs]
        marked = [r == base for r in rows.runs]
        parts.append(
            html.table(f"significance:{m}", caption, ["run", *columns], values, digits, marked)
        )
    return "".join(parts)


def _analyses(analysis: Analysis, digits: int) -> str:
    """The tables of ``analyse``; with no grouping, the whole set's (difficulty, histogram) alone."""
    m = analysis.measures[0]
    captions = {
        "groups": "Each group's value of each measure, scored over the group alone",
        "histogram": f"Questions by their mean {m} over the runs",
        "per_question": f"Per-question difficulty: solved (1) and nothing (0) count runs by {m}",
    }
    tables = analysis.tables().items()
    return "".join(html.table(n, captions[n], header, rows, digits) for n, (header, rows) in tables)


def _figures(analysis: Analysis) -> str:
    """The analyses' panels as inline SVG, each run in one look across them; without matplotlib, how
    to get them."""
    from ir_coliee.outputs import plots

    try:
        plots.require("matplotlib", "drawing the figures")
    except ColieeError as e:
        return html.paragraph(f"{e}. The tables above hold every value.", "warn")
    look = plots.looks(analysis.runs)  # each run's colour and hatch
    panels = enumerate(analysis.panels())
    figures = "".join(html.figure(plots.svg(p, look, f"fig{i}"), p.title, p.alt) for i, p in panels)
    return f'<div class="figs">{figures}</div>'


def _findings(findings: list[Finding], scored: Report) -> str:
    """What is not about one run's file: the gold, the files skipped in folders (each run's findings
    are in its section)."""
    runs = {r.path for r in scored.runs} | {r.name for r in scored.runs}
    general = [html.paragraph(str(f), "warn") for f in findings if f.path not in runs]
    return "".join(general) or html.paragraph("No finding outside the runs' files.")


def _runs(scored: Report, findings: list[Finding], order: list[str], digits: int) -> str:
    """Each run: where it came from, the findings on its file, its per-question values in the gold's
    ``order`` (the analyses' order)."""
    values = scored.per_query.pivot(index=["run", "query_id"], columns="measure", values="value")
    parts = []
    for i, info in enumerate(scored.runs, 1):
        own = [f for f in findings if f.path in (info.path, info.name)]
        table = values.loc[info.name]
        table = table.reindex([q for q in order if q in table.index] or table.index)
        table = table[[m for m in scored.measures if m in table.columns]].reset_index()
        parts.append(
            f'<h3 id="run-{i}">{html.esc(info.name)}</h3>'  # an id unique and a valid token
            + html.paragraph(f"{info.path or 'given in memory'} ({info.format or 'in memory'})")
            + "".join(html.paragraph(f"{f.level}: {f.message}", "warn") for f in own)
            + (html.paragraph("No finding on this file.") if not own else "")
            + _frame(f"run:{info.name}", f"{info.name}: per-question values", table, digits)
        )
    return "".join(parts)
