"""Which measures are official for each COLIEE task and edition: the one table the command line and
the docs read."""

from __future__ import annotations

from typing import NamedTuple, Optional

from ir_measures import AP, R, Rprec
from ir_measures.measures.base import Measure

from ir_coliee.measures import AnswerAccuracy, MacroF1, MacroF2, MacroP, MacroR, MicroF1, MicroP, MicroR

EDITIONS = tuple(range(2018, 2027))
TASKS = ("1", "2", "3", "4", "5", "pilot")


class OfficialEntry(NamedTuple):
    """The official measures of a task over a range of editions (inclusive)."""

    task: str
    first: int
    last: int
    measures: tuple[Measure, ...]
    #: reported "for discussion" when the run is ranked (Task 3: from the ``task3-L`` list)
    ranked: tuple[Measure, ...]
    note: str


_TASK3_RANKED = (AP, Rprec, R @ 5, R @ 10, R @ 30)

OFFICIAL: tuple[OfficialEntry, ...] = (
    OfficialEntry("1", 2018, 2026, (MicroP, MicroR, MicroF1), (), "micro-averaged over all queries"),
    OfficialEntry("2", 2018, 2026, (MicroP, MicroR, MicroF1), (), "micro-averaged over all queries"),
    OfficialEntry(
        "3",
        2018,
        2020,
        (MacroP, MacroR, MacroF2),
        _TASK3_RANKED,
        "macro averaging before 2021 is assumed: the evaluation pages of those years do not say",
    ),
    OfficialEntry("3", 2021, 2025, (MacroP, MacroR, MacroF2), _TASK3_RANKED, "F2 is the mean of per-question F2"),
    OfficialEntry(
        "3",
        2026,
        2026,
        (MacroF2, MacroP, MacroR),
        _TASK3_RANKED,
        "ranked by recall-gated accuracy (score_recall_gated, or eval --answers); macro F2 breaks ties",
    ),
    OfficialEntry("4", 2018, 2026, (AnswerAccuracy,), (), "correct answers over all questions"),
    OfficialEntry("5", 2021, 2021, (AnswerAccuracy,), (), "Y/N without articles; 2021 only"),
    OfficialEntry(
        "pilot",
        2025,
        2026,
        (AnswerAccuracy, MacroF1, MacroP, MacroR),
        (),
        "AnswerAccuracy of court_decision; MacroF1/P/R of is_accepted=True per tort, all claims and per side",
    ),
)


def official_entry(task: object, year: Optional[int] = None) -> OfficialEntry:
    """The table row for ``task`` (1-5 or ``"pilot"``) in ``year`` (the newest edition when ``None``)."""
    key = str(task).lower()
    rows = [e for e in OFFICIAL if e.task == key]
    if not rows:
        raise ValueError(f"unknown COLIEE task {task!r}; expected one of {', '.join(TASKS)}")
    if year is None:
        return rows[-1]
    for entry in rows:
        if entry.first <= year <= entry.last:
            return entry
    span = ", ".join(f"{e.first}-{e.last}" for e in rows)
    raise ValueError(f"COLIEE task {key} has no {year} edition (editions: {span})")


def official_measures(task: object, year: Optional[int] = None, ranked: bool = False) -> list[Measure]:
    """The official measures of ``task`` in ``year``; with ``ranked``, also those reported for ranked runs."""
    entry = official_entry(task, year)
    return list(entry.measures + (entry.ranked if ranked else ()))
