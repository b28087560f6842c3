"""The results page's numbers against the API's: score, compare_runs and analyse called anew on the same
gold and run files, each table of the page (read from the HTML or from a browser's DOM) cell by cell."""

from __future__ import annotations

import math

import ir_coliee
from ir_coliee.scoring.compare import compare_runs
from ir_coliee.scoring.report import ranked


def same(shown: object, want: object) -> bool:
    """A cell as the page holds it (a number's exact value, or text) and the API's value."""
    if isinstance(want, bool):
        return shown == ("yes" if want else "")
    if isinstance(want, (int, float)) and not isinstance(shown, str):
        return (math.isnan(want) and math.isnan(shown)) or float(shown) == float(want)
    return shown == str(want)


def assert_rows(rows: list[dict], header: list[str], want: list[list], table: str) -> None:
    assert len(rows) == len(want), table
    for row, values in zip(rows, want):
        assert list(row) == header, table
        for column, value in zip(header, values):
            assert same(row[column], value), (table, column, row[column], value)


def assert_api_numbers(tables: dict, gold: str, files: list[str], by: list, resamples: int) -> int:
    """Every table of the page equals the API's on ``files`` (in the order the page read them); returns
    how many numbers were compared."""
    report = ir_coliee.score(gold, files)
    board = ranked(report, fractions=False).drop(columns="path")
    header = list(board.columns)
    shown = tables["leaderboard"]
    assert_rows([{c: r[c] for c in header} for r in shown], header, board.values.tolist(), "board")
    names = [r.name for r in report.runs]
    best = str(board["run"].iloc[0])
    tested = compare_runs(gold, files, baseline=names.index(best), resamples=resamples).rows
    count = len(shown) * len(header)
    for m in tested.tests:
        columns = ["baseline", *(c for c in tested.columns if c == m or c.startswith(f"{m} "))]
        want = [[r, *(tested.value(r, c) for c in columns)] for r in tested.runs]
        assert_rows(tables[f"significance:{m}"], ["run", *columns], want, m)
        count += len(want) * len(columns)
    for name, (header, rows) in ir_coliee.analyse(gold, files, by).tables().items():
        assert_rows(tables[name], header, rows, name)
        count += len(rows) * len(header)
    values = report.per_query.set_index(["run", "query_id", "measure"])["value"]
    for info in report.runs:
        rows = tables[f"run:{info.name}"]
        assert len(rows) == len(
            report.per_query.query_id[report.per_query.run == info.name].unique()
        )
        for row in rows:
            for m in report.measures:
                assert same(row[m], values[(info.name, row["query_id"], m)])
                count += 1
    return count
