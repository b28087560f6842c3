"""How the commands speak on standard error: warnings and findings (the results write themselves)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from ir_coliee.cli import say
from ir_coliee.errors import Finding
from ir_coliee.inputs.walk import SKIPPED


def report_findings(findings: Sequence[Finding]) -> None:
    """Each finding on one line that names its file (two runs' identical warnings stay apart)."""
    for f in findings:
        named = f.path and not f.message.startswith(f.path)
        say("warning", f"{f.path}: {f.message}" if named else f.message)


def summary(done: str, findings: Iterable[Finding]) -> None:
    """One line on standard error after a folder: what was done, and how many entries were skipped (each
    named once among the findings above, with its reason)."""
    n = sum(f.rule == SKIPPED for f in findings)
    # a skipped entry may be a folder (unreadable, a loop): not counted as a file
    print(f"ir_coliee: {done}; skipped {n} entr{'ies' if n != 1 else 'y'}", file=sys.stderr)
