"""The generated reference pages are committed and current."""

from __future__ import annotations

import re

import pytest
from support import ROOT
from support.cases import default_columns

from ir_coliee import ColieeError
from ir_coliee.docgen import PAGES, filled
from ir_coliee.model import OFFICIAL

DOCS = ROOT / "docs"


@pytest.mark.parametrize("name", sorted(PAGES))
def test_generated_page_is_current(name):
    page = (DOCS / name).read_text(encoding="utf-8")
    assert page == filled(name, page), f"docs/{name} is stale: run python -m ir_coliee.docgen docs/"


def test_a_generated_block_is_made_anew_and_the_prose_kept():
    page = "# Official\n\nprose\n<!-- official -->stale<!-- /official -->\nmore prose\n"
    made = filled("official.md", page)
    assert (
        made.startswith("# Official\n\nprose\n<!-- official -->\n| task | editions |")
        and "stale" not in made
    )
    first = OFFICIAL[0]  # read from the model: a new edition needs no edit here
    row = f"| {first.task} | {first.span()} | {', '.join(f'`{m}`' for m in first.measures)} |"
    assert made.endswith("<!-- /official -->\nmore prose\n") and row in made


@pytest.mark.parametrize(
    "page", ["no block\n", "<!-- official --><!-- /official --><!-- official --><!-- /official -->"]
)
def test_a_page_without_its_block_or_with_it_twice_is_refused(page):
    with pytest.raises(ColieeError, match="expected each of \\['official'\\] once"):
        filled("official.md", page)


def test_measures_page_names_every_measure_and_the_f2_trap():
    page = (DOCS / "measures.md").read_text(encoding="utf-8")
    for name in ("MicroF1", "MacroF2", "AnswerAccuracy"):
        assert f"`{name}`" in page
    assert "SetF(beta=4.0)" in page and "not F2" in page


