"""One escaper per output format, for every string that came from a file (a run tag, a system, benchmark or
category name, an id) and goes into a header, a cell, a caption or a note: the name is shown as read, and
never drives the terminal, shifts a column, starts a formula, a row or a tag.

Numbers are never escaped: the writers format them, and only strings pass through here."""

from __future__ import annotations

import re
from collections.abc import Callable

from ir_coliee.errors import plain_text

#: The first characters that make a spreadsheet read a cell as a formula (``=HYPERLINK(...)``, ``@SUM``,
#: ``+cmd|...``, ``-2+3``): such a cell is shown with a leading ``'``, which spreadsheets read as "text"
#: (and so is one that begins with ``'`` itself, which a spreadsheet would drop).
_FORMULA = tuple("=+-@'")


def plain(text: str) -> str:
    """TSV, CSV and the terminal: :func:`plain_text`, a formula's first character guarded (a string that
    is a number, ``-0.5``, is no formula and stays as it is)."""
    text = plain_text(text)
    # a lone "-" (a run read from standard input) is no formula
    formula = text.startswith(_FORMULA) and text != "-"
    return f"'{text}" if formula and not _number(text) else text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


_MARKDOWN_SPECIAL = {
    **{c: f"\\{c}" for c in "\\`*_[]|"},  # code, emphasis, links and images, a table's cells
    **{"<": "&lt;", ">": "&gt;", "&": "&amp;"},  # tags and entities: text, never HTML
    # strikethrough (GFM's ~~s~~) and math (GitHub's $x$), which no backslash escapes in every renderer
    **{c: f"&#{ord(c)};" for c in "~$"},
}
#: Spaces at either end of a cell, which a Markdown table strips: kept as character references.
_EDGE_SPACE = re.compile(r"^\s+|\s+$")


def markdown(text: str) -> str:
    """A Markdown table cell (or text) that shows ``text`` as :func:`plain_text` writes it: no emphasis, code,
    link, HTML or cell boundary from the name, its spaces at either end kept."""
    text = "".join(_MARKDOWN_SPECIAL.get(c, c) for c in plain_text(text))
    return _EDGE_SPACE.sub(lambda m: "".join(f"&#{ord(c)};" for c in m[0]), text)


_LATEX_SPECIAL = {
    **{c: f"\\{c}" for c in "&%$#_{}"},
    "\\": "\\textbackslash{}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
    # a "[" or "*" after a row's "\\" would be read as its argument ("Missing number", a star lost):
    # braced, always
    **{c: f"{{{c}}}" for c in "[]*"},
    # the paper tables' marks (significant, a partial published table) and signs outside math mode
    **{"†": "$^\\dagger$", "‡": "$^\\ddagger$", "<": "$<$", ">": "$>$", "|": "$|$"},
}


def latex(text: str) -> str:
    """LaTeX text (a cell, a header, a caption) that typesets ``text`` as :func:`plain_text` writes it."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in plain_text(text))


def html_text(text: object) -> str:
    """HTML text or an attribute's value that shows ``text`` (a name, or a value read from a file) as
    :func:`plain_text` writes it."""
    import html  # here: its table of entities (2 ms to import) serves HTML output alone

    return html.escape(plain_text(str(text)), quote=True)


def figure_text(text: object) -> str:
    """A label of a matplotlib figure that shows ``text`` (a name, or a category read from a file) as
    :func:`plain_text` writes it: a ``$`` never starts math (``$x^2$`` drawn as x², ``$\\frac$`` a parse
    error after the work)."""
    return plain_text(str(text)).replace("$", "\\$")


#: The escaper of each output format.
ESCAPERS: dict[str, Callable[[str], str]] = {
    "tsv": plain,
    "csv": plain,
    "markdown": markdown,
    "latex": latex,
    "html": html_text,
}
