"""Plain tables as text: tsv, csv, Markdown and LaTeX (booktabs) from a header and rows, no pandas needed
(what the commands print, and what API results write); a paper's table with a grouped header through
pandas' Styler (:func:`write_grouped`)."""

from __future__ import annotations

import io
import json
import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Literal, TextIO

from ir_coliee.errors import UNSAFE, ColieeArgumentError
from ir_coliee.formats.textfile import write_whole
from ir_coliee.outputs.escape import ESCAPERS, latex, markdown, plain_text

if TYPE_CHECKING:
    import pandas as pd

OutputFormat = Literal["tsv", "csv", "json", "markdown", "latex"]
OUTPUT_FORMATS: tuple[OutputFormat, ...] = ("tsv", "csv", "json", "markdown", "latex")
#: The formats for a paper, and how each writes a cell without a value (a baseline's p-value, a measure of
#: another task): a dash, never ``nan``.
PAPER_MISSING: dict[str, str] = {"markdown": "–", "latex": "--"}


def _fmt(value: object, digits: int, missing: str, escape: Callable[[str], str]) -> str:
    if _missing(value):
        return ""
    if isinstance(value, float):
        return missing if value != value and missing else f"{value:.{digits}f}"
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        return str(value)  # a number is no name: never escaped
    return escape(str(value))  # an id or a name from a file


def _missing(value: object) -> bool:
    return value is None or type(value).__name__ == "NAType"  # pandas' NA, without importing pandas


def _numeric(column: Sequence[object]) -> bool:
    """A column of numbers (the cells without a value aside): right-aligned in LaTeX."""
    present = [v for v in column if not _missing(v)]
    return bool(present) and all(
        isinstance(v, numbers.Number) and not isinstance(v, bool) for v in present
    )


def write_rows(
    header: list[str],
    values: Sequence[Sequence[object]],
    out: TextIO,
    digits: int,
    missing: str = "",
    style: OutputFormat = "tsv",
) -> None:
    """The table in ``style`` (tsv, csv, markdown, a LaTeX booktabs tabular, or JSON: a list of one object
    per row, values as numbers, NaN as ``null``), ``digits`` decimals, the same columns in each; NaN
    printed as ``missing`` when given. An unknown style is refused. No pandas needed."""
    if style == "json":
        write_json(json_rows(header, values), out)
        return
    output_options(style, digits)
    escape = ESCAPERS[style]
    rows = [[_fmt(v, digits, missing, escape) for v in row] for row in values]
    header = [escape(str(h)) for h in header]
    if style == "csv":
        import csv  # only here: most commands never write CSV

        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows([header, *rows])
        write_whole(out, text.getvalue())
    elif style == "markdown":
        write_whole(out, _markdown_table(header, rows, ""))
    elif style == "latex":
        columns = list(zip(*values)) if values else [() for _ in header]
        numeric = ["r" if _numeric(column) else "l" for column in columns]
        lines = [f"\\begin{{tabular}}{{{''.join(numeric)}}}", "\\toprule"]
        lines += [" & ".join(header) + " \\\\", "\\midrule"]
        lines += [" & ".join(row) + " \\\\" for row in rows]
        write_whole(out, "\n".join([*lines, "\\bottomrule", "\\end{tabular}", ""]))
    else:  # tsv (output_options refused any other style)
        write_whole(out, "".join("\t".join(row) + "\n" for row in [header, *rows]))


def _markdown_table(header: list[str], rows: list[list[str]], align: str) -> str:
    """A Markdown table of cells escaped already; ``align``: ``l`` or ``r`` per column."""
    rule = "".join("---:|" if a == "r" else "---|" for a in align.ljust(len(header), "l"))
    lines = ["| " + " | ".join(header) + " |", "|" + rule]
    return "\n".join([*lines, *("| " + " | ".join(row) + " |" for row in rows), ""])


def note(text: str, style: OutputFormat) -> str:
    """A line of a document around its tables (a title, a source, a footnote) as ``style`` keeps it apart
    from the tables: a ``#`` comment in tsv and csv, a paragraph in Markdown, a ``%`` comment in LaTeX;
    the text (which may name a file or a folder) escaped as the style's cells are, on one line."""
    shown = {"markdown": markdown, "latex": latex}.get(style, plain_text)(text)
    return {"markdown": "{}\n\n", "latex": "% {}\n"}.get(style, "# {}\n").format(shown)


