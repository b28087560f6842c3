"""Every name from a file, whatever its characters, comes back whole from each output format read by its own
parser: the csv module (TSV and CSV), a Markdown renderer, an HTML parser, and a strict LaTeX reader (the
tabular's rows, cells and the commands the escaper writes, nothing else)."""

from __future__ import annotations

import csv
import html.parser
import io
import re

import markdown as markdown_renderer
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ir_coliee.outputs.escape import html_text, latex
from ir_coliee.outputs.tabular import write_rows

#: Names of every Unicode category (surrogates aside: no file read as text holds one), with the characters
#: each format gives a meaning to drawn often.
SPECIAL = "\t\n\r\x1b\x85\u2028\u202e\\|*_`[]<>&=+-@'\"#$%^~{}!. "
names = st.text(st.one_of(st.characters(), st.sampled_from(SPECIAL)), max_size=12)
HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "[x](javascript:1)",
    "a\tb",
    "=1+2",
    "\x1b[31mred",
    " x ",
]
_ESCAPE = re.compile(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|t|n|\\)")


def decoded(shown: str) -> str:
    """A name from the one-line form the outputs show (the escapes of controls, tabs, line ends and
    backslashes undone)."""

    def one(m: re.Match) -> str:
        code = m[1]
        return {"t": "\t", "n": "\n", "\\": "\\"}.get(code) or chr(int(code[1:], 16))

    return _ESCAPE.sub(one, shown)


def unguarded(cell: str) -> str:
    """A spreadsheet cell's text: a leading ``'`` marks text, and is no part of it."""
    return cell[1:] if cell.startswith("'") else cell


def table(style: str, name: str) -> str:
    out = io.StringIO()
    write_rows([name, "n"], [[name, 0.5], ["x", 2]], out, 2, style=style)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(names)
