"""Problems of an input reported as data: the validator's and the scorer's findings."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Literal, NamedTuple, Optional

from ir_coliee.errors import coliee_warnings

Level = Literal["error", "warning"]
ERROR: Level = "error"
WARNING: Level = "warning"
#: How many findings of one rule are shown before the rest are counted.
SHOWN = 5


class Finding(NamedTuple):
    """One problem of a submission file (or of a run as scored)."""

    level: Level
    """``error`` (breaks an official rule, or makes a score meaningless) or ``warning``."""
    path: str
    line: Optional[int]
    """1-based line, or ``None`` for the file as a whole."""
    message: str
    rule: str = ""
    """What kind of problem (``duplicate``, ``unknown-query``, ...): findings of one rule are grouped."""
    stands_for: int = 1
    """How many lines the finding stands for: more than one for the finding that counts the lines of a
    rule beyond those kept one by one."""

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.level}: {self.message}"


def grouped(findings: Iterable[Finding], shown: int = SHOWN) -> Iterator[str]:
    """The findings as lines to print: at most ``shown`` per rule and path, then one line counting the rest."""
    by_rule: dict[tuple[str, str, str], list[Finding]] = {}
    for f in findings:
        by_rule.setdefault((f.path, f.rule or f.message, f.level), []).append(f)
    for (path, _, level), group in by_rule.items():
        single = [f for f in group if f.stands_for == 1]
        yield from map(str, single[:shown])
        total = total_count(group)
        if total > len(single[:shown]):
            yield f"{path}: {level}: ... and {total - len(single[:shown]):,} more like these ({total:,} in all)"


def total_count(findings: Iterable[Finding]) -> int:
    """How many lines (or problems) the findings stand for."""
    return sum(f.stands_for for f in findings)


def some(ids: Sequence[str], shown: int = SHOWN) -> str:
    """``a, b, c, ...``: the first ``shown`` ids of a list."""
    return ", ".join(ids[:shown]) + (", ..." if len(ids) > shown else "")


@contextlib.contextmanager
def warnings_as_findings(findings: list[Finding], path: str, rule: str) -> Iterator[None]:
    """The :class:`ColieeWarning` s given inside (a reading rule applied to an organiser's slip) added to
    ``findings``, once each, instead of shown; other warnings go on as they would."""
    with coliee_warnings() as said:
        yield
    findings.extend(Finding(WARNING, path, None, message, rule) for message in said)
