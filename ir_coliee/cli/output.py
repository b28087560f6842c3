"""Everything the commands print: tables in tsv, csv, json, markdown and LaTeX, reports, warnings."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, TextIO

from ir_coliee.findings import Finding

if TYPE_CHECKING:
    import pandas as pd

    from ir_coliee.scoring import Report

OutputFormat = Literal["tsv", "csv", "json", "markdown", "latex"]
OUTPUT_FORMATS: tuple[OutputFormat, ...] = ("tsv", "csv", "json", "markdown", "latex")
#: The formats of a plain table (``json`` is a document of its own).
TABLE_FORMATS: tuple[OutputFormat, ...] = tuple(f for f in OUTPUT_FORMATS if f != "json")
_LATEX_SPECIAL = {c: f"\\{c}" for c in "&%$#_{}"}
#: The formats for a paper, and how each writes a cell without a value (a baseline's p-value, a measure of
#: another task): a dash, never ``nan``.
PAPER_MISSING: dict[str, str] = {"markdown": "–", "latex": "--"}


def warn(message: str) -> None:
    print(f"ir_coliee: warning: {message}", file=sys.stderr)


def report_findings(findings: Sequence[Finding]) -> None:
    """Each finding on one line that names its file (two runs' identical warnings stay apart)."""
    for f in findings:
        warn(f"{f.path}: {f.message}" if f.path and not f.message.startswith(f.path) else f.message)


def _fmt(value: object, digits: int, missing: str = "") -> str:
    import pandas as pd

    if value is None or value is pd.NA:
        return ""
    if isinstance(value, float):
        return missing if value != value and missing else f"{value:.{digits}f}"
    return str(value)


def _latex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def write_table(frame: pd.DataFrame, out: TextIO, digits: int, missing: str = "", style: OutputFormat = "tsv") -> None:
    """The table in ``style`` (tsv, csv, markdown, or a LaTeX booktabs tabular), ``digits`` decimals,
    the same columns in each; NaN printed as ``missing`` when given."""
    header = list(map(str, frame.columns))
    rows = [[_fmt(v, digits, missing) for v in row] for row in frame.itertuples(index=False)]
    if style == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows([header, *rows])
    elif style == "markdown":
        out.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
        out.writelines("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |\n" for row in rows)
    elif style == "latex":
        numeric = ["r" if frame[c].dtype.kind in "fiu" else "l" for c in frame.columns]
        out.write(f"\\begin{{tabular}}{{{''.join(numeric)}}}\n\\toprule\n")
        out.write(" & ".join(map(_latex, header)) + " \\\\\n\\midrule\n")
        out.writelines(" & ".join(map(_latex, row)) + " \\\\\n" for row in rows)
        out.write("\\bottomrule\n\\end{tabular}\n")
    else:
        out.write("\t".join(header) + "\n")
        out.writelines("\t".join(row) + "\n" for row in rows)


def json_value(value: object) -> object:
    if isinstance(value, float) and value != value:
        return None
    return value.item() if hasattr(value, "item") else value  # type: ignore[attr-defined]


def records(frame: pd.DataFrame) -> list[dict]:
    return [{k: json_value(v) for k, v in row.items()} for row in frame.astype(object).to_dict("records")]


def write_json(doc: object, out: TextIO) -> None:
    json.dump(doc, out, indent=2, ensure_ascii=False)
    out.write("\n")


def _json_doc(report: Report, index: int, per_query: bool) -> dict:
    info = report.runs[index]
    row = report.table.iloc[index]
    doc: dict[str, object] = {
        "run": info.path or info.name,
        "name": info.name,
        "path": info.path,
        "run_tags": info.tags,
        "format": info.format,
        "measures": {m: json_value(row[m]) for m in report.measures},
        "counts": {c: json_value(row[c]) for c in report.table.columns if c not in ("run", "path", *report.measures)},
    }
    if info.name in report.disqualified:
        doc["disqualified"] = report.disqualified[info.name]
    if per_query:
        doc["per_query"] = records(report.per_query[report.per_query["run"] == info.name].drop(columns="run"))
    return doc


def print_report(report: Report, out: TextIO, output: OutputFormat, digits: int, per_query: bool) -> None:
    """The report as a table (or JSON): one row per run, or each query's values with the totals."""
    import pandas as pd

    if output == "json":
        docs = [_json_doc(report, i, per_query) for i in range(len(report.runs))]
        write_json(docs[0] if len(docs) == 1 else docs, out)
        return
    if per_query:
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
    write_table(report.table[["run", *report.measures, "path"]], out, digits, missing, style=output)
