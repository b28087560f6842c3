"""One escaper per output format, for every string that came from a file (a run tag, a system, benchmark or
category name, an id) and goes into a header, a cell, a caption or a note: the name is shown as read, and
never drives the terminal, shifts a column, starts a formula, a row or a tag.

Numbers are never escaped: the writers format them, and only strings pass through here."""

from __future__ import annotations

import html
import re
from typing import Callable

from ir_coliee.errors import printable

#: The first characters that make a spreadsheet read a cell as a formula (``=HYPERLINK(...)``, ``@SUM``,
#: ``+cmd|...``, ``-2+3``): such a cell is shown with a leading ``'``, which spreadsheets read as "text".
_FORMULA = tuple("=+-@")


def plain(text: str) -> str:
    """TSV, CSV and the terminal: controls and invisible characters as escapes (``\\x1b``, ``\\u202e``), a
    tab or line end as ``\\t`` or ``\\n`` (never a new column or row), a formula's first character guarded
    (a string that is a number, ``-0.5``, is no formula and stays as it is)."""
    text = plain_text(text)
    return f"'{text}" if text.startswith(_FORMULA) and not _number(text) else text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


_MARKDOWN_SPECIAL = {
    **{c: f"\\{c}" for c in "\\`*_[]|"},  # code, emphasis, links and images, a table's cells
    **{c: html.escape(c) for c in "<>&"},  # tags and entities: text, never HTML
}
#: Spaces at either end of a cell, which a Markdown table strips: kept as character references.
_EDGE_SPACE = re.compile(r"^\s+|\s+$")


def markdown(text: str) -> str:
    """A Markdown table cell (or text) that shows ``text`` as :func:`plain` writes it: no emphasis, code,
    link, HTML or cell boundary from the name, its spaces at either end kept."""
    text = "".join(_MARKDOWN_SPECIAL.get(c, c) for c in plain_text(text))
    return _EDGE_SPACE.sub(lambda m: "".join(f"&#{ord(c)};" for c in m[0]), text)


_LATEX_SPECIAL = {
    **{c: f"\\{c}" for c in "&%$#_{}"},
    "\\": "\\textbackslash{}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
    # a "[" after a row's "\\" would be read as the row's spacing ("Missing number"): braced, always
    "[": "{[}",
    "]": "{]}",
    # the paper tables' marks (significant, a partial published table) and signs outside math mode
    **{"†": "$^\\dagger$", "‡": "$^\\ddagger$", "<": "$<$", ">": "$>$", "|": "$|$"},
}


def latex(text: str) -> str:
    """LaTeX text (a cell, a header, a caption) that typesets ``text`` as :func:`plain` writes it."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in plain_text(text))


def html_text(text: str) -> str:
    """HTML text or an attribute's value that shows ``text`` as :func:`plain` writes it."""
    return html.escape(plain_text(text), quote=True)


def plain_text(text: str) -> str:
    """``text`` as shown in a document: controls, tabs and line ends as escapes (no formula guard: a
    document is no spreadsheet)."""
    return printable(text).replace("\t", "\\t").replace("\n", "\\n")


#: The escaper of each output format.
ESCAPERS: dict[str, Callable[[str], str]] = {
    "tsv": plain,
    "csv": plain,
    "markdown": markdown,
    "latex": latex,
    "html": html_text,
}
