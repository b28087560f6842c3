"""Everything the commands print: tables in tsv, csv, json, markdown and LaTeX, reports, warnings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ir_coliee.cli import say
from ir_coliee.errors import Finding
from ir_coliee.formats.tabular import OUTPUT_FORMATS, OutputFormat, json_value, write_json, write_rows

if TYPE_CHECKING:
    import pandas as pd

    from ir_coliee.scoring.report import Report

#: The formats of a plain table (``json`` is a document of its own).
TABLE_FORMATS: tuple[OutputFormat, ...] = tuple(f for f in OUTPUT_FORMATS if f != "json")


def warn(message: str) -> None:
    say("warning", message)


def report_findings(findings: Sequence[Finding]) -> None:
    """Each finding on one line that names its file (two runs' identical warnings stay apart)."""
    for f in findings:
        warn(f"{f.path}: {f.message}" if f.path and not f.message.startswith(f.path) else f.message)


def write_table(frame: pd.DataFrame, out: TextIO, digits: int, missing: str = "", style: OutputFormat = "tsv") -> None:
    """The table in ``style`` (tsv, csv, markdown, or a LaTeX booktabs tabular), ``digits`` decimals,
    the same columns in each; NaN printed as ``missing`` when given."""
    write_rows(list(map(str, frame.columns)), list(frame.itertuples(index=False)), out, digits, missing, style)


def records(frame: pd.DataFrame) -> list[dict]:
    return [{k: json_value(v) for k, v in row.items()} for row in frame.astype(object).to_dict("records")]


def _json_doc(report: Report, index: int, per_query: bool) -> dict:
    info = report.runs[index]
    row = report.rows[index]
    doc: dict[str, object] = {
        "run": info.path or info.name,
        "name": info.name,
        "path": info.path,
        "run_tags": info.tags,
        "format": info.format,
        "measures": {m: json_value(row[m]) for m in report.measures},
        "counts": {c: json_value(v) for c, v in row.items() if c not in ("run", "path", *report.measures)},
    }
    if info.name in report.disqualified:
        doc["disqualified"] = report.disqualified[info.name]
    if per_query:
        doc["per_query"] = records(report.per_query[report.per_query["run"] == info.name].drop(columns="run"))
    return doc


def print_report(report: Report, out: TextIO, output: OutputFormat, digits: int, per_query: bool) -> None:
    """The report as a table (or JSON): one row per run, or each query's values with the totals."""
    if output == "json":
        docs = [_json_doc(report, i, per_query) for i in range(len(report.runs))]
        write_json(docs[0] if len(docs) == 1 else docs, out)
        return
    if per_query:
        import pandas as pd

        frame = report.per_query.sort_values(["run", "query_id", "measure"], kind="stable")
        for _, row in report.table.iterrows():
            totals = pd.DataFrame(
                {
                    "run": row["run"],
                    "query_id": "all",
                    "measure": report.measures,
                    "value": [row[m] for m in report.measures],
                }
            )
            frame = pd.concat([frame, totals], ignore_index=True)
        if len(report.runs) == 1:
            frame = frame.drop(columns="run")
        write_table(frame, out, digits, style=output)
        return
    missing = "disqualified" if any(report.disqualified.values()) else ""
    header = ["run", *report.measures, "path"]
    write_rows(header, [[row[c] for c in header] for row in report.rows], out, digits, missing, style=output)
