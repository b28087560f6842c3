"""Comparing runs read as :func:`ir_coliee.score` reads them, with tests valid for their measures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.errors import ColieeError, Finding, PathLike
from ir_coliee.formats.pilot import decision_qrels, decision_run, read_torts
from ir_coliee.measures import AnswerAccuracy
from ir_coliee.model import TORTS, TaskLike, official_entry
from ir_coliee.scoring.compare import ComparisonTable, Correction, compare_rows
from ir_coliee.scoring.evaluate import MeasureLike, parse_measures
from ir_coliee.scoring.gated import NAME as GATED
from ir_coliee.scoring.gated import score_recall_gated
from ir_coliee.scoring.gold import GoldLike
from ir_coliee.scoring.ingest import RunsLike
from ir_coliee.scoring.score import Prepared, check_measures, gated_answers, gated_task, pilot_files, prepare

if TYPE_CHECKING:
    import pandas as pd


class Comparison:
    """What :func:`compare_runs` found: the table of :func:`ir_coliee.compare` (``table``, a DataFrame
    built on first use; ``rows``, the same as plain rows) and the findings."""

    def __init__(self, rows: ComparisonTable, findings: list[Finding], task: str, year: Optional[int], headline: str):
        self.rows, self.findings, self.task, self.year, self.headline = rows, findings, task, year, headline
        self._table: Optional[pd.DataFrame] = None

    @property
    def table(self) -> pd.DataFrame:
        """One row per run (index ``run``), as :func:`ir_coliee.compare` returns it."""
        if self._table is None:
            self._table = self.rows.frame()
        return self._table


def compare_runs(
    gold: GoldLike,
    runs: RunsLike,
    measures: Optional[Sequence[MeasureLike]] = None,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    baseline: int = 0,
    resamples: int = 10_000,
    correction: Correction = "holm",
    seed: int = 42,
    answers: Optional[Sequence[PathLike]] = None,
    answers_gold: Optional[GoldLike] = None,
) -> Comparison:
    """:func:`ir_coliee.compare` on runs read as :func:`score` reads them (official measures by default).

    Accuracy tasks compare paired right/wrong outcomes (exact McNemar, Wilson intervals): Tasks 4 and 5,
    the pilot's tort prediction (JSONL submissions), and the 2026 gated Task 3 (``answers``: each run's
    answer file, in the order of the runs)."""
    prepared = prepare(gold, runs, gated_task(answers, task, gold), year, measures_named=measures is not None)

    def compared(frames: dict[str, TYPE_RUN], qrels: TYPE_QREL, chosen: Sequence[MeasureLike]) -> ComparisonTable:
        if not 0 <= baseline < len(frames):
            raise ColieeError(f"baseline {baseline} is not the index of a run (0 to {len(frames) - 1})")
        base = list(frames)[baseline]
        return compare_rows(
            qrels, frames, parse_measures(chosen), base, resamples=resamples, correction=correction, seed=seed
        )

    def result(table: ComparisonTable, headline: str) -> Comparison:
        return Comparison(table, prepared.findings, prepared.task.key, prepared.year, headline)

    if prepared.task.gold == TORTS:
        frames, qrels = _pilot_decisions(prepared)
        return result(compared(frames, qrels, [AnswerAccuracy]), str(AnswerAccuracy))
    if answers is not None:
        frames, qrels = _gated_outcomes(prepared, answers, answers_gold)
        return result(compared(frames, qrels, [AnswerAccuracy]).renamed(str(AnswerAccuracy), GATED), GATED)
    chosen = check_measures(measures, prepared.task, prepared.year, ranked=False)
    table = compared(prepared.run_tables(), prepared.qrels, chosen)
    names = [str(m) for m in chosen]
    return result(table, official_entry(prepared.task.key, prepared.year).ranking_column(names))


def _pilot_decisions(prepared: Prepared) -> tuple[dict[str, TYPE_RUN], TYPE_QREL]:
    """The pilot's tort prediction as answers: each submission's decisions against the gold decisions."""
    import os

    if prepared.gold.torts is None:
        raise ColieeError(f"the pilot is compared against gold torts, not {prepared.gold.source}")
    frames: dict[str, TYPE_RUN] = {os.path.basename(p): decision_run(read_torts(p)) for p in pilot_files(prepared)}
    return frames, decision_qrels(prepared.gold.torts)


def _gated_outcomes(
    prepared: Prepared, answers: Sequence[PathLike], answers_gold: Optional[GoldLike]
) -> tuple[dict[str, TYPE_RUN], TYPE_QREL]:
    """2026 Task 3 as right/wrong outcomes per question (right: the answer is right and every gold article
    retrieved), in the shape of answers, so that the accuracy tests apply."""
    truth, answered = gated_answers(prepared, answers, answers_gold)
    frames: dict[str, TYPE_RUN] = {}
    for r, a in zip(prepared.runs, answered):
        values = score_recall_gated(prepared.qrels, r.run, truth, a.run, per_query=True)
        frames[r.info.name] = {q: {"Y" if v else "N": 1.0} for q, v in zip(values["query_id"], values["value"])}
    return frames, {q: {"Y": 1} for q in truth}
