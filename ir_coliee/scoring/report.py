"""What scoring returns: one row per run (with the file it came from), the per-query values, the findings."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional, TextIO, Union

from ir_coliee.errors import ColieeError, ColieeWarning, Finding
from ir_coliee.inputs.ingest import RunInfo
from ir_coliee.model import Task, edition_dataset, known_sizes, official_entry, task_of
from ir_coliee.outputs.tabular import (
    PAPER_MISSING,
    OutputFormat,
    json_value,
    note,
    output_options,
    records,
    write_frame,
    write_json,
    write_rows,
)

if TYPE_CHECKING:
    import pandas as pd

    from ir_coliee.results import Leaderboard

#: The columns of names from the file system, held as Python strings: a name that is not UTF-8 (a lone
#: surrogate once decoded) is refused by pandas' Arrow strings, and shown as its escape by the writers.
NAMES = ("run", "path")


#: The query id of the totals rows of a per-query table, as trec_eval names them.
TOTALS = "all"

#: Per-query values as they come from a scorer: ``(query_id, measure, value)`` rows, or a DataFrame.
PerQuery = Union["pd.DataFrame", Sequence[tuple]]


class Report:
    """What :func:`ir_coliee.score` found. It keeps plain rows; :attr:`table` and :attr:`per_query` are
    DataFrames built on first use, so that printing one row needs no pandas."""

    def __init__(
        self,
        rows: list[dict],
        per_query: list[tuple[str, PerQuery]],
        findings: list[Finding],
        task: Task,
        year: Optional[int],
        measures: list[str],
        runs: list[RunInfo],
        disqualified: Optional[dict[str, list[str]]] = None,
    ):
        self.rows = [{**row, "path": info.path or ""} for row, info in zip(rows, runs)]
        """One dict per run (named as ``runs``), the columns of :attr:`table`."""
        self._per_query = per_query
        self.findings = findings
        """Warnings: queries not in the gold, gold queries absent from a run, duplicates, tags, guesses."""
        self.task = task.key
        self.year = year
        self.measures = measures
        """The measure columns of :attr:`table`, in order."""
        self.runs = runs
        self.disqualified = disqualified or {}
        """Pilot sub-tasks a run forfeits by leaving ``null`` values (their measures are NaN)."""

    def placement(self) -> Leaderboard:
        """The published table of the report's edition its runs are placed on, asked before any output
        (a refusal must not cut a document short): refused where none is shipped or where it ranks by a
        measure the report does not hold; a warning where the gold is not the edition's test set
        (:func:`other_queries`)."""
        from ir_coliee.results import load_leaderboard

        if self.year is None:
            raise ColieeError(NO_EDITION)
        board = load_leaderboard(self.task, self.year)
        if board.headline not in self.table.columns:
            raise ColieeError(
                f"the {self.year} table ranks runs by {board.headline}, which this report does not hold"
            )
        if caveat := other_queries(self):
            warnings.warn(caveat, ColieeWarning, stacklevel=2)
        return board

    @functools.cached_property
    def table(self) -> pd.DataFrame:
        """One row per run: ``run``, the measures, then the counts behind them (``tp``, ``retrieved``,
        ``relevant`` or ``correct``, ``questions``; ``queries``: the gold queries), and ``path``: the file
        the run came from (empty for a run given in memory). ``run`` is unique: the tag, then the file name
        where two files share a tag."""
        import pandas as pd

        # a report holds a row per run: no run, no report (the door refuses it)
        frame = pd.DataFrame([{c: v for c, v in r.items() if c not in NAMES} for r in self.rows])
        for c in NAMES:
            frame[c] = pd.Series([r[c] for r in self.rows], dtype=object)
        return frame[list(self.rows[0])]

    @functools.cached_property
    def per_query(self) -> pd.DataFrame:
        """``run, query_id, measure, value, tp, retrieved, relevant``; ``run`` as in :attr:`table`."""
        import pandas as pd

        from ir_coliee.measures.parse import per_query_frame

        frames = []
        for name, values in self._per_query:
            frame = values if isinstance(values, pd.DataFrame) else per_query_frame(values)
            frames.append(frame.assign(run=pd.Series(name, frame.index, dtype=object)))
        joined = pd.concat(frames, ignore_index=True)
        return joined[["run", *[c for c in joined.columns if c != "run"]]]

    def write(
        self, out: TextIO, style: OutputFormat = "tsv", digits: int = 4, per_query: bool = False
    ) -> None:
        """The report as one document: a row per run (JSON: an object per run, with its counts), or with
        ``per_query`` each query's values followed by the totals (``query_id`` ``all``)."""
        output_options(style, digits)
        if style == "json":
            docs = [self._json_doc(i, per_query) for i in range(len(self.runs))]
            write_json(docs[0] if len(docs) == 1 else docs, out)
        elif per_query:
            write_frame(self._per_query_with_totals(), out, digits, style=style)
        else:
            missing = "disqualified" if any(self.disqualified.values()) else ""
            header = ["run", *self.measures, "path"]
            rows = [[row[c] for c in header] for row in self.rows]
            write_rows(header, rows, out, digits, missing, style=style)

    def _per_query_with_totals(self) -> pd.DataFrame:
        import pandas as pd

        frame = self.per_query.sort_values(["run", "query_id", "measure"], kind="stable")
        if (frame["query_id"] == TOTALS).any():  # the name trec_eval gives its totals, kept
            said = f"the gold has a query {TOTALS!r}, as the totals rows of the per-query table are named"
            warnings.warn(f"{said}: the totals are the last rows", ColieeWarning, stacklevel=2)
        for row in self.rows:
            totals = {"run": row["run"], "query_id": TOTALS, "measure": self.measures}
            values = pd.DataFrame({**totals, "value": [row[m] for m in self.measures]})
            frame = pd.concat([frame, values])
        frame = frame.reset_index(drop=True)
        return frame.drop(columns="run") if len(self.runs) == 1 else frame

    def _json_doc(self, index: int, per_query: bool) -> dict:
        info, row = self.runs[index], self.rows[index]
        doc: dict[str, object] = {
            "run": info.path or info.name,
            "name": info.name,
            "path": info.path,
            "run_tags": info.tags,
            "format": info.format,
            "measures": {m: json_value(row[m]) for m in self.measures},
            "counts": {
                c: json_value(v) for c, v in row.items() if c not in ("run", "path", *self.measures)
            },
        }
        if info.name in self.disqualified:
            doc["disqualified"] = self.disqualified[info.name]
        if per_query:
            own = self.per_query[self.per_query["run"] == info.name]
            doc["per_query"] = records(own.drop(columns="run"))
        return doc

    def __repr__(self) -> str:
        return f"Report(task={self.task!r}, year={self.year}, runs={[r.name for r in self.runs]}, measures={self.measures})"


