"""The official measures of each task and edition, by name (as ir_measures names them), so the model
imports no measure code; ``import ir_coliee`` registers ir_coliee's measures before anyone asks."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple, Optional

import ir_measures
from ir_measures.measures.base import Measure

from ir_coliee.errors import ColieeArgumentError
from ir_coliee.model.editions import editions_of
from ir_coliee.model.tasks import Task, TaskLike, task_of


def _measures(names: str) -> tuple[Measure, ...]:
    """Measures named as ir_measures names them: the facts stay data, and the model imports no measure code
    (``import ir_coliee`` has registered ours with ir_measures before anyone asks)."""
    return tuple(map(ir_measures.parse_measure, names.split()))


class OfficialEntry(NamedTuple):
    """The official measures of a task from ``first`` to ``last`` (inclusive; ``None``: every later edition)."""

    task: str
    first: int
    last: Optional[int]
    official: str
    """The official measures, by name."""
    for_discussion: str
    """Reported "for discussion" of ranked runs (Task 3: from the ``task3-L`` list; the verbs add them by default
    for every run, which ranks by score or line order), by name."""
    note: str
    headline_name: str
    """The measure runs are ranked by, or the tie-break of :attr:`ranked_by`."""
    ranked_by: str = ""
    """A score that is not an ir_measures measure and ranks the runs (2026 Task 3: ``RecallGatedAccuracy``)."""

    @property
    def measures(self) -> tuple[Measure, ...]:
        return _measures(self.official)

    @property
    def ranked(self) -> tuple[Measure, ...]:
        return _measures(self.for_discussion)

    @property
    def headline(self) -> Measure:
        return ir_measures.parse_measure(self.headline_name)

    def ranking_column(self, columns: Sequence[str]) -> str:
        """The column among ``columns`` that ranks runs: :attr:`ranked_by` where present, else the headline,
        else the first column (measures chosen by hand)."""
        present = set(columns)
        return next(
            (c for c in (self.ranked_by, self.headline_name) if c and c in present), columns[0]
        )

    def covers(self, year: int) -> bool:
        return self.first <= year and (self.last is None or year <= self.last)

    def span(self) -> str:
        last = self.last if self.last is not None else editions_of(self.task)[-1]
        return f"{self.first}-{last}"


_TASK3_RANKED = "AP Rprec R@5 R@10 R@30"
_MICRO = "MicroP MicroR MicroF1"
_MACRO = "MacroP MacroR MacroF2"
_ACCURACY = "AnswerAccuracy"

OFFICIAL: tuple[OfficialEntry, ...] = (
    OfficialEntry("1", 2018, None, _MICRO, "", "micro-averaged over all queries", "MicroF1"),
    OfficialEntry("2", 2018, None, _MICRO, "", "micro-averaged over all queries", "MicroF1"),
    OfficialEntry(
        "3",
        2018,
        2020,
        _MACRO,
        _TASK3_RANKED,
        "macro averaging before 2021 is assumed: the evaluation pages of those years do not say",
        "MacroF2",
    ),
    OfficialEntry(
        "3", 2021, 2025, _MACRO, _TASK3_RANKED, "F2 is the mean of per-question F2", "MacroF2"
    ),
    OfficialEntry(
        "3",
        2026,
        None,
        "MacroF2 MacroP MacroR",
        _TASK3_RANKED,
        "ranked by recall-gated accuracy (score_recall_gated, or eval --answers); macro F2 breaks ties",
        "MacroF2",
        ranked_by="RecallGatedAccuracy",
    ),
    OfficialEntry("4", 2018, None, _ACCURACY, "", "correct answers over all questions", _ACCURACY),
    OfficialEntry("5", 2021, None, _ACCURACY, "", "Y/N without articles; 2021 only", _ACCURACY),
    OfficialEntry(
        "pilot",
        2025,
        None,
        "AnswerAccuracy MacroF1 MacroP MacroR",
        "",
        "AnswerAccuracy of court_decision; MacroF1/P/R of is_accepted=True per tort, all claims and per side; "
        "MicroF1 beside them is the claim-pooled F1 (binary_*_f1 of the organisers' evaluation client)",
        "AnswerAccuracy",
    ),
)


def official_entry(task: TaskLike, year: Optional[int] = None) -> OfficialEntry:
    """The table row for ``task`` (1-5 or ``"pilot"``) in ``year`` (the newest edition when ``None``)."""
    t: Task = task_of(task)
    years = editions_of(t.key)
    if year is None:
        year = years[-1]
    if year not in years:
        raise ColieeArgumentError(
            f"COLIEE task {t.key} has no {year} edition (editions: {_spans(years)})"
        )
    return next(e for e in OFFICIAL if e.task == t.key and e.covers(year))


def _spans(years: list[int]) -> str:
    """``2018-2026`` or ``2021``: runs of consecutive years (a year less its position is the same along a run)."""
    runs = [
        [y for _, y in run]
        for _, run in itertools.groupby(enumerate(years), lambda iy: iy[1] - iy[0])
    ]
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def official_measures(
    task: TaskLike, year: Optional[int] = None, ranked: bool = False
) -> list[Measure]:
    """The official measures of ``task`` in ``year``; with ``ranked``, also those reported for ranked runs."""
    entry = official_entry(task, year)
    return list(entry.measures + (entry.ranked if ranked else ()))