def output_options(style: object, digits: object) -> None:
    """Refuse a format or a number of digits that a writer cannot honour (an API call: the command line's
    choices never get here)."""
    if style not in OUTPUT_FORMATS:
        raise ColieeArgumentError(f"style: one of {', '.join(OUTPUT_FORMATS)}, not {style!r}")
    if not isinstance(digits, int) or digits < 0:
        raise ColieeArgumentError(f"digits: a whole number from 0, not {digits!r}")


def write_frame(
    frame: pd.DataFrame, out: TextIO, digits: int, missing: str = "", style: OutputFormat = "tsv"
) -> None:
    """:func:`write_rows` of a DataFrame's columns and rows."""
    rows = list(frame.itertuples(index=False))
    write_rows(list(map(str, frame.columns)), rows, out, digits, missing, style)


def records(frame: pd.DataFrame) -> list[dict]:
    """The frame's rows as JSON holds them (:func:`json_rows`)."""
    return json_rows(list(map(str, frame.columns)), frame.astype(object).itertuples(index=False))


def json_rows(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[dict]:
    """Each row as a JSON object of the ``header``'s names, each value as :func:`json_value` holds it."""
    return [dict(zip(header, map(json_value, row))) for row in rows]


def write_grouped(
    cells: pd.DataFrame,
    bold: pd.DataFrame,
    out: TextIO,
    style: Literal["markdown", "latex"],
    note: str,
) -> None:
    """A paper's table: ``cells`` (text) under two column levels (group over column), the index left-aligned
    and every column right-aligned, the ``bold`` cells bold (``**`` in Markdown, ``\\textbf`` in LaTeX, where
    pandas' Styler writes it: booktabs rules, groups centred over their columns), ``note`` under the Markdown
    table or as the LaTeX caption."""
    escape = ESCAPERS[style]  # names and cells alike, header and body
    cells = cells.apply(lambda column: column.map(escape)).rename(index=escape, columns=escape)
    align = "l" + "r" * cells.shape[1]
    top = list(cells.columns.get_level_values(0))  # each column's group
    if style == "latex":
        import numpy as np

        marks = np.where(bold, "textbf:--rwrap;", "")
        styler = cells.style.apply(lambda _: marks, axis=None).hide(names=True, axis="index")
        lines = styler.to_latex(
            column_format=align, hrules=True, multicol_align="c", caption=latex(note)
        ).split("\n")
        lines.insert(lines.index("\\toprule") + 2, " ".join(_group_rules(top)))
        write_whole(out, "\n".join(lines))
        return
    # by place: the names are escaped now
    shown = cells.where(~bold.to_numpy(), "**" + cells + "**")
    groups = [g if i == 0 or g != top[i - 1] else "" for i, g in enumerate(top)]  # over its first
    body = ([s, *r] for s, r in zip(cells.index, shown.values.tolist()))
    rows = [["", *cells.columns.get_level_values(1)], *body]
    table = _markdown_table(["", *groups], rows, align)
    write_whole(out, f"{table}\n{markdown(note)}\n")


def _group_rules(groups: list[str]) -> list[str]:
    """A ``\\cmidrule(lr)`` under each group of several columns (numbered after the row names, from 2)."""
    import itertools

    rules, first = [], 2
    for _, members in itertools.groupby(groups):
        last = first + len(list(members)) - 1
        if last > first:  # a group of one column is no \\multicolumn, its name its own header
            rules.append(f"\\cmidrule(lr){{{first}-{last}}}")
        first = last + 1
    return rules


def json_value(value: object) -> object:
    """A cell as JSON holds it: NaN and pandas' NA (pandas 1.5 fills a per-query column with it) as
    ``null``, numpy scalars as Python numbers."""
    if _missing(value) or (isinstance(value, float) and value != value):
        return None
    return value.item() if hasattr(value, "item") else value  # type: ignore[attr-defined]


def write_json(doc: object, out: TextIO) -> None:
    """``doc`` as one indented JSON document, ending with a newline: characters that would drive a terminal
    as JSON escapes, and every non-ASCII one too where ``out`` cannot encode it (never a ``?`` in its place)."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    try:
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(doc, indent=2)
    write_whole(out, UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", text) + "\n")