def ranked(report: Report, fractions: bool = True) -> pd.DataFrame:
    """The report's runs best first by the headline of the task (``RecallGatedAccuracy`` for 2026 Task 3;
    the first measure when the official one was not asked for): ``rank``, ``run``, the measures in the
    report's order (the order of a single run's table), the counts, then ``path``. Accuracy's counts are
    ``correct`` as ``66/101`` with ``fractions``, else ``correct`` and ``questions`` as numbers (JSON)."""
    headline = official_entry(report.task, report.year).ranking_column(report.measures)
    table = report.table.sort_values(headline, ascending=False, kind="stable", ignore_index=True)
    counts = [c for c in ("tp", "retrieved", "relevant") if c in table.columns]
    out = table[["run", *report.measures, *counts]].copy()
    if {"correct", "questions"} <= set(table.columns):
        if fractions:
            out["correct"] = [f"{c}/{q}" for c, q in zip(table["correct"], table["questions"])]
        else:
            out["correct"], out["questions"] = table["correct"], table["questions"]
    out.insert(0, "rank", table[headline].rank(ascending=False, method="min").astype("Int64"))
    out["path"] = table["path"]
    return out


def write_ranked(
    reports: Sequence[Report], out: TextIO, style: OutputFormat = "tsv", digits: int = 4
) -> None:
    """Several runs, best first (:func:`ranked`); the tables of several editions as one document in every
    format (a table with ``edition`` and ``task`` columns; in JSON one object holding every table)."""
    import pandas as pd

    tables = [(r, ranked(r, fractions=style != "json")) for r in reports]
    if style == "json":  # the same columns as the other formats, counts as numbers
        docs = [{"task": r.task, "year": r.year, "runs": records(t)} for r, t in tables]
        write_json(docs[0] if len(docs) == 1 else {"tables": docs}, out)
        return
    if len(reports) == 1:
        write_frame(tables[0][1], out, digits, style=style)
        return
    labelled = [t.assign(edition=r.year, task=task_of(r.task).label) for r, t in tables]
    grouped = pd.concat(labelled, ignore_index=True)
    # counts stay whole numbers where another task's rows left them empty (pandas made them floats)
    counts = {c: "Int64" for c in ("tp", "retrieved", "relevant") if c in grouped.columns}
    grouped = grouped.astype(counts)
    first = ["edition", "task"]
    grouped = grouped[[*first, *[c for c in grouped.columns if c not in (*first, "path")], "path"]]
    write_frame(grouped, out, digits, PAPER_MISSING.get(style, ""), style)


