"""Many run files at once: folders, editions told from file names, one report per task and edition."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional

from ir_coliee.errors import (
    ColieeDataError,
    ColieeError,
    ColieeScoringError,
    Finding,
    PathLike,
)
from ir_coliee.inputs.gold import GoldLike
from ir_coliee.inputs.ingest import parsed_or_skipped
from ir_coliee.inputs.walk import files_of, skipped
from ir_coliee.measures.parse import MeasureLike, parse_measures
from ir_coliee.model import TaskLike, edition_dataset, edition_of_file
from ir_coliee.scoring.report import Report
from ir_coliee.scoring.score import score
from ir_coliee.table.runs import FormatOption, ParsedRun

#: ``gold="auto"``: each file is scored against the test set of the edition its name says.
AUTO = "auto"


def _score_group(
    dataset: str, runs: list[ParsedRun], measures: Optional[Sequence[MeasureLike]]
) -> tuple[Optional[Report], list[Finding]]:
    """The runs of one edition in one report; a run that cannot be scored is skipped, not the rest (an
    edition whose gold is missing: each of its runs)."""
    try:
        return score(dataset, runs, measures=measures), []
    except ColieeDataError as e:
        return None, [skipped(run.path, f"no gold for {dataset}: {e.short()}") for run in runs]
    except ColieeScoringError:
        pass
    kept: list[ParsedRun] = []
    left: list[Finding] = []
    for run in runs:
        try:
            score(dataset, [run], measures=measures)
            kept.append(run)
        except ColieeScoringError as e:
            left.append(skipped(run.path, str(e).removeprefix(f"{run.path}: ")))
    return (score(dataset, kept, measures=measures) if kept else None), left


def score_files(
    gold: GoldLike,
    paths: Sequence[PathLike],
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measures: Optional[Sequence[MeasureLike]] = None,
    run_format: FormatOption = "auto",
    answers: Optional[PathLike] = None,
    answers_gold: Optional[GoldLike] = None,
) -> list[Report]:
    """:func:`score` for run files and folders of them (walked by :mod:`ir_coliee.inputs.walk`: what it
    leaves out is a finding of rule ``skipped``). With ``gold="auto"``, each file is
    scored against the test set of the edition its name says (``R04.task4.X``: 2023's Task 4; a name
    without its year takes ``year``, ``H30.bert-large`` takes ``task``), one report per task and edition;
    a file that is no run, or whose edition its name does not say, is skipped with a finding (rule
    ``skipped``, in the first report) and never stops the others. Else one report. ``answers``: the answer
    file of the one run given (see :func:`score`)."""
    parse_measures(measures or ())  # every name known before any file is read
    if gold != AUTO:  # the folders walked by the door (prepare)
        return [score(gold, list(paths), task, year, measures, answers, answers_gold, run_format)]
    if answers is not None:
        raise ColieeError("--answers goes with one run; score each run with its answer file")
    walked = files_of(paths)
    groups: dict[str, list[ParsedRun]] = {}
    left = list(walked.skipped)
    for path in (f.path for f in walked.files):
        said = edition_of_file(os.path.basename(path), year, task)
        if said is None:
            left.append(skipped(path, f"the name says no edition and task ({_NAMES})"))
            continue
        parsed = parsed_or_skipped(path, said[0], run_format)
        if isinstance(parsed, Finding):
            left.append(parsed)
        else:
            groups.setdefault(edition_dataset(*said), []).append(parsed)
    reports = []
    for dataset, runs in sorted(groups.items()):
        report, more = _score_group(dataset, runs, measures)
        left.extend(more)
        if report is not None:
            reports.append(report)
    if not reports:
        shown = [f"{f.path}: {f.message}" for f in left[:3]] + ["..."] * (len(left) > 3)
        raise ColieeError(f"no file could be scored ({len(left)} skipped): {'; '.join(shown)}")
    reports[0].findings.extend(left)
    return reports


#: How official names say the edition, for the message of a file whose name does not.
_NAMES = "official names: R04.task4.RUN, task3.RUN with --year, EXAM.name with --task"
