"""The one door in: the gold read once (:func:`~ir_coliee.inputs.gold.load_gold`), the task decided once,
the runs (and a 2026 gate's answer files) read through :mod:`.ingest` against it. Every verb asks it
once (:func:`prepare`) and then works on what it returns (:class:`Prepared`); nothing below asks again."""

from __future__ import annotations

import os
from collections.abc import Sequence, Sized
from typing import TYPE_CHECKING, NamedTuple, Optional, cast

from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_RUN

from ir_coliee.errors import (
    ColieeError,
    ColieeFormatError,
    ColieeScoringError,
    Finding,
    PathLike,
    coliee_warnings,
)
from ir_coliee.formats.textfile import is_input, stream_name
from ir_coliee.inputs.gold import Gold, GoldLike, is_dataset_id, load_gold
from ir_coliee.inputs.ingest import (
    Answers,
    Ingested,
    Opened,
    RunInfo,
    RunLike,
    RunsLike,
    holds_labels,
    ingest,
    ingest_answers,
    named_runs,
    not_a_run,
    opened,
    unique_names,
    walked,
    warned,
)
from ir_coliee.inputs.walk import SKIPPED
from ir_coliee.measures.parse import MeasureLike, parse_measures
from ir_coliee.model import (
    DOCUMENTS,
    TASKS,
    TORTS,
    Task,
    TaskLike,
    official_measures,
)
from ir_coliee.table.runs import FormatOption
from ir_coliee.table.tables import Table, gold_table

if TYPE_CHECKING:
    from ir_coliee.formats.pilot import ColieeTort


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
    pilot_runs: dict[str, tuple[str, list[ColieeTort]]]
    """The pilot's submissions, ``{name: (path, torts)}``, each read once (a stream from its copy)."""
    gate: Optional[tuple[Table, list[Ingested]]] = None
    """2026 Task 3 with answer files: the answer gold, and each run's answers read against it."""

    def run_tables(self) -> dict[str, TYPE_RUN]:
        """``{name: run}``, names unique (the tag, then the file name where tags collide)."""
        return {r.info.name: cast(TYPE_RUN, r.run) for r in self.runs}

    def pilot_decisions(self) -> tuple[dict[str, TYPE_RUN], Table]:
        """The pilot's tort prediction as answers (``AnswerAccuracy``'s encoding): each submission's
        decisions against the gold's."""
        from ir_coliee.formats.pilot import decision_qrels, decision_run  # the pilot's alone

        runs = {name: decision_run(torts) for name, (_, torts) in self.pilot_runs.items()}
        return cast(dict[str, TYPE_RUN], runs), gold_table(decision_qrels(self.gold.pilot_torts()))


def gated_task(answers: object, task: Optional[TaskLike], gold: object) -> Optional[TaskLike]:
    """The task of a call with answer files: given, the dataset's, else the task that is gated by answers."""
    if answers is not None and task is None and not is_dataset_id(gold):
        return next(t.key for t in TASKS.values() if t.gate)
    return task


def prepare(
    gold: GoldLike,
    runs: RunsLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    run_format: FormatOption = "auto",
    measures_named: bool = False,
    answers: Answers = None,
    answers_gold: Optional[GoldLike] = None,
) -> Prepared:
    """Read the gold and the runs for one task, refusing what cannot be scored (a run in a format its task
    does not take, one that shares no query with the gold or follows another id convention, ``task``
    contradicting a dataset id); ``measures_named``: the caller scores with measures it names (no warning
    on a guessed task); ``answers``: 2026 Task 3, each run's Y/N answer file, read against
    ``answers_gold`` (default: the gold's own, else the Task 4 twin of a ``coliee/task3/...`` dataset)."""
    task = gated_task(answers, task, gold)
    # a reading rule applied to a slip in the gold: a finding of the report
    with coliee_warnings() as quirks:
        loaded = load_gold(gold)
    runs, found, left = walked(runs)
    named = named_runs(runs)
    guessed: list[Finding] = []
    with opened(named) as readable:  # streams copied once, iterators consumed once
        shapes = list(readable.values())
        resolved, year, qrels = loaded.scored_as(
            task, year, lambda: holds_labels(shapes), guessed, measures_named
        )
        truth = None if answers is None else loaded.answers(resolved, answers_gold)
        # each said where it holds: a note of where the gold came from, a reading rule applied to a slip
        notes = [
            (loaded.note, loaded.note, "gold-elsewhere"),
            *((q, q, "gold-quirk") for q in quirks),
        ]
        findings = warned(loaded.source, notes) + guessed
        if resolved.gold == TORTS:
            loaded.pilot_torts()  # other gold refused before any submission is read
            torts, skips = _torts_of(named, readable, found, resolved)
            _some_scored(torts, left + skips)
            return Prepared(loaded, qrels, resolved, year, [], findings + left + skips, torts)
        read, checked = ingest(named, readable, resolved, run_format, qrels, loaded.source, found)
    _some_scored(read, left + [f for f in checked if f.rule == SKIPPED])
    findings += checked + left
    if truth is None:
        return Prepared(loaded, qrels, resolved, year, read, findings, {})
    answered, said_of_answers = ingest_answers(truth, resolved, read, answers)
    gate = (truth, answered)
    return Prepared(loaded, qrels, resolved, year, read, findings + said_of_answers, {}, gate)


def _some_scored(runs: Sized, skipped: list[Finding]) -> None:
    """Refuse a call that found no run to score, saying what it skipped."""
    if not runs:
        shown = "; ".join(f"{f.path}: {f.message}" for f in skipped[:3])
        raise ColieeError(f"no run could be scored ({len(skipped)} skipped): {shown}")


def _torts_of(
    named: dict[str, RunLike], readable: dict[str, Opened], found: set[str], task: Task
) -> tuple[dict[str, tuple[str, list[ColieeTort]]], list[Finding]]:
    """The pilot's submissions, each read once, by a unique name (the file name, then more of its path, as
    runs are named): ``{name: (path, torts)}``. A file found beside them that holds no torts (a log, a
    README) is skipped with a finding, as every verb skips what is no run of its task."""
    from ir_coliee.formats.pilot import read_torts

    read, skips = [], []
    for name, run in named.items():
        if not is_input(run):  # a file or a stream, copied (opened)
            raise ColieeScoringError("pilot submissions are JSONL files of torts")
        path = stream_name(run)
        try:
            read.append((path, read_torts(cast(PathLike, readable[name]))))
        except ColieeFormatError as e:
            if path not in found:
                raise
            skips.append(not_a_run(path, task, e))
    infos = unique_names([RunInfo(os.path.basename(path), path, None, []) for path, _ in read])
    return {info.name: torts for info, torts in zip(infos, read)}, skips


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
        if getattr(m, "TAKES", DOCUMENTS) == task.gold:
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
