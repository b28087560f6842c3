"""Tuning a cutoff on training gold, and cutting a test run with it."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional

from ir_coliee.errors import ColieeError, ColieeScoringError, Finding
from ir_coliee.model import FORMATS, FormatName, TaskLike, official_entry
from ir_coliee.scoring.evaluate import MeasureLike
from ir_coliee.scoring.gold import GoldLike
from ir_coliee.scoring.ingest import RunLike, file_findings, named_runs, opened, read_runs
from ir_coliee.scoring.score import check_measures, prepare
from ir_coliee.scoring.tune import Over, Tuned, cut_run, tune_cutoff
from ir_coliee.table.tables import Table, table_frame

if TYPE_CHECKING:
    import pandas as pd


class Tuning(NamedTuple):
    """What :func:`tune` found: the cutoff and curve, and the cut run ready to write."""

    tuned: Tuned
    kept: Table
    """The run given as ``apply`` (else the tuned run) cut at the best cutoff: ``{query: {doc: score}}``."""
    write_format: FormatName
    """The official submission format of the task (Task 3: TREC 6 columns)."""
    findings: list[Finding]

    @property
    def cut(self) -> pd.DataFrame:
        """:attr:`kept` as a ``query_id, doc_id, score`` DataFrame."""
        return table_frame(self.kept)


def tune(
    gold: GoldLike,
    run: RunLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measure: Optional[MeasureLike] = None,
    over: Over = "rank",
    max_rank: int = 100,
    apply: Optional[RunLike] = None,
) -> Tuning:
    """The cutoff of ``run`` that maximises ``measure`` (default: the task's headline measure, e.g.
    MacroF2 for Task 3) on training ``gold``, and ``apply`` (e.g. the test run) cut with it."""
    if max_rank < 1:
        raise ColieeError(f"--max-rank must be at least 1, got {max_rank}")
    prepared = prepare(gold, run, task, year)
    (tuned_run,) = prepared.runs
    if over != "rank" and tuned_run.info.format is not None and not FORMATS[tuned_run.info.format].scored:
        raise ColieeScoringError(
            f"{tuned_run.info.path} has no scores ({tuned_run.info.format} format: line order is the ranking); "
            "tune --over rank, or give a run with scores"
        )
    chosen = measure if measure is not None else official_entry(prepared.task.key, prepared.year).headline
    (checked,) = check_measures([chosen], prepared.task, prepared.year, ranked=True)
    tuned = tune_cutoff(prepared.qrels, tuned_run.run, checked, over=over, max_rank=max_rank)
    target = tuned_run.run
    findings = prepared.findings
    if apply is not None:
        named = named_runs(apply)
        with opened(named) as readable:
            (applied,) = read_runs(named, readable, prepared.task, "auto", prepared.gold.source)
        target = applied.run
        if applied.parsed is not None:
            findings = findings + file_findings(applied.parsed, applied.info.path or applied.info.name)
    return Tuning(tuned, cut_run(target, over, tuned.cutoff), prepared.task.formats[0], findings)
