"""A team's folder as kept (the spec's "team folders as kept"): runs with a ``.txt`` suffix and their
``.formatted`` twins, a log and a README beside them, an internal file answering True/False without a tag,
an empty answer file, runs in sub-folders, and links (to a run, to a team folder already walked)."""

from __future__ import annotations

import os
from pathlib import Path

#: Task 4 of the 2024 test exam (R05 gold: R05-01-A Y, R05-01-I N): A answers both right, B one of two.
RUN_A = "R05-01-A Y A\nR05-01-I N A\n"
RUN_B = "R05-01-A N B\nR05-01-I N B\n"
#: What a walk of :func:`write_team_folder` skips, below the folder, each with the start of its reason.
SKIPPED = {
    "README.md": "skipped: not a Task 4 run",
    "teamA/train.log": "skipped: not a Task 4 run",
    "teamB/R05.internal": "skipped: not a Task 4 run",
    "teamB/R05.task4.C": "skipped: an empty file",
    "teamB/old/R05.task4.B": "skipped: the same file as",  # found after its link
    "teamC": "skipped: a folder already walked",
}


def write_team_folder(folder: Path) -> Path:
    """Three runs (A, its twin, B) among six entries that are none (:data:`SKIPPED`)."""
    (folder / "teamA").mkdir(parents=True)
    (folder / "teamB" / "old").mkdir(parents=True)
    (folder / "README.md").write_text("# Our runs\n\nA is the tuned one; see the paper.\n")
    (folder / "teamA" / "R05.task4.A.txt").write_text(RUN_A)
    (folder / "teamA" / "R05.task4.A.formatted").write_text(RUN_A)  # the twin: the same lines
    (folder / "teamA" / "train.log").write_text("epoch\tloss\tacc\n1\t0.7\t0.5\n2\t0.4\t0.8\n")
    (folder / "teamB" / "old" / "R05.task4.B").write_text(RUN_B)
    (folder / "teamB" / "R05.internal").write_text("R05-01-A True\nR05-01-I False\n")
    (folder / "teamB" / "R05.task4.C").write_text("")  # an empty answer file
    os.symlink(folder / "teamB" / "old" / "R05.task4.B", folder / "teamB" / "R05.task4.B")
    os.symlink(folder / "teamA", folder / "teamC")
    return folder
