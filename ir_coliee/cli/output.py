"""How the commands speak on standard error: warnings and findings (the results write themselves)."""

from __future__ import annotations

from collections.abc import Sequence

from ir_coliee.cli import say
from ir_coliee.errors import Finding


def report_findings(findings: Sequence[Finding]) -> None:
    """Each finding on one line that names its file (two runs' identical warnings stay apart)."""
    for f in findings:
        say(
            "warning",
            f"{f.path}: {f.message}" if f.path and not f.message.startswith(f.path) else f.message,
        )
