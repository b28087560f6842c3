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

A run is compared with a row as the row was published: by the row's counts where the gold size gives
them (the exact value of its true positives over what it retrieved), else at the row's printed
precision, whichever way the organisers rounded. A run equal to a row shares its rank.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import math
import re
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from importlib import resources
from typing import TYPE_CHECKING, NamedTuple, Optional, cast

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
    source: str = ""
    """Where the row was published, for tables whose rows come from several sources."""


@dataclasses.dataclass(eq=False, repr=False)
class Leaderboard:
    """The published table of one task and edition: plain rows (the command prints them without pandas),
    and :attr:`table`, the DataFrame, built on first use."""

    task: str
    year: int
    rows: list[dict]
    """One dict per published run, best first, with every one of ``columns``: ``rank``, ``team``,
    ``run``, the measures (official names, fractions; NaN where not published), ``check`` (empty when
    all is well)."""
    columns: list[str]
    headline: str
    """The column runs are ranked by."""
    complete: bool
    """Whether the source is the complete official table (else partial rows)."""
    source: str
    exact: list[tuple[float, Optional[float]]]
    """Each row's headline: half a unit of its last printed digit, and its value as its counts give
    it exactly (:func:`_exact`), ``None`` where the gold size does not give them."""

    @functools.cached_property
    def table(self) -> pd.DataFrame:
        """:attr:`rows` as a DataFrame with :attr:`columns`."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=self.columns)

    def published(self, value: float) -> float:
        """``value`` on the scale of the published figures: the printed figure of the first row it equals
        (by the row's counts where known, else at its printed precision), so that it ties with it; where
        it lies between a row's exact value and its rounding, as far from the printed figure as it is from
        the exact one, so that it falls on the exact value's side; else itself."""
        for row, (half, exact) in zip(self.rows, self.exact):
            printed = row[self.headline]
            if exact is None:
                if abs(value - printed) <= half * (1 + 1e-9):
                    return printed
            elif math.isclose(value, exact, rel_tol=0, abs_tol=1e-12):
                return printed
            elif (value > exact) != (value > printed):
                return printed + (value - exact)
        return value

    def place(self, value: float) -> tuple[int, Optional[dict], Optional[dict]]:
        """Where a run scoring ``value`` on the headline would stand: its rank among the listed runs
        (a run equal to a row shares its rank, :meth:`published`), and the rows just above and below
        (rows it ties with are neither)."""
        at = self.published(value)
        above = [r for r in self.rows if r[self.headline] > at]
        below = [r for r in self.rows if r[self.headline] < at]
        return len(above) + 1, above[-1] if above else None, below[0] if below else None

    def with_runs(self, runs: pd.DataFrame) -> pd.DataFrame:
        """The published table with ``runs`` (a report's table: ``run`` and the measures) inserted at their
        places: ``rank`` recomputed (ties share a rank, published rows first), ``entry`` saying which rows
        are the scored runs, and a scored run and the official rows it equals (:meth:`published`) named
        as such, at one rank."""
        import pandas as pd

        measures = [c for c in self.columns if c not in ("rank", "team", "run", "check", "source")]
        official = self.table[["team", "run", *measures]].assign(entry="official")
        values = {m: runs[m] if m in runs.columns else None for m in measures}
        ours = pd.DataFrame({"team": "", "run": runs["run"], **values}).assign(entry="this run")
        official["_at"] = official[self.headline]
        ours["_at"] = [self.published(v) for v in ours[self.headline]]
        for i, row in ours.iterrows():
            same = official["_at"] == row["_at"]
            official.loc[same, "entry"] = official.loc[same, "entry"] + f" = {row['run']}"
            if same.any():
                ours.loc[i, "entry"] = f"this run = {', '.join(official.loc[same, 'run'])}"
        both = pd.concat([official, ours], ignore_index=True)
        both = both.sort_values("_at", ascending=False, kind="stable").reset_index(drop=True)
        # a published row without the headline (the pilot's relevance rows, ranked by accuracy) has no rank
        rank = both["_at"].rank(ascending=False, method="min").astype("Int64")
        both.insert(0, "rank", rank)
        return both.drop(columns="_at")


def _short(name: str) -> str:
    """The column a measure fills: ``MicroF1`` -> F1, ``MacroP`` -> P, ``AnswerAccuracy`` -> Acc, ``AP`` -> AP."""
    return "Acc" if name.endswith("Accuracy") else name.removeprefix("Micro").removeprefix("Macro")


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
    files = resources.files("ir_coliee").joinpath("results").iterdir()
    for file in sorted((f for f in files if f.name.endswith(".csv")), key=lambda f: f.name):
        first, _, rest = file.read_text(encoding="utf-8").partition("\n")
        records = list(csv.DictReader(io.StringIO(rest)))
        tables.append((first.removeprefix("# source:").strip(), records))
    return tables


def _task(record: dict[str, str]) -> str:
    """The task a table row is of (``pilot-TP`` and ``pilot-RE`` are the pilot's)."""
    key = record["task"].lower()
    return _TASKS.get(key, key)


def _rows(source: str, records: list[dict[str, str]], task: str, year: int) -> Iterator[Row]:
    scale = 100 if "in %" in source else 1
    base = ""
    for r in records:
        said = r.get("source", "")  # a row's own source; "same; NOTE" is the place of the one above
        base = base if said.startswith("same") else _place(said)
        said = base + said[4:] if said.startswith("same") else said
        if int(r["year"]) != year or _task(r) != task:
            continue
        values = {short: Decimal(r[c]) / scale for c, short in _COLUMNS.items() if r.get(c)}
        if r.get("measure"):
            short = next(s for words, s in _WORDS if r["measure"].lower().startswith(words))
            values[short] = Decimal(r["value"])
        rank = r.get("rank") or r.get("rank_in_source") or ""
        team, run = r.get("team") or r.get("row", ""), r.get("run") or r.get("file") or ""
        yield Row(rank, team, run, values, said)


def _place(source: str) -> str:
    """Where a source was published: its text up to its first note (``; ...`` outside parentheses)."""
    depth = 0
    for i, c in enumerate(source):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == ";" and depth == 0:
            return source[:i]
    return source


#: Published tables print three or four decimals (COLIEE-SPEC section 9): a figure printed with fewer
#: (``0.4``) lost its trailing zeros in a transcription, and is compared at three.
_COARSEST = Decimal("0.0005")


def _half_unit(value: Decimal) -> Decimal:
    # a finite figure (a published one, or 0): its exponent is a number
    return Decimal(5) * Decimal(10) ** (cast(int, value.as_tuple().exponent) - 1)


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
    sizes = known_sizes(edition_dataset(task, year))  # its fields None where not known
    for short, n, what in (("R", sizes.qrels, "gold pairs"), ("Acc", sizes.queries, "questions")):
        if short in v and n:
            half = _half_unit(v[short])
            if math.ceil((v[short] - half) * n) > math.floor((v[short] + half) * n):
                found.append(f"{short} {v[short]} x {n:,} {what} is not a whole number")
    return found


def _exact(row: Row, short: str, task: str, year: int) -> Optional[float]:
    """The headline ``short`` of a row as its counts give it, where the gold size gives them and one set
    of counts agrees with every printed figure: micro F1 = 2 tp / (retrieved + |gold|), with
    tp = R x |gold| and tp / retrieved = P; accuracy = correct / |questions|. ``None`` elsewhere."""
    v, sizes = row.values, known_sizes(edition_dataset(task, year))
    found: list[Fraction] = []
    if short == "F1" and sizes.qrels and v.get("P") and "R" in v:
        tp, p, hp = round(v["R"] * sizes.qrels), v["P"], _half_unit(v["P"])
        # every retrieved count whose precision prints as P (a few thousand at most)
        low, high = math.ceil(tp / (p + hp)), math.floor(tp / max(p - hp, Decimal("1e-9")))
        found = [Fraction(2 * tp, k + sizes.qrels) for k in range(max(low, tp, 1), high + 1)]
    elif short == "Acc" and sizes.queries and "Acc" in v:
        found = [Fraction(round(v["Acc"] * sizes.queries), sizes.queries)]
    printed, half = Fraction(v.get(short, 0)), Fraction(_half_unit(v.get(short, Decimal(0))))
    agree = [x for x in found if abs(x - printed) <= half]
    return float(agree[0]) if len(agree) == 1 else None


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
    rows, measures = _plain(rows_of, names, key, year)
    published = [m for m in measures if any(not math.isnan(r[m]) for r in rows)]
    headline = official_entry(key, year).ranking_column(published)
    short = next((k for k, name in names.items() if name == headline), headline)
    # stable: published order on ties
    order = sorted(
        range(len(rows)), key=lambda i: (math.isnan(rows[i][headline]), -rows[i][headline])
    )
    halves = [float(min(_half_unit(r.values.get(short, Decimal(0))), _COARSEST)) for r in rows_of]
    exact = [(halves[i], _exact(rows_of[i], short, key, year)) for i in order]
    complete = all(re.search(r"complete table", s) for s in sources)
    columns = ["rank", "team", "run", *measures, "check", *rows[0].keys() & {"source"}]
    return Leaderboard(
        key, year, [rows[i] for i in order], columns, headline, complete, " | ".join(sources), exact
    )


def _plain(
    rows_of: list[Row], names: dict[str, str], task: str, year: int
) -> tuple[list[dict], list[str]]:
    """The rows as plain dicts, every measure of the table in each (NaN where not published), and a
    ``source`` where the table's rows have their own; and the measures."""
    rows: list[dict] = []
    for r in rows_of:
        values = {names.get(k, k): float(x) for k, x in r.values.items()}
        rows.append({"rank": r.rank, "team": r.team, "run": r.run, **values})
    measures = list(dict.fromkeys(m for r in rows for m in r if m not in ("rank", "team", "run")))
    sourced = any(r.source for r in rows_of)
    for row, r in zip(rows, rows_of):
        checks = "; ".join(_checks(r, task, year))
        row.update({m: row.get(m, math.nan) for m in measures}, check=checks)
        row.update({"source": r.source} if sourced else {})
    return rows, measures


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
