"""Every name from a file, whatever its characters, comes back whole from each output format read by its own
parser: the csv module (TSV and CSV), a Markdown renderer, an HTML parser, and a strict LaTeX reader (the
tabular's rows, cells and the commands the escaper writes, nothing else)."""

from __future__ import annotations

import csv
import html.parser
import io
import os
import re

import markdown as markdown_renderer
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from ir_coliee.outputs.escape import html_text, latex
from ir_coliee.outputs.tabular import write_rows

#: Names of every Unicode category, lone surrogates too (a file name that is not UTF-8, as os.fsdecode
#: gives it), with the characters each format gives a meaning to drawn often.
SPECIAL = "\t\n\r\x1b\x85\u2028\u202e\\|*_`[]<>&=+-@'\"#$%^~{}!. "
SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)
names = st.text(st.one_of(st.characters(), st.sampled_from(SPECIAL), SURROGATES), max_size=12)
#: Names a pandas frame holds (pandas 3's Arrow strings refuse a lone surrogate).
frame_names = st.text(st.one_of(st.characters(), st.sampled_from(SPECIAL)), max_size=12)
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
    out.getvalue().encode("utf-8")  # a lone surrogate as its escape: the document can be saved
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
@example("~~s~~ $x$")
def test_markdown_renders_the_name_as_text(name):
    text = table("markdown", name)
    for page in (
        rendered(markdown_renderer.markdown(text, extensions=["tables"])),
        rendered(GFM.render(text)),  # GitHub's: strikethrough too
    ):
        assert page.tags <= {
            "table",
            "thead",
            "tbody",
            "tr",
            "th",
            "td",
        }  # no tag, link or emphasis
        assert len(page.cells) == 6 and page.cells[1::2] == ["n", "0.50", "2"]
        assert decoded(page.cells[0]) == name == decoded(page.cells[2])
    assert not {"~", "$"} & set(text)  # GitHub's math ($x$) is no tag: nothing for it to read


GFM = MarkdownIt("gfm-like", {"linkify": False})


@settings(max_examples=300, deadline=None)
@given(names)
@example(HOSTILE[0])
def test_html_reads_back_as_the_name(name):
    page = rendered(f'<table><tr><td title="{html_text(name)}">{html_text(name)}</td></tr></table>')
    assert page.tags == {"table", "tr", "td"} and decoded(page.cells[0]) == name


@settings(max_examples=300, deadline=None)
@given(names)
@example("\x1b[31m\u202e\t\n<b>")
def test_the_results_page_writes_names_in_the_one_line_form(name):
    from ir_coliee.outputs import html

    text = html.table(name, name, [name, "n"], [[name, 0.5]]) + html.figure("<svg >", name, name)
    text.encode("utf-8")
    assert not set(text) & set("\t\n\x1b\u202e\u2028")  # no raw control, line end or bidi mark
    page = rendered(text)
    assert page.tags == {
        "div",
        "table",
        "caption",
        "thead",
        "tr",
        "th",
        "tbody",
        "td",
        "figure",
        "svg",
        "figcaption",
    }
    assert decoded(page.cells[0]) == name == decoded(page.cells[2])


@settings(max_examples=300, deadline=None)
@given(names.filter(bool))
@example("a\nb.txt")
def test_messages_name_a_file_on_one_line(name):
    from ir_coliee.errors import ColieeFormatError, Finding, grouped

    said = [str(ColieeFormatError(name, 3, "bad")), str(Finding("error", name, 2, "bad"))]
    said += grouped([Finding("error", name, n, "bad", "r") for n in range(9)])
    ends = [":3: bad", ":2: error: bad", *[f":{n}: error: bad" for n in range(5)]]
    ends.append(": error: ... and 4 more like these (9 in all)")
    for line, end in zip(said, ends, strict=True):
        line.encode("utf-8")  # a lone surrogate as its escape
        assert not set(line) & set("\n\r\x85\u2028\u2029") and line.endswith(end)
        assert decoded(line[: -len(end)]) == name


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
@given(st.lists(frame_names, min_size=1, max_size=3, unique=True))
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


#: A data root that holds a tab, a line end, HTML, Markdown's strikethrough and math, LaTeX's specials and
#: a formula start.
HOSTILE_ROOT = "<img src=x onerror=alert(1)>\t[x|$a$~~s~~\n=1"