def run_page(name: str) -> str:
    """Every python block of a docs page, in order, in a fresh process (the pages set COLIEE_HOME)."""
    import re
    import subprocess
    import sys

    code = "\n".join(
        re.findall(r"```python\n(.*?)```", (DOCS / name).read_text(encoding="utf-8"), re.S)
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_pyterrier_tutorial_runs_end_to_end():
    out = run_page("tutorial.md")
    assert "10 fragments, 120 candidate paragraphs" in out
    # five cases a query with the query case dropped and ranks renumbered: 33 of 100 retrieved are relevant,
    # of 40 relevant: P = 33/100, R = 33/40, F1 = 2PR/(P+R) = 66/140 = 0.4714 (checked inside against score)
    assert "PISA BM25 top 5: MicroF1 = 0.4714" in out
    # the top case of each query is kept once its own case is removed (not a silent 0.0000)
    assert re.search(r"BM25 top 1\s+0\.25\s", out)
    # the experiment with batches, saved runs and reuse prints what the page shows (checked inside: reuse ran
    # nothing, the p-value read back is the first one's)
    page = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    shown = re.search(r"```text\n(batches: .*?)```", page, re.S)[1]
    assert shown in out and "BM25 top 5   0.4714       14.0        5.0           0.0005" in shown


def test_benchmark_page_runs_its_grid_on_the_sample_release():
    """The page asserts inside that each value and raw p-value equals the benchmark scored alone; here:
    the sample's Task 1 values (BM25 top 5: 8 of 25 retrieved relevant, 8 of 10 found) and the paper rows."""
    out = run_page("benchmark.md")
    assert re.search(r"coliee/task1/2025/test\s+MicroP\s+0\.3200\s+0\.3000", out)
    assert re.search(r"MicroR\s+0\.8000\s+0\.1500", out)
    # the paper table the page shows is the one its code prints (Markdown rows and the whole LaTeX)
    page = (DOCS / "benchmark.md").read_text(encoding="utf-8")
    shown = page.split("prints (the Markdown as it renders, then the LaTeX):")[1].split(
        "## From the shell"
    )[0]
    rows = [line for line in shown.splitlines() if line.startswith("|")]
    assert len(rows) == 5 and all(f"{row}\n" in out for row in rows)
    latex = re.search(r"```latex\n(.*?)```", shown, re.S)[1]
    assert latex in out and "\\multicolumn{4}{c}{T1 2025$^\\ddagger$}" in latex
    # BM25@1: F1 = 2 (3/10)(3/20) / (3/10 + 3/20) = 1/5, significant on Task 1's headline; toy MicroF1: of 4
    # retrieved, 2 right (q1 d1, q2 d3) of 4 relevant = 1/2; mean MicroF1 of bm25 (0.4571 + 0.5) / 2
    assert "| BM25@1 | 0.3000 | 0.1500 | 0.2000† | 2 | 0.2857 | 0.3333 | 2 | 0.2429 |" in out
    assert "| **0.5000** | **0.6667** | 1 | **0.4786** |" in out
    assert "| bm25top1 | 0.3000 | 0.1500 | 0.2000† | 2 |" in out  # the command's, from the manifest
    # the PyTerrier experiment, saved and reused (checked inside: its p-value is benchmark's raw one, the saved
    # table's, and the reused call's), prints what the page shows
    experiment = re.search(r"```text\n(      name  MicroF1.*?)```", page, re.S)[1]
    assert experiment in out and "bm25 top 1   0.2000           0.0005" in experiment


def test_the_analyses_page_rebuilds_the_overview_tables_on_the_sample_release():
    """The page asserts inside that a group's values equal scoring the group alone; here the table shapes:
    20 questions with one relevant article and 20 with two, and the answers per category beside the
    baseline (the sample's 40 answers are 20 Y and 20 N: the tie goes to N, so always N is the baseline)."""
    out = run_page("analyse.md")
    assert re.search(r"^\s+1\s+20\s", out, re.M) and re.search(r"^\s+2\s+20\s", out, re.M)
    assert "the multiple-article group scored alone: equal" in out
    assert "questions no run retrieves anything relevant for: 5" in out
    assert "| all | all | 40 | 0.5000 | 0.5000 | 0.5000 | 0.5000 |" in out
    assert "| categories.tsv | first | 10 | 0.6000 | 0.4000 | 0.5000 | 0.4000 |" in out


def test_compare_example_runs_on_the_sample_release():
    out = run_page("compare.md")
    assert "best:" in out and "MicroF1 p-value (holm)" in out


def test_scoring_example_runs_on_the_sample_release():
    out = run_page("scoring.md")
    lines = out.splitlines()
    assert lines[0].split() == ["run", "MacroF2", "MacroP", "MacroR", "tp", "retrieved", "relevant"]
    assert [line.split()[0] for line in lines[1:3]] == ["bm25", "top1"]
    assert "refused: " in out and "holds answers lines" in out
    assert "AnswerAccuracy" in out and "correct" in out


def test_the_season_page_runs_every_workflow_on_the_sample_release():
    out = run_page("season.md")
    assert "coliee/task1/2025/test\tcomplete" in out
    assert "valid as a COLIEE Task 1 submission: 0 errors" in out
    header = ["rank", "run", *default_columns("1", 2025), "tp", "retrieved", "relevant", "path"]
    assert "\t".join(header) in out
    assert "leaderboard: COLIEE 2025 Task 1, by MicroF1 (partial table: 6 published rows)" in out
    assert "| run | baseline | MicroP |" in out


def test_every_page_is_in_the_site_navigation():
    nav = (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted(p.name for p in DOCS.glob("*.md")):
        assert page in nav, page


def test_architecture_recipes_run_as_written():
    """An edition, a format, a measure and a command, each added as docs/architecture.md says."""
    assert run_page("architecture.md").splitlines() == ["1, 2, 3, 4, 5, pilot"]


def _passing_with(change: str, files: list[str]) -> str:
    """What pytest prints for ``files`` in a fresh interpreter, with the model changed as ``change`` (an
    environment variable tests/conftest.py reads) and no licensed data; they must pass unedited."""
    import os
    import subprocess
    import sys

    env = {**os.environ, change: "1"}
    env.pop("COLIEE_HOME", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *files],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout
    return done.stdout


def test_a_new_edition_needs_no_test_edit():
    """The edition recipe applied before the tests that count editions, datasets and Civil Codes: they read
    their totals from the model, so they pass as they are (the whole suite does; these are the counting ones)."""
    counting = [
        "tests/data/test_catalog.py",
        "tests/data/test_datasets.py",
        "tests/data/test_check.py",
    ]
    out = _passing_with("IR_COLIEE_TEST_NEW_EDITION", counting)
    assert "COLIEE editions in the model: 2018-2027" in out


def test_a_new_default_measure_breaks_no_test_about_something_else():
    """nDCG@10 added to Task 1's default measures before the tests that print Task 1's default tables:
    they read the default columns from the model (or name the measures they are about), so they pass."""
    printing = [
        "tests/cli/test_cli.py",
        "tests/cli/test_manners.py",
        "tests/cli/test_workflows.py",
        "tests/data/test_catalog.py",
        "tests/hosts/test_register.py",
        "tests/scoring/test_benchmark.py",
        "tests/scoring/test_score.py",
        "tests/table/test_hostile_corpus.py",
        "tests/test_errors.py",
    ]
    _passing_with("IR_COLIEE_TEST_NEW_DEFAULT", printing)


def test_every_ir_measures_expression_in_the_docs_parses():
    """ir_measures 0.4.3 takes SetF(beta=2.0) and refuses SetF(beta=2): the docs write what it takes."""
    import re

    import ir_measures

    written = {
        m
        for page in DOCS.glob("*.md")
        for m in re.findall(r"SetF\([^)`]*\)", page.read_text(encoding="utf-8"))
    }
    assert written
    for expression in written:
        ir_measures.parse_measure(expression)


def test_the_quick_start_examples_run_on_files_shaped_like_the_real_ones(coliee_home, tmp_path):
    """docs/index.md, as written, on a synthetic data root in the official layouts and a Task 3 run."""
    import os
    import subprocess
    import sys

    from support.statute_data import write_statute_root

    write_statute_root(coliee_home)
    (tmp_path / "task3.MYRUN").write_text(
        "R05-01-A 213-2 MYRUN\nR05-01-I 3-2 MYRUN\nR05-01-I 1 MYRUN\n"
    )
    code = "\n".join(
        re.findall(r"```python\n(.*?)```", (DOCS / "index.md").read_text(encoding="utf-8"), re.S)
    )
    code += "\nprint(sorted(report.table['MacroF2'].round(4)))\n"
    env = {**os.environ, "COLIEE_HOME": str(coliee_home)}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env
    )
    assert result.returncode == 0, result.stderr[-3000:]
    # per question F2: R05-01-A 1; R05-01-I P 1/2, R 1/2 -> 1/2; mean 3/4
    assert result.stdout.strip().splitlines()[-1] == "[0.75]"


def test_a_page_that_cannot_be_written_is_one_line(tmp_path, monkeypatch, capsys):
    import errno
    import shutil

    import ir_coliee.docgen
    from ir_coliee.docgen.__main__ import main

    for name in PAGES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DOCS / name, tmp_path / name)

    def read_only(path):  # as atomic_output refuses a read-only page (root may write any)
        raise PermissionError(errno.EACCES, "cannot write (permission denied)", str(path))

    monkeypatch.setattr(ir_coliee.docgen, "atomic_output", read_only)
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"ir_coliee.docgen: {tmp_path}")
    assert err.endswith(": cannot write (permission denied)\n") and "Traceback" not in err
    monkeypatch.undo()
    assert main([str(tmp_path)]) == 0  # the pages are current: written as they were
    assert all((tmp_path / n).read_text() == (DOCS / n).read_text() for n in PAGES)
