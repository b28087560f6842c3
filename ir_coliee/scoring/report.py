"""What scoring returns: one row per run (with the file it came from), the per-query values, the findings."""

from __future__ import annotations

from typing import NamedTuple, Optional

import pandas as pd

from ir_coliee.findings import Finding
from ir_coliee.model import Task, official_entry
from ir_coliee.scoring.ingest import RunInfo


class Report(NamedTuple):
    """What :func:`ir_coliee.score` found."""

    table: pd.DataFrame
    """One row per run: ``run``, the measures, then the counts behind them (``tp``, ``retrieved``,
    ``relevant`` or ``correct``, ``questions``; ``queries``: the gold queries), and ``path``: the file
    the run came from (empty for a run given in memory). ``run`` is unique: the tag, then the file name
    where two files share a tag."""
    per_query: pd.DataFrame
    """``run, query_id, measure, value, tp, retrieved, relevant``; ``run`` as in :attr:`table`."""
    findings: list[Finding]
    """Warnings: queries not in the gold, gold queries absent from a run, duplicates, tags, guesses."""
    task: str
    year: Optional[int]
    measures: list[str]
    """The measure columns of :attr:`table`, in order."""
    runs: list[RunInfo]
    disqualified: dict[str, list[str]]
    """Pilot sub-tasks a run forfeits by leaving ``null`` values (their measures are NaN)."""


def make_report(
    rows: list[dict],
    per_query: list[pd.DataFrame],
    findings: list[Finding],
    task: Task,
    year: Optional[int],
    names: list[str],
    runs: list[RunInfo],
    disqualified: Optional[dict[str, list[str]]] = None,
) -> Report:
    table = pd.DataFrame(rows).assign(path=[info.path or "" for info in runs])
    return Report(
        table, pd.concat(per_query, ignore_index=True), findings, task.key, year, names, runs, disqualified or {}
    )


def with_run(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """Per-query rows of one run, named."""
    return frame.assign(run=name)[["run", *frame.columns]]


def ranked(report: Report, fractions: bool = True) -> pd.DataFrame:
    """The report's runs best first by the headline of the task (``RecallGatedAccuracy`` for 2026 Task 3;
    the first measure when the official one was not asked for): ``rank``, ``run``, the measures in the
    report's order (the order of a single run's table), the counts, then ``path``. Accuracy's counts are
    ``correct`` as ``66/101`` with ``fractions``, else ``correct`` and ``questions`` as numbers (JSON)."""
    entry = official_entry(report.task, report.year)
    headline = entry.ranking_column(report.measures) or report.measures[0]
    table = report.table.sort_values(headline, ascending=False, kind="stable").reset_index(drop=True)
    counts = [c for c in ("tp", "retrieved", "relevant") if c in table.columns]
    out = table[["run", *report.measures, *counts]].copy()
    if {"correct", "questions"} <= set(table.columns):
        if fractions:
            out["correct"] = [f"{c}/{q}" for c, q in zip(table["correct"], table["questions"])]
        else:
            out["correct"], out["questions"] = table["correct"], table["questions"]
    out.insert(0, "rank", table[headline].rank(ascending=False, method="min").astype(int))
    out["path"] = table["path"]
    return out
