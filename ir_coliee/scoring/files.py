"""Many run files at once: folders, editions told from file names, one report per task and edition."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional

from ir_coliee.errors import ColieeError, PathLike
from ir_coliee.evaluation import MeasureLike
from ir_coliee.model import TaskLike, edition_dataset, edition_of_file, task_of
from ir_coliee.runs import FormatOption
from ir_coliee.scoring.gold import GoldLike
from ir_coliee.scoring.report import Report
from ir_coliee.scoring.score import score

#: ``gold="auto"``: each file is scored against the test set of the edition its name says.
AUTO = "auto"


def expand_runs(paths: Sequence[PathLike]) -> list[str]:
    """Run files: the paths given, a folder standing for the files in it (sorted, hidden ones left out)."""
    found: list[str] = []
    for path in (os.fspath(p) for p in paths):
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if not n.startswith("."))
            found.extend(os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n)))
        else:
            found.append(path)
    if not found:
        raise ColieeError(f"no run file in {', '.join(os.fspath(p) for p in paths)}")
    return found


def score_files(
    gold: GoldLike,
    paths: Sequence[PathLike],
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measures: Optional[Sequence[MeasureLike]] = None,
    run_format: FormatOption = "auto",
) -> list[Report]:
    """:func:`score` for run files and folders of them. With ``gold="auto"``, each file is scored against
    the test set of the edition its official name says (``R04.task4.X``: 2023's Task 4; a name without
    its year takes ``year``), one report per task and edition; else one report."""
    files = expand_runs(paths)
    if gold != AUTO:
        return [score(gold, files, task, year, measures, run_format=run_format)]
    groups: dict[str, list[str]] = {}
    unknown = []
    for path in files:
        said = edition_of_file(os.path.basename(path), year)
        if said is None or (task is not None and said[0] != task_of(task).key):
            unknown.append(path)
        else:
            groups.setdefault(edition_dataset(*said), []).append(path)
    if unknown:
        raise ColieeError(
            f"cannot tell the task and edition of {', '.join(unknown)} from the name (official names: "
            "R04.task4.RUN, task3.RUN with --year, task1_..._2024...); give --year, or the gold instead of auto"
        )
    return [
        score(dataset, group, measures=measures, run_format=run_format) for dataset, group in sorted(groups.items())
    ]
