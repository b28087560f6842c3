"""The published official result tables of COLIEE, shipped with their sources, checked, and used to place
a run among the official submissions of its edition.

The tables (``ir_coliee/results/*.csv``, one ``# source:`` line each) come in several shapes: complete
official tables (2024 Tasks 1-2), transcriptions (2026 Tasks 1-2, zero-score runs left out) and partial
rows that teams reproduced; values in % or as fractions. :func:`load_leaderboard` reads one task and
edition into one shape, the official measures as fractions, and says whether it is the complete official
table (:attr:`Leaderboard.complete`: only a complete one places a run, in :func:`ir_coliee.benchmark`).
Every row is checked, and a row that fails a check is flagged in ``check``, never hidden:

* F1 must follow from the printed P and R, within the rounding of the printed digits;
* where the gold size of the test set is known (``ir_coliee.model.KNOWN_SIZES``), R x |gold| and
  accuracy x |questions| must be whole numbers, within the rounding of the printed digits.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import re
from collections.abc import Iterator
from decimal import Decimal
from importlib import resources
from typing import TYPE_CHECKING, NamedTuple, Optional

from ir_coliee.errors import ColieeError
from ir_coliee.model import edition_dataset, known_sizes, official_entry, task_of

if TYPE_CHECKING:
    import pandas as pd

#: Column names of the tables -> the measure they hold (task 3 of 2026 is ranked by recall-gated accuracy).
_COLUMNS = {"precision": "P", "recall": "R", "f1": "F1", "f2": "F2", "accuracy": "Acc", "map": "AP"}
_COLUMNS.update({f"r{k}": f"R@{k}" for k in (5, 10, 30)})
#: The long form of the 2025 table: words of its ``measure`` column -> the measure.
_WORDS = (("micro f1", "F1"), ("macro f2", "F2"), ("mean per-tort f1", "F1"), ("accuracy", "Acc"))
_TASKS = {"pilot-tp": "pilot", "pilot-re": "pilot"}


class Row(NamedTuple):
    rank: str
    team: str
    run: str
    values: dict[str, Decimal]
    """Measure -> value as printed (a fraction)."""


class Leaderboard:
    """The published table of one task and edition: plain rows (the command prints them without pandas),
    and :attr:`table`, the DataFrame, built on first use."""

    def __init__(
        self,
        task: str,
        year: int,
        rows: list[dict],
        columns: list[str],
        headline: str,
        complete: bool,
        source: str,
    ):
        self.task, self.year, self.rows, self.columns = task, year, rows, columns
        """``rows``: one dict per published run, best first, with every one of ``columns``: ``rank``,
        ``team``, ``run``, the measures (official names, fractions; NaN where not published), ``check``
        (empty when all is well)."""
        self.headline = headline
        """The column runs are ranked by."""
        self.complete = complete
        """Whether the source is the complete official table (else partial rows)."""
        self.source = source

    @functools.cached_property
    def table(self) -> pd.DataFrame:
        """:attr:`rows` as a DataFrame with :attr:`columns`."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=self.columns)

    def place(self, value: float) -> tuple[int, Optional[dict], Optional[dict]]:
        """Where a run scoring ``value`` on the headline would stand: its rank among the listed runs
        (ties with listed runs go after them), and the rows just above and below."""
        above = [r for r in self.rows if r[self.headline] >= value]
        below = [r for r in self.rows if r[self.headline] < value]
        return len(above) + 1, above[-1] if above else None, below[0] if below else None

    def with_runs(self, runs: pd.DataFrame) -> pd.DataFrame:
        """The published table with ``runs`` (a report's table: ``run`` and the measures) inserted at their
        places: ``rank`` recomputed (ties share a rank, published rows first), ``entry`` saying which rows
        are the scored runs, and an official row whose headline is the same as a scored run's to the
        published precision named as such."""
        import pandas as pd

        measures = [c for c in self.table.columns if c not in ("rank", "team", "run", "check")]
        official = self.table[["team", "run", *measures]].assign(entry="official")
        ours = pd.DataFrame(
            {
                "team": "",
                "run": runs["run"],
                **{m: runs[m] if m in runs.columns else None for m in measures},
            }
        ).assign(entry="this run")
        for _, row in ours.iterrows():
            same = (official[self.headline] - row[self.headline]).abs() < _PUBLISHED_HALF_UNIT
            official.loc[same, "entry"] = official.loc[same, "entry"] + f" = {row['run']}"
        both = pd.concat([official, ours], ignore_index=True)
        both = both.sort_values(self.headline, ascending=False, kind="stable").reset_index(
            drop=True
        )
        # a published row without the headline (the pilot's relevance rows, ranked by accuracy) has no rank
        rank = both[self.headline].rank(ascending=False, method="min").astype("Int64")
        both.insert(0, "rank", rank)
        return both


#: Published figures have four decimals: values within half a unit of the last one are the same figure.
_PUBLISHED_HALF_UNIT = 0.00005


def _short(name: str) -> str:
    """The column a measure fills: ``MicroF1`` -> F1, ``MacroP`` -> P, ``AnswerAccuracy`` -> Acc, ``AP`` -> AP."""
    if name.endswith("Accuracy"):
        return "Acc"
    return name.removeprefix("Micro").removeprefix("Macro")


def _names(task: str, year: int) -> dict[str, str]:
    """Short measure -> the official measure name of the task and edition (the model's official entry)."""
    entry = official_entry(task, year)
    names = {_short(str(m)): str(m) for m in (*entry.ranked, *entry.measures)}
    if entry.ranked_by:
        names[_short(entry.ranked_by)] = entry.ranked_by
    return names


