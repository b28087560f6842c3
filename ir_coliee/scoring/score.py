"""Scoring submissions against gold as the organisers do: the task decided once, the runs read through
the door (:mod:`ir_coliee.inputs.door`), and one scorer per kind of gold (``model.KINDS``).

What it refuses (:class:`~ir_coliee.errors.ColieeScoringError`): a run in a format its task does not
take (Y/N answers against article gold, articles against answer gold), a run that shares no query with
the gold or whose ids follow another convention, a measure that does not apply to the gold
(``Accuracy`` on answers), ``task`` contradicting a dataset id.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Optional, cast

from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.errors import WARNING, Finding
from ir_coliee.formats.textfile import is_input
from ir_coliee.inputs.door import Answers, Prepared, check_measures, prepare
from ir_coliee.inputs.gold import GoldLike
from ir_coliee.inputs.ingest import RunInfo, RunsLike, shared_run
from ir_coliee.measures.parse import MeasureLike, chosen_measures, per_query_frame
from ir_coliee.measures.pipeline import calc
from ir_coliee.model import Task, TaskLike
from ir_coliee.scoring.report import PerQuery, Report
from ir_coliee.table.runs import FormatOption
from ir_coliee.table.tables import CodedRun, Table, coded_gold, gold_table

if TYPE_CHECKING:
    import pandas as pd


# --- the scorers, one per kind of gold -----------------------------------------------------------------


def _counts(task: Task, gold: Table, run: CodedRun) -> dict[str, int]:
    """The counts behind the scores, summed over the gold queries (with the gold's codes the provider
    made)."""
    _, tp, retrieved, relevant = coded_gold(gold, 1).counts(run, None, task.kind.labels)
    if task.kind.labels:
        return {"correct": sum(tp), "questions": len(tp)}
    return {
        "tp": sum(tp),
        "retrieved": sum(retrieved),
        "relevant": sum(relevant),
        "queries": len(tp),
    }


def _report(prepared: Prepared, scored: list[tuple[dict, PerQuery]], names: list[str]) -> Report:
    """The report of each run's row of scores and per-query values, in the order of the runs."""
    runs = prepared.runs
    rows = [{"run": r.info.name, **row} for r, (row, _) in zip(runs, scored)]
    per_query = [(r.info.name, values) for r, (_, values) in zip(runs, scored)]
    infos = [r.info for r in runs]
    return Report(rows, per_query, prepared.findings, prepared.task, prepared.year, names, infos)


def _score_measures(prepared: Prepared, measures: Optional[Sequence[MeasureLike]]) -> Report:
    if prepared.gate is not None:
        return _score_gated(prepared)
    task, qrels = prepared.task, prepared.qrels
    chosen = check_measures(measures, task, prepared.year)
    scored = []
    for r in prepared.runs:
        result = calc(chosen, qrels, r.run)
        row = {str(m): float(cast(dict, result.aggregated)[m]) for m in chosen}
        scored.append(({**row, **_counts(task, qrels, r.run)}, cast(PerQuery, result.per_query)))
    return _report(prepared, scored, [str(m) for m in chosen])


def _score_gated(prepared: Prepared) -> Report:
    """2026 Task 3: each retrieval run scored with its Y/N answers."""
    from ir_coliee.scoring import gated

    truth, answered = cast(tuple[Table, list], prepared.gate)
    scored: list[tuple[dict, PerQuery]] = []
    for r, a in zip(prepared.runs, answered):
        row, values = gated.recall_gated(prepared.qrels, r.run, truth, a.run)
        scored.append((row, [(q, gated.NAME, v) for q, v in values.items()]))
    return _report(prepared, scored, [gated.NAME, *map(str, gated.TIE_BREAKERS)])


def _score_torts(prepared: Prepared, _: Optional[Sequence[MeasureLike]]) -> Report:
    from ir_coliee.scoring.pilot import score_pilot

    loaded, findings = prepared.gold, prepared.findings
    rows, per_query, infos, disqualified = [], [], [], {}
    for name, (path, torts) in prepared.pilot_runs.items():
        scores = score_pilot(loaded.pilot_torts(), torts)
        for null in scores.nulls:
            message = f"{null.subtask} disqualified: null at {null.where()}"
            findings.append(Finding(WARNING, path, None, message, "null"))
        if unknown := len(scores.unknown_claims):
            message = f"{unknown} predicted claims are not in the gold and are ignored"
            findings.append(Finding(WARNING, path, None, message, "unknown-claim"))
        disqualified[name] = sorted(scores.disqualified())
        rows.append({"run": name, **scores.table.iloc[0].to_dict()})
        per_query.append((name, scores.per_query))
        infos.append(RunInfo(name, path, None, []))
    names = [c for c in rows[0] if c != "run"]
    return Report(
        rows, per_query, findings, prepared.task, prepared.year, names, infos, disqualified
    )


#: One scorer per ``Kind.scorer`` (model/tasks.py).
SCORERS: dict[str, Callable[[Prepared, Optional[Sequence[MeasureLike]]], Report]] = {
    "measures": _score_measures,
    "pilot": _score_torts,
}


def score(
    gold: GoldLike,
    runs: RunsLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measures: Optional[Sequence[MeasureLike]] = None,
    answers: Answers = None,
    answers_gold: Optional[GoldLike] = None,
    run_format: FormatOption = "auto",
) -> Report:
    """Score ``runs`` against ``gold`` as the organisers do; see the module text for what is refused.

    ``runs``: one run or several (a list, or a dict of names to runs), each a path (``-``: standard input),
    a DataFrame, a dict of dicts, or an iterable of rows (a generator is consumed once). Paths may be
    folders, walked as every verb walks them (:func:`ir_coliee.inputs.ingest.walked`): a file found in
    one that is no run of the task is skipped with a finding (rule ``skipped``).
    ``task`` and ``year`` default to those of a dataset id given as ``gold`` (else the task is guessed
    from the files, with a finding, and the year is the newest edition); ``measures`` default to the
    official ones of the task and edition with its ranked ones, whatever the runs' shape.
    ``answers``: 2026 Task 3, the Y/N answer file of each run, scored with it as recall-gated accuracy
    against ``answers_gold`` (default: the Task 4 twin of a ``coliee/task3/...`` dataset).
    ``run_format`` forces the format of run files.
    """
    prepared = prepare(
        gold, runs, task, year, run_format, measures is not None, answers, answers_gold
    )
    return SCORERS[prepared.task.kind.scorer](prepared, measures)


def evaluate(
    qrels: TYPE_QREL,
    run: TYPE_RUN,
    measures: Optional[Sequence[MeasureLike]] = None,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    per_query: bool = False,
) -> pd.DataFrame:
    """Score ``run`` against ``qrels`` (anything ir_measures takes, or files and a dataset id as
    :func:`ir_coliee.score` reads them: its task and official measures told from the files).

    ``measures`` default to the official ones of ``task`` and ``year``. Returns one row with a column
    per measure, or with ``per_query`` the rows of :func:`per_query_frame`.
    """
    if is_input(qrels) or is_input(run):
        report = score(cast(Any, qrels), run, task, year, measures)
        if per_query:
            return report.per_query.drop(columns="run")
        return report.table[report.measures].astype(float)
    chosen = chosen_measures(measures, task, year)
    gold = gold_table(qrels)
    result = calc(chosen, gold, shared_run(run, gold))  # refused as score refuses it
    if per_query:
        return per_query_frame(result.per_query)
    import pandas as pd

    return pd.DataFrame([{str(m): float(cast(dict, result.aggregated)[m]) for m in chosen}])
