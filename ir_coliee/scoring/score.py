"""Scoring submissions against gold as the organisers do: the task decided once, the runs read through
the door (:mod:`ir_coliee.inputs.ingest`), and one scorer per kind of gold (``model.KINDS``).

What it refuses (:class:`~ir_coliee.errors.ColieeScoringError`): a run in a format its task does not
take (Y/N answers against article gold, articles against answer gold), a run that shares no query with
the gold or whose ids follow another convention, a measure that does not apply to the gold
(``Accuracy`` on answers), ``task`` contradicting a dataset id.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union, cast

from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.errors import (
    WARNING,
    ColieeError,
    ColieeFormatError,
    ColieeScoringError,
    Finding,
    PathLike,
    coliee_warnings,
)
from ir_coliee.formats.textfile import is_input
from ir_coliee.inputs.gold import Gold, GoldLike, is_dataset_id, load_gold
from ir_coliee.inputs.ingest import (
    Ingested,
    Opened,
    RunInfo,
    RunLike,
    RunsLike,
    holds_labels,
    ingest,
    named_runs,
    opened,
    shared_run,
    walked,
)
from ir_coliee.inputs.walk import SKIPPED
from ir_coliee.measures.parse import MeasureLike, chosen_measures, parse_measures, per_query_frame
from ir_coliee.measures.pipeline import calc
from ir_coliee.model import (
    DOCUMENTS,
    QUESTION_ID,
    TASKS,
    TORTS,
    Task,
    TaskLike,
    guess_task,
    kind_of_labels,
    official_entry,
    official_measures,
    sibling_dataset,
    task_of,
)
from ir_coliee.scoring.report import PerQuery, Report
from ir_coliee.table.runs import FormatOption
from ir_coliee.table.shapes import gold_table
from ir_coliee.table.tables import CodedRun, Table, coded_gold

if TYPE_CHECKING:
    import pandas as pd


class Prepared(NamedTuple):
    """Gold and runs read and checked for one task: what scoring, comparing and tuning start from."""

    gold: Gold
    qrels: Table
    """The gold qrels of the task's kind, ``{query_id: {doc_id: relevance}}`` (empty for the pilot)."""
    task: Task
    year: Optional[int]
    runs: list[Ingested]
    """The runs through the door: names unique, ids in the gold's convention."""
    findings: list[Finding]
    pilot_runs: dict[str, RunLike]

    def run_tables(self) -> dict[str, TYPE_RUN]:
        """``{name: run}``, names unique (the tag, then the file name where tags collide)."""
        return {r.info.name: cast(TYPE_RUN, r.run) for r in self.runs}


def _resolve_task(
    task: Optional[TaskLike],
    gold: Gold,
    runs: list[Opened],
    findings: list[Finding],
    measures_named: bool = False,
) -> Task:
    """The task: as given, else the dataset's, else guessed from the gold and the first run, with a warning
    unless the measures are named (then the guess only decides how runs are read, and no report claims
    that the gold is a COLIEE task's: another benchmark's TREC qrels, say)."""
    if gold.dataset is not None:
        own = task_of(gold.dataset.task)
        if task is not None and task_of(task).key != own.key:
            raise ColieeError(
                f"--task {task} contradicts the dataset {gold.source}, which is {own.label}"
            )
        return own
    if task is not None:
        return task_of(task)
    if gold.torts is not None:
        return guess_task(TORTS, statute=False)
    kind = kind_of_labels(_holds_labels(runs))
    table = gold.tables.get(kind, next(iter(gold.tables.values())))
    statute = bool(table) and all(QUESTION_ID.match(q) for q in table)
    guess = guess_task(kind, statute)
    if not measures_named:
        message = f"scoring as COLIEE {guess.label} (guessed from the files); pass task= (--task on the command line) to choose"
        findings.append(Finding(WARNING, gold.source, None, message, "guess"))
    return guess


def _holds_labels(runs: list[Opened]) -> bool:
    """Whether the first run that reads as a run holds Y/N answers (a log found first in a folder is not
    asked); the last one's error where none reads."""
    for run in runs[:-1]:
        with contextlib.suppress(ColieeFormatError):
            return holds_labels(run)
    return holds_labels(runs[-1])