def _tables() -> list[tuple[str, list[dict[str, str]]]]:
    """Every shipped table (``ir_coliee/results/*.csv``, in name order): its source and its records."""
    tables = []
    files = [
        f
        for f in resources.files("ir_coliee").joinpath("results").iterdir()
        if f.name.endswith(".csv")
    ]
    for file in sorted(files, key=lambda f: f.name):
        first, _, rest = file.read_text(encoding="utf-8").partition("\n")
        tables.append(
            (first.removeprefix("# source:").strip(), list(csv.DictReader(io.StringIO(rest))))
        )
    return tables


def _task(record: dict[str, str]) -> str:
    """The task a table row is of (``pilot-TP`` and ``pilot-RE`` are the pilot's)."""
    key = record["task"].lower()
    return _TASKS.get(key, key)


def _rows(source: str, records: list[dict[str, str]], task: str, year: int) -> Iterator[Row]:
    percent = "in %" in source
    for r in records:
        if int(r["year"]) != year or _task(r) != task:
            continue
        values: dict[str, Decimal] = {}
        for column, short in _COLUMNS.items():
            if r.get(column):
                values[short] = Decimal(r[column]) / (100 if percent else 1)
        if r.get("measure"):
            short = next(s for words, s in _WORDS if r["measure"].lower().startswith(words))
            values[short] = Decimal(r["value"])
        rank = r.get("rank") or r.get("rank_in_source") or ""
        yield Row(
            rank, r.get("team") or r.get("row", ""), r.get("run") or r.get("file") or "", values
        )


def _half_unit(value: Decimal) -> Decimal:
    exponent = value.as_tuple().exponent
    return (
        Decimal(5) * Decimal(10) ** (int(exponent) - 1) if isinstance(exponent, int) else Decimal(0)
    )


def _f1(p: Decimal, r: Decimal) -> Decimal:
    return 2 * p * r / (p + r) if p + r else Decimal(0)


def _checks(row: Row, task: str, year: int) -> list[str]:
    """What a row's printed figures contradict (empty when nothing)."""
    v, found = row.values, []
    if {"P", "R", "F1"} <= set(v):
        p, r, f = v["P"], v["R"], v["F1"]
        hp, hr, hf = _half_unit(p), _half_unit(r), _half_unit(f)
        low, high = _f1(max(p - hp, Decimal(0)), max(r - hr, Decimal(0))), _f1(p + hp, r + hr)
        if f + hf < low or f - hf > high:
            found.append(f"F1 {f} does not follow from P {p} and R {r} ({float(_f1(p, r)):.4f})")
    sizes = known_sizes(edition_dataset(task, year))
    for short, n, what in (
        ("R", sizes and sizes.qrels, "gold pairs"),
        ("Acc", sizes and sizes.queries, "questions"),
    ):
        if short in v and n:
            half = _half_unit(v[short])
            if math.ceil((v[short] - half) * n) > math.floor((v[short] + half) * n):
                found.append(f"{short} {v[short]} x {n:,} {what} is not a whole number")
    return found


def available() -> list[tuple[str, int]]:
    """``(task, year)`` of every published table shipped."""
    found = {(_task(r), int(r["year"])) for _, records in _tables() for r in records}
    return sorted(found, key=lambda t: (t[1], t[0]))


def load_leaderboard(task: object, year: int) -> Leaderboard:
    """The published table of ``task`` in ``year``, checked, best first."""
    key = task_of(str(task)).key
    sources: list[str] = []
    rows_of: list[Row] = []
    for source, records in _tables():
        found = list(_rows(source, records, key, year))
        if found:
            sources.append(source)
            rows_of.extend(found)
    if not rows_of:
        shown = ", ".join(f"{t} {y}" for t, y in available())
        raise ColieeError(
            f"no published table for COLIEE {task_of(key).label} {year} is shipped (tables: {shown})"
        )
    names = _names(key, year)
    rows: list[dict] = [
        {
            "rank": r.rank,
            "team": r.team,
            "run": r.run,
            **{names.get(k, k): float(x) for k, x in r.values.items()},
        }
        for r in rows_of
    ]
    measures = list(dict.fromkeys(m for r in rows for m in r if m not in ("rank", "team", "run")))
    for row, r in zip(rows, rows_of):
        row.update(
            {m: row.get(m, math.nan) for m in measures}, check="; ".join(_checks(r, key, year))
        )
    published = [m for m in measures if any(not math.isnan(r[m]) for r in rows)]
    headline = official_entry(key, year).ranking_column(published)
    rows.sort(
        key=lambda row: (math.isnan(row[headline]), -row[headline])
    )  # stable: published order on ties
    complete = all(re.search(r"complete table", s) for s in sources)
    columns = ["rank", "team", "run", *measures, "check"]
    return Leaderboard(key, year, rows, columns, headline, complete, " | ".join(sources))


def placed(
    task: str, year: Optional[int], headline: str, values: dict[str, float]
) -> tuple[dict[str, tuple[int, int]], Optional[str]]:
    """Each system's rank among the published runs of ``task`` in ``year`` (``{system: (rank, runs)}``),
    where its complete table is shipped with the ``headline`` measure (a rank among some of the runs would
    be no rank), and whether the table is ``complete`` or ``partial`` (None: no table of the headline, or
    no ``year``)."""
    try:
        board = load_leaderboard(task, year or 0)  # no year: no table (ColieeError)
    except ColieeError:
        return {}, None
    if board.headline != headline:
        return {}, None
    if not board.complete:
        return {}, "partial"
    return {
        s: (board.place(v)[0], len(board.rows)) for s, v in values.items() if not math.isnan(v)
    }, "complete"