@example("")
@example("'=1")
def test_tsv_and_csv_read_back_by_the_csv_module(name):
    for style, dialect in (("tsv", "excel-tab"), ("csv", "excel")):
        text = table(style, name)
        assert text.count("\n") == 3 and "\r" not in text
        rows = list(
            csv.reader(io.StringIO(text), dialect, quoting=csv.QUOTE_NONE if style == "tsv" else 0)
        )
        assert [len(r) for r in rows] == [2, 2, 2]
        assert decoded(unguarded(rows[0][0])) == name == decoded(unguarded(rows[1][0]))
        assert rows[1][1] == "0.50" and rows[2] == ["x", "2"]  # numbers as they were
        assert (
            not rows[1][0].startswith(tuple("=+-@")) or rows[1][0][1:] == "" or _number(rows[1][0])
        )


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class _Cells(html.parser.HTMLParser):
    """The text of each cell of a rendered table, and every tag seen."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[str] = []
        self.tags: set[str] = set()
        self.open = False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag in ("td", "th"):
            self.cells.append("")
            self.open = True

    def handle_endtag(self, tag):
        self.open = self.open and tag not in ("td", "th")

    def handle_data(self, data):
        if self.open:
            self.cells[-1] += data


def rendered(html_text_: str) -> _Cells:
    parser = _Cells()
    parser.feed(html_text_)
    parser.close()
    return parser


@settings(max_examples=300, deadline=None)
@given(names)
@example(HOSTILE[0])
@example(HOSTILE[1])
def test_markdown_renders_the_name_as_text(name):
    page = rendered(markdown_renderer.markdown(table("markdown", name), extensions=["tables"]))
    assert page.tags <= {"table", "thead", "tbody", "tr", "th", "td"}  # no tag, link or emphasis
    assert len(page.cells) == 6 and page.cells[1::2] == ["n", "0.50", "2"]
    assert decoded(page.cells[0]) == name == decoded(page.cells[2])


@settings(max_examples=300, deadline=None)
@given(names)
@example(HOSTILE[0])
def test_html_reads_back_as_the_name(name):
    page = rendered(f'<table><tr><td title="{html_text(name)}">{html_text(name)}</td></tr></table>')
    assert page.tags == {"table", "tr", "td"} and decoded(page.cells[0]) == name


# --- LaTeX: a strict reader of what the tabular writer and the escaper write ------------------------------

#: What the escaper writes for a character of LaTeX's, and the character it typesets.
_LATEX_READ = {
    **{f"\\{c}": c for c in "&%$#_{}"},
    "\\textbackslash{}": "\\",
    "\\textasciitilde{}": "~",
    "\\textasciicircum{}": "^",
    "{[}": "[",
    "{]}": "]",
    "{*}": "*",
    "$<$": "<",
    "$>$": ">",
    "$|$": "|",
    "$^\\dagger$": "†",
    "$^\\ddagger$": "‡",
}
_LATEX_TOKEN = re.compile("|".join(map(re.escape, sorted(_LATEX_READ, key=len, reverse=True))))
#: Characters with a meaning to LaTeX: outside the escapes above, none may be in a cell.
_LATEX_ACTIVE = set("\\{}$&%#^_~[]<>|*")


def latex_cells(text: str) -> list[list[str]]:
    """The cells of a booktabs tabular, each read back to the text it typesets; an ``AssertionError`` on
    anything a strict reader would not take: a row that is not one line ending in ``\\\\``, a cell holding
    a character of LaTeX's outside the escapes, a row that starts with ``[`` or ``*`` (read as an argument
    of the ``\\\\`` before it)."""
    lines = text.split("\n")
    assert lines[:2] == [lines[0], "\\toprule"] and lines[0].startswith("\\begin{tabular}{")
    assert lines[-3:] == ["\\bottomrule", "\\end{tabular}", ""] and lines[3] == "\\midrule"
    rows = []
    for line in [lines[2], *lines[4:-3]]:
        assert line.endswith(" \\\\") and not line.startswith(("[", "*"))
        cells = []
        for cell in _LATEX_TOKEN.sub(lambda m: "\0" + m[0] + "\0", line[: -len(" \\\\")]).split(
            " & "
        ):
            parts = cell.split("\0")  # plain text and escapes, alternately
            assert not any(c in _LATEX_ACTIVE for c in "".join(parts[::2])), cell
            cells.append("".join(p if i % 2 == 0 else _LATEX_READ[p] for i, p in enumerate(parts)))
        rows.append(cells)
    return rows


@settings(max_examples=300, deadline=None)
@given(names)
@example("[2pt] x")
@example("a < b & c")
def test_latex_reads_back_as_the_name(name):
    rows = latex_cells(table("latex", name))
    assert rows[1:] == [[rows[1][0], "0.50"], ["x", "2"]]
    assert decoded(rows[0][0]) == name == decoded(rows[1][0])


def test_a_caption_or_note_is_latex_text_too():
    assert latex("* p < 0.05 [x]") == "{*} p $<$ 0.05 {[}x{]}"


@pytest.mark.filterwarnings("ignore:Glyph")  # a character the font lacks is drawn as a box
@settings(max_examples=20, deadline=None)
@given(st.lists(names, min_size=1, max_size=3, unique=True))
@example(["a$^$b", "$\\frac{1}{0}$"])
def test_names_in_a_figure_are_labels_never_math(tmp_path_factory, runs):
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from ir_coliee.scoring.compare import plot_intervals

    frame = pd.DataFrame(
        {"F": [0.5] * len(runs), "F CI low": [0.4] * len(runs), "F CI high": [0.6] * len(runs)},
        index=runs,
    )
    path = tmp_path_factory.mktemp("plot") / "f.svg"
    assert plot_intervals(frame, "F", str(path)) == str(path)  # drawn: no label parsed as math
    assert path.read_text().lstrip().startswith("<?xml")


# --- every verb, every style: hostile names from files read back whole -----------------------------------

#: A file name that holds a tab, a terminal escape, HTML, Markdown and LaTeX's specials, a formula start.
HOSTILE_NAME = "=x\t\x1b[31m<img src=x onerror=alert(1)>_*[1pt]|$&%#"


@pytest.mark.parametrize("style", ["tsv", "csv", "markdown", "latex"])
@pytest.mark.parametrize("verb", ["eval", "compare", "analyse"])
def test_hostile_file_names_in_every_verb_and_style(tmp_path, capsys, verb, style):
    from support.cli import GOLD_T1, RUN_T1

    from ir_coliee.cli import main

    gold = tmp_path / "g.json"
    gold.write_text(GOLD_T1)
    runs = [tmp_path / f"task1.{HOSTILE_NAME}", tmp_path / "task1.plain"]
    for run in runs:
        run.write_text(RUN_T1)
    (tmp_path / f"{HOSTILE_NAME}.cat").write_text("000001 <b>long</b>\n000002 =short\n000003 [x]\n")
    extra = {
        "eval": ["--task", "1"],
        "compare": ["--task", "1", "--resamples", "50"],
        "analyse": ["--task", "1", "--by", str(tmp_path / f"{HOSTILE_NAME}.cat")],
    }[verb]
    assert main([verb, str(gold), *map(str, runs), *extra, "--format", style]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and out.count("\n") == len(out.splitlines())
    tables = out.split("\n\n")  # analyse: several tables, a blank line between them
    checked = 0
    for text in tables:
        lines = [line for line in text.splitlines() if line and not line.startswith(("# ", "% "))]
        text = "\n".join(lines) + "\n"  # (analyse's titles aside: "# groups", "### groups")
        if style == "tsv":
            assert len({line.count("\t") for line in lines}) == 1, text
        elif style == "csv":
            assert len({len(r) for r in csv.reader(io.StringIO(text))}) == 1, text
        elif style == "markdown":
            page = rendered(markdown_renderer.markdown(text, extensions=["tables"]))
            assert page.tags <= {"table", "thead", "tbody", "tr", "th", "td", "p", "h3"}, text
        elif text.startswith("\\begin{tabular}"):
            table_text = text[: text.index("\\end{tabular}") + len("\\end{tabular}\n")]
            assert len({len(row) for row in latex_cells(table_text)}) == 1
        checked += style != "latex" or text.startswith("\\begin{tabular}")
    assert checked == len(tables)
    assert HOSTILE_NAME.split("\t")[0] in "".join(tables) or style != "tsv"