#: Why a placement cannot be made: the edition is unknown.
NO_EDITION = "--leaderboard needs the edition: give --year, or a dataset id as GOLD"


def not_placed(gold: object) -> Optional[str]:
    """Why runs scored on ``gold`` are not placed on a published table (None: they may be). The tables
    rank runs on an edition's test set: a dataset id of another split is not placed; a gold file is placed
    on the edition given with it."""
    from ir_coliee.data.catalog import dataset_entry
    from ir_coliee.inputs.gold import is_dataset_id

    if not is_dataset_id(gold):
        return None
    try:
        split = dataset_entry(str(gold)).split
    except KeyError:  # no dataset: reading the gold says so
        return None
    if split == "test":
        return None
    return (
        f"{gold} is a {split} set: the published tables rank runs on the edition's test set, "
        "so its runs are not placed on them"
    )


def other_queries(report: Report) -> Optional[str]:
    """Why places of the report's runs on its edition's table would compare scores on other queries: its
    gold holds another number of them than the edition's test set (a part of it, or another collection's
    gold given with its year); None where the numbers agree or the test set's is not known."""
    row, task = report.rows[0], task_of(report.task)
    held = row.get("queries", row.get("questions"))
    test = edition_dataset(task.key, report.year) if report.year else ""
    # a statute test set holds the same questions in either language (2025's gold is the Japanese file)
    official = known_sizes(test).queries or known_sizes(f"{test}/ja").queries
    if official is None or held == official:
        return None
    what = "questions" if task.statute else "queries"
    return (
        f"{task.label}: the gold holds {held} {what} where the {report.year} test set holds "
        f"{official}: these places rank scores on other {what} among the published ones"
    )


def write_placement(
    report: Report, board: Leaderboard, out: TextIO, style: OutputFormat = "tsv", digits: int = 4
) -> None:
    """``board`` (:meth:`Report.placement`) with the report's runs inserted at their places."""
    placed = board.with_runs(report.table)
    rows = len(board.table)
    kind = "complete official table" if board.complete else f"partial table: {rows} published rows"
    title = f"leaderboard: COLIEE {report.year} {task_of(report.task).label}, by {board.headline} ({kind})"
    out.write("\n" + note(title, style))
    write_frame(placed, out, digits, PAPER_MISSING.get(style, ""), style)