def prepare(
    gold: GoldLike,
    runs: RunsLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    run_format: FormatOption = "auto",
    measures_named: bool = False,
) -> Prepared:
    """Read the gold and the runs for one task, refusing what cannot be scored (see the module text);
    ``measures_named``: the caller scores with measures it names (no warning on a guessed task)."""
    with (
        coliee_warnings() as quirks
    ):  # a reading rule applied to a slip in the gold: a finding of the report
        loaded = load_gold(gold)
    runs, found, left = walked(runs)
    named = named_runs(runs)
    findings = (
        [Finding(WARNING, loaded.source, None, loaded.note, "gold-elsewhere")]
        if loaded.note
        else []
    )
    findings += [Finding(WARNING, loaded.source, None, message, "gold-quirk") for message in quirks]
    with opened(named) as readable:  # streams copied once, iterators consumed once
        resolved = _resolve_task(task, loaded, list(readable.values()), findings, measures_named)
        if loaded.dataset is not None and year is None:
            year = loaded.dataset.year
        official_entry(resolved.key, year)  # the edition exists
        if resolved.gold == TORTS:
            return Prepared(loaded, {}, resolved, year, [], findings + left, named)
        qrels = loaded.table(resolved)
        read, checked = ingest(named, readable, resolved, run_format, qrels, loaded.source, found)
    if not read:
        said = left + [f for f in checked if f.rule == SKIPPED]
        shown = "; ".join(f"{f.path}: {f.message}" for f in said[:3])
        raise ColieeError(f"no run could be scored ({len(said)} skipped): {shown}")
    return Prepared(loaded, qrels, resolved, year, read, findings + checked + left, named)


def check_measures(
    measures: Optional[Sequence[MeasureLike]], task: Task, year: Optional[int], ranked: bool = True
) -> list[Measure]:
    """The measures asked for (default: the official ones, with the task's ranked ones "for discussion": every
    run ranks, by score or else by line order, so every shape gets one set), each one that applies to the
    task's gold."""
    chosen = (
        official_measures(task.key, year, ranked=ranked)
        if measures is None
        else parse_measures(measures)
    )
    for m in chosen:
        takes = getattr(m, "TAKES", DOCUMENTS)
        if takes == task.gold:
            continue
        if task.kind.labels and str(m) == "Accuracy":
            raise ColieeScoringError(
                "Accuracy is ir_measures' pairwise ranking accuracy; the accuracy of Y/N answers is AnswerAccuracy"
            )
        if task.kind.labels:
            raise ColieeScoringError(
                f"{m} scores retrieved documents; Y/N answers are scored with AnswerAccuracy"
            )
        raise ColieeScoringError(f"{m} scores Y/N answers; {task.label} gold names documents")
    return chosen


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


class Request(NamedTuple):
    """What a scorer is asked, beyond the prepared gold and runs."""

    measures: Optional[Sequence[MeasureLike]]
    answers: Union[PathLike, Sequence[PathLike], None]
    answers_gold: Optional[GoldLike]


def _score_measures(prepared: Prepared, request: Request) -> Report:
    if request.answers is not None:
        return _score_gated(prepared, request)
    task, qrels = prepared.task, prepared.qrels
    chosen = check_measures(request.measures, task, prepared.year)
    rows: list[dict] = []
    per_query: list[tuple[str, PerQuery]] = []
    for r in prepared.runs:
        result = calc(chosen, qrels, r.run)
        aggregated = cast(dict, result.aggregated)
        rows.append(
            {
                "run": r.info.name,
                **{str(m): float(aggregated[m]) for m in chosen},
                **_counts(task, qrels, r.run),
            }
        )
        per_query.append((r.info.name, cast(PerQuery, result.per_query)))
    infos = [r.info for r in prepared.runs]
    return Report(
        rows, per_query, prepared.findings, task, prepared.year, [str(m) for m in chosen], infos
    )


def answer_gold(prepared: Prepared, answers_gold: Optional[GoldLike]) -> Table:
    """The Y/N gold that gates a task's runs (2026 Task 3)."""
    loaded = prepared.gold
    gate = task_of(prepared.task.gate)
    if answers_gold is not None:
        return load_gold(answers_gold).table(gate)
    if gate.gold in loaded.tables:  # a labelled riteval file holds both
        return loaded.tables[gate.gold]
    if loaded.dataset is not None:  # the gate's dataset of the same edition, split and language
        return load_gold(sibling_dataset(loaded.source, gate.key)).table(gate)
    raise ColieeError(
        "--answers needs the gold answers: give --answers-gold FILE, or a coliee/task3/... dataset as GOLD"
    )