@pytest.mark.parametrize("style", ["tsv", "csv", "markdown", "latex"])
def test_data_check_writes_a_hostile_data_root_as_every_name(tmp_path, monkeypatch, capsys, style):
    import shutil
    from pathlib import Path

    import ir_coliee
    from ir_coliee.cli import main
    from ir_coliee.data.locator import refresh

    release = Path(ir_coliee.__file__).parent / "sample" / "release"
    root = tmp_path / HOSTILE_ROOT
    shutil.copytree(release / "task1_test_files_2025", root / "task1_test_files_2025")
    shutil.copy(release / "task1_test_labels_2025.json", root)
    monkeypatch.setenv("COLIEE_HOME", str(root))
    refresh()
    try:
        main(["data", "check", "--all", "--format", style])
    finally:
        refresh()
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == out.count("\n") and sum("onerror" in line for line in lines) > 2
    if style in ("tsv", "csv"):
        rows = list(csv.reader(lines[1:], "excel-tab" if style == "tsv" else "excel"))
        assert {len(r) for r in rows} == {3} and not any(r[2].startswith("=") for r in rows)
        assert lines[0].count("\t") == 0 and decoded(lines[0].split(": ", 1)[1]) == str(root)
    elif style == "markdown":
        for page in (
            rendered(GFM.render(out)),
            rendered(markdown_renderer.markdown(out, extensions=["tables"])),
        ):
            assert page.tags <= {"table", "thead", "tbody", "tr", "th", "td", "p"}
    else:
        assert (
            lines[0].startswith("% data root: ")
            and len(latex_cells("\n".join(lines[1:]) + "\n")[0]) == 3
        )


def test_a_file_name_that_is_not_utf8_is_shown_as_its_escape(write, tmp_path, capsys):
    from support.cli import GOLD_T1, RUN_T1

    from ir_coliee.cli import main

    gold = write("g.json", GOLD_T1)
    run = os.fsdecode(os.fsencode(tmp_path) + b"/t1_\xff.txt")  # as a shell's glob gives it
    with open(run, "w") as f:
        f.write(RUN_T1)
    for style in ("tsv", "csv", "markdown", "latex", "json"):
        out = tmp_path / f"x.{style}"
        assert main(["eval", gold, run, "--task", "1", "--format", style, "--out", str(out)]) == 0
        assert "udcff" in out.read_text()
    assert main(["eval", gold, run, "--task", "1"]) == 0
    assert "t1_\\udcff.txt" in capsys.readouterr().out


def test_a_file_name_that_is_not_utf8_is_held_by_the_tables_of_many_runs(write, tmp_path, capsys):
    """Pandas' Arrow strings refuse a lone surrogate: a folder's table, and the page, failed."""
    from support.cli import GOLD_T1, RUN_T1, run_cli

    gold, other = write("g.json", GOLD_T1), write("t1_B.txt", RUN_T1.replace("univABC", "univB"))
    folder = os.fsencode(tmp_path / "bad")
    os.mkdir(folder)
    run = os.fsdecode(os.path.join(folder, b"t1_\xff\xfe.txt"))
    with open(run, "w") as f:
        f.write(RUN_T1)
    _, out, _ = run_cli(capsys, "eval", "--task", "1", gold, os.fsdecode(folder), other)
    # each run: P 2/3, R 2/4, F1 4/7; the path column shows the name's escape
    assert "\t0.6667\t0.5000\t0.5714\t2\t3\t4\t" in out
    assert out.count("bad/t1_\\udcff\\udcfe.txt\n") == 1
    page = tmp_path / "o.html"
    run_cli(capsys, "report", "--task", "1", "--out", page, gold, run, other)
    assert "t1_\\udcff\\udcfe.txt" in page.read_text()


def test_validate_names_a_file_once_in_a_folder_table(tmp_path, capsys):
    from ir_coliee.cli import main

    (tmp_path / "hn").mkdir()
    (tmp_path / "hn" / "t1_bad\nz.txt").write_text("000001 000010 univABC\n" * 2)
    assert main(["validate", "--task", "1", str(tmp_path / "hn")]) == 0
    row = capsys.readouterr().out.splitlines()[1].split("\t")
    assert row[0].endswith("hn/t1_bad\\nz.txt") and row[1:] == [
        "valid",
        "0",
        "1",
        "line 2: warning: duplicate of line 1: counted once",
    ]


def test_validate_shows_a_file_name_on_one_line(tmp_path, capsys):
    from ir_coliee.cli import main

    run = tmp_path / "t1_a\nb.txt"
    run.write_text("000001 000010 univABC\n000001 000010 univABC\n")
    assert main(["validate", "--task", "1", str(run)]) == 0
    shown = str(tmp_path / "t1_a\\nb.txt")
    assert capsys.readouterr().out.splitlines() == [
        f"{shown}:2: warning: duplicate of line 1: counted once",
        f"{shown}: valid as a COLIEE Task 1 submission: 0 errors, 1 warning",
    ]


def test_standard_input_is_named_as_a_dash_in_tsv_and_csv(tmp_path, monkeypatch, capsys):
    """A lone "-" (a run read from standard input) is no formula: written as it is, where "-x" is guarded."""
    import io

    from ir_coliee.cli import main
    from ir_coliee.outputs.escape import plain

    assert plain("-") == "-"
    assert plain("-x") == "'-x"
    assert plain("-0.5") == "-0.5"
    gold = tmp_path / "gold.qrels"
    gold.write_text("001 0 002 1\n")
    for style in ("tsv", "csv"):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"001 002 t\n")))
        assert main(["eval", str(gold), "-", "--task", "1", "--format", style]) == 0
        last = capsys.readouterr().out.splitlines()[-1]
        assert last.split("\t" if style == "tsv" else ",")[-1] == "-"
