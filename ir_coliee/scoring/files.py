"""Many run files at once: folders, editions told from file names, one report per task and edition."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional, Union

from ir_coliee.errors import ColieeError, ColieeFormatError, ColieeScoringError, PathLike
from ir_coliee.evaluation import MeasureLike
from ir_coliee.findings import WARNING, Finding
from ir_coliee.model import TaskLike, edition_dataset, edition_of_file, task_of
from ir_coliee.runs import FormatOption, ParsedRun, parse_run
from ir_coliee.scoring.gold import GoldLike
from ir_coliee.scoring.report import Report
from ir_coliee.scoring.score import score

#: ``gold="auto"``: each file is scored against the test set of the edition its name says.
AUTO = "auto"
#: The rule of the findings about files left out of ``eval auto``.
SKIPPED = "skipped"


def expand_runs(paths: Sequence[PathLike]) -> list[str]:
    """Run files: the paths given, a folder standing for the files below it, sub-folders too (teams keep
    their runs in one folder each), in name order, hidden ones left out."""
    found: list[str] = []
    for path in (os.fspath(p) for p in paths):
        if not os.path.isdir(path):
            found.append(path)
            continue
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            found.extend(os.path.join(folder, n) for n in sorted(names) if not n.startswith("."))
    if not found:
        raise ColieeError(f"no run file in {', '.join(os.fspath(p) for p in paths)}")
    return found


def _skipped(path: str, why: str) -> Finding:
    return Finding(WARNING, path, None, f"skipped: {why}", SKIPPED)


def _parsed(path: str, task: str, run_format: FormatOption) -> Union[ParsedRun, Finding]:
    """The file as a run of ``task``, or why it is skipped (a log beside the runs, a file of another task)."""
    try:
        parsed = parse_run(path, run_format, allowed=task_of(task).readable())
    except ColieeFormatError as e:
        where = f" (line {e.line})" if e.line else ""
        return _skipped(path, f"not a {task_of(task).label} run{where}: {e.problem}")
    return parsed


def _score_group(
    dataset: str, runs: list[ParsedRun], measures: Optional[Sequence[MeasureLike]]
) -> tuple[Optional[Report], list[Finding]]:
    """The runs of one edition in one report; a run that cannot be scored is skipped, not the rest."""
    try:
        return score(dataset, runs, measures=measures), []
    except ColieeScoringError:
        pass
    kept, skipped = [], []
    for run in runs:
        try:
            score(dataset, [run], measures=measures)
            kept.append(run)
        except ColieeScoringError as e:
            skipped.append(_skipped(run.path, str(e).removeprefix(f"{run.path}: ")))
    return (score(dataset, kept, measures=measures) if kept else None), skipped


def score_files(
    gold: GoldLike,
    paths: Sequence[PathLike],
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measures: Optional[Sequence[MeasureLike]] = None,
    run_format: FormatOption = "auto",
) -> list[Report]:
    """:func:`score` for run files and folders of them (sub-folders too). With ``gold="auto"``, each file is
    scored against the test set of the edition its name says (``R04.task4.X``: 2023's Task 4; a name
    without its year takes ``year``, ``H30.bert-large`` takes ``task``), one report per task and edition;
    a file that is no run, or whose edition its name does not say, is skipped with a finding (rule
    ``skipped``, in the first report) and never stops the others. Else one report."""
    files = expand_runs(paths)
    if gold != AUTO:
        return [score(gold, files, task, year, measures, run_format=run_format)]
    groups: dict[str, list[ParsedRun]] = {}
    skipped: list[Finding] = []
    for path in files:
        said = edition_of_file(os.path.basename(path), year, task)
        if said is None:
            skipped.append(_skipped(path, f"the name says no edition and task ({_NAMES})"))
            continue
        parsed = _parsed(path, said[0], run_format)
        if isinstance(parsed, Finding):
            skipped.append(parsed)
        else:
            groups.setdefault(edition_dataset(*said), []).append(parsed)
    reports = []
    for dataset, runs in sorted(groups.items()):
        report, more = _score_group(dataset, runs, measures)
        skipped.extend(more)
        if report is not None:
            reports.append(report)
    if not reports:
        shown = "; ".join(f"{f.path}: {f.message}" for f in skipped[:3])
        raise ColieeError(f"no file could be scored ({len(skipped)} skipped): {shown}")
    reports[0].findings.extend(skipped)
    return reports


#: How official names say the edition, for the message of a file whose name does not.
_NAMES = "official names: R04.task4.RUN, task3.RUN with --year, EXAM.name with --task"