def gated_answers(
    prepared: Prepared,
    answers: Union[PathLike, Sequence[PathLike]],
    answers_gold: Optional[GoldLike],
) -> tuple[Table, list[Ingested]]:
    """The answer gold, and each run's answer file read through the door against it (refused when it
    shares no question with the gold; its absent, duplicate and untagged lines reported)."""
    task = prepared.task
    if not task.gate:
        raise ColieeScoringError(
            f"--answers gates the runs of a task scored with answers (2026 Task 3), not {task.label}"
        )
    files = [answers] if isinstance(answers, (str, os.PathLike)) else list(answers)
    if len(files) != len(prepared.runs):
        raise ColieeError(
            f"{len(prepared.runs)} runs but {len(files)} answer files: give one answer file per run"
        )
    truth = answer_gold(prepared, answers_gold)
    named: dict[str, RunLike] = {f"answer file {i}": f for i, f in enumerate(files)}
    with opened(named) as readable:
        read, findings = ingest(
            named, readable, task_of(task.gate), "auto", truth, "the gold answers"
        )
    prepared.findings.extend(findings)
    return truth, read


def _score_gated(prepared: Prepared, request: Request) -> Report:
    """2026 Task 3: each retrieval run scored with its Y/N answers."""
    from ir_coliee.scoring.gated import NAME as GATED
    from ir_coliee.scoring.gated import TIE_BREAKERS, recall_gated

    truth, answered = gated_answers(
        prepared, cast(Sequence[PathLike], request.answers), request.answers_gold
    )
    rows: list[dict] = []
    per_query: list[tuple[str, PerQuery]] = []
    for r, a in zip(prepared.runs, answered):
        row, values = recall_gated(prepared.qrels, r.run, truth, a.run)
        rows.append({"run": r.info.name, **row})
        per_query.append((r.info.name, [(q, GATED, v) for q, v in values.items()]))
    names = [GATED, *map(str, TIE_BREAKERS)]
    infos = [r.info for r in prepared.runs]
    return Report(rows, per_query, prepared.findings, prepared.task, prepared.year, names, infos)


def pilot_files(prepared: Prepared) -> list[str]:
    """The pilot's submissions: JSONL files of torts."""
    paths = []
    for run in prepared.pilot_runs.values():
        if not isinstance(run, (str, os.PathLike)):
            raise ColieeScoringError("pilot submissions are JSONL files of torts")
        paths.append(os.fspath(run))
    return paths


def _score_torts(prepared: Prepared, request: Request) -> Report:
    from ir_coliee.formats.pilot import read_torts
    from ir_coliee.scoring.pilot import score_pilot

    loaded, findings = prepared.gold, prepared.findings
    if loaded.torts is None:
        raise ColieeScoringError(
            f"the pilot is scored against gold torts (a JSONL file or a coliee/pilot/... dataset), not {loaded.source}"
        )
    rows, per_query, infos, disqualified = [], [], [], {}
    for path in pilot_files(prepared):
        name = os.path.basename(path)
        scores = score_pilot(loaded.torts, read_torts(path))
        for null in scores.nulls:
            findings.append(
                Finding(
                    WARNING,
                    path,
                    None,
                    f"{null.subtask} disqualified: null at {null.where()}",
                    "null",
                )
            )
        if scores.unknown_claims:
            message = (
                f"{len(scores.unknown_claims)} predicted claims are not in the gold and are ignored"
            )
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
SCORERS: dict[str, Callable[[Prepared, Request], Report]] = {
    "measures": _score_measures,
    "pilot": _score_torts,
}


def gated_task(answers: object, task: Optional[TaskLike], gold: object) -> Optional[TaskLike]:
    """The task of a call with answer files: given, the dataset's, else the task that is gated by answers."""
    if answers is not None and task is None and not is_dataset_id(gold):
        return next(t.key for t in TASKS.values() if t.gate)
    return task


def score(
    gold: GoldLike,
    runs: RunsLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measures: Optional[Sequence[MeasureLike]] = None,
    answers: Union[PathLike, Sequence[PathLike], None] = None,
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
        gold, runs, gated_task(answers, task, gold), year, run_format, measures is not None
    )
    return SCORERS[prepared.task.kind.scorer](prepared, Request(measures, answers, answers_gold))


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
        return (
            report.per_query.drop(columns="run")
            if per_query
            else report.table[report.measures].astype(float)
        )
    chosen = chosen_measures(measures, task, year)
    gold = gold_table(qrels)
    result = calc(chosen, gold, shared_run(run, gold))  # refused as score refuses it
    if per_query:
        return per_query_frame(result.per_query)
    import pandas as pd

    return pd.DataFrame([{str(m): float(cast(dict, result.aggregated)[m]) for m in chosen}])
