"""One door in, one door out: every verb takes a team's folder as kept (its runs scored, each other entry
named once with its reason), and every command that prints a table writes it in each style, to standard
output or atomically to ``--out``, with figures to their files only."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from support.cli import run_cli
from support.season import page_tables
from support.statute_data import write_statute_root
from support.team_folders import SKIPPED, write_team_folder

import ir_coliee
from ir_coliee.cli import main
from ir_coliee.outputs.escape import ESCAPERS

T4 = "coliee/task4/2024/test"
STYLES = ("tsv", "csv", "json", "markdown", "latex")


@pytest.fixture
def kept(coliee_home, tmp_path):
    write_statute_root(coliee_home)
    return write_team_folder(tmp_path / "runs")


def assert_skips_named_once(err: str, folder: Path) -> None:
    for entry, reason in SKIPPED.items():
        assert err.count(f"{folder / entry}: skipped: ") == 1, entry
        assert f"{folder / entry}: {reason}" in err
    lines = [line for line in err.splitlines() if "skipped: " in line and "warning" in line]
    assert len(lines) == len(SKIPPED) and max(map(len, lines)) < 400


def cells(out: str, style: str) -> list[list[str]]:
    """The rows of the (first) table of a document in ``style``, read back by that style's reader."""
    lines = [line for line in out.splitlines() if line and not line.startswith(("#", "%"))]
    if style == "csv":
        return list(csv.reader(io.StringIO("\n".join(lines))))
    if style == "markdown":
        rows = [line.strip("|").split(" | ") for line in lines if line.startswith("|")]
        return [[c.strip() for c in row] for row in rows if not set(row[0]) <= set("-:|")]
    if style == "latex":
        body = [line for line in lines if line.endswith("\\\\")]
        return [[c.strip() for c in line.removesuffix("\\\\").split("&")] for line in body]
    return [line.split("\t") for line in lines]


def column(rows: list[list[str]], name: str) -> list[str]:
    return [row[rows[0].index(name)] for row in rows[1:]]


# --- one door in: a team's folder as kept, for every verb ----------------------------------------------


def test_eval_against_a_gold_scores_a_team_folder_and_names_each_skip_once(kept, capsys):
    """Before, a gold with a folder stopped at its first log (exit 2); now as ``eval auto`` does."""
    _, out, err = run_cli(capsys, "eval", T4, kept, "--format", "json")
    runs = {r["path"]: (r["AnswerAccuracy"], r["correct"]) for r in json.loads(out)["runs"]}
    assert runs == {
        str(kept / "teamA" / "R05.task4.A.txt"): (1.0, 2),
        str(kept / "teamA" / "R05.task4.A.formatted"): (1.0, 2),  # a twin, told apart by its name
        str(kept / "teamB" / "R05.task4.B"): (0.5, 1),
    }
    assert_skips_named_once(err, kept)
    assert err.splitlines()[-1] == "ir_coliee: scored 3 runs in 1 table; skipped 6 entries"
    api = ir_coliee.score(T4, [str(kept)]).table
    assert sorted(api["AnswerAccuracy"]) == [0.5, 1.0, 1.0]


def test_eval_auto_compare_and_analyse_take_the_same_folder_the_same_way(kept, capsys, tmp_path):
    _, out, err = run_cli(capsys, "eval", "auto", kept, "--task", "4", "--format", "csv")
    assert sorted(column(cells(out, "csv"), "AnswerAccuracy")) == ["0.5000", "1.0000", "1.0000"]
    assert "scored 3 runs in 1 table; skipped 6 entries" in err
    for entry in SKIPPED:  # auto skips the README and the log by name, the others as every verb
        assert err.count(f"{kept / entry}: skipped: ") == 1
    _, out, err = run_cli(capsys, "compare", T4, kept, "--resamples", "100", "--format", "json")
    assert [r["AnswerAccuracy"] for r in json.loads(out)] == [1.0, 1.0, 0.5]
    assert_skips_named_once(err, kept)
    assert err.splitlines()[-1] == "ir_coliee: compared 3 runs; skipped 6 entries"
    cats = tmp_path / "cats.tsv"
    cats.write_text("R05-01-A party\nR05-01-I land\n")
    _, out, err = run_cli(capsys, "analyse", T4, kept, "--by", cats, "--format", "json")
    groups = json.loads(out)["groups"]
    # party (R05-01-A, Y): A and its twin right, B wrong; all: 1, 1, 1/2
    assert groups[0]["AnswerAccuracy B"] == 0.5 and groups[1]["AnswerAccuracy B"] == 0.0
    assert_skips_named_once(err, kept)
    assert err.splitlines()[-1] == "ir_coliee: analysed 3 runs; skipped 6 entries"
    page = tmp_path / "page.html"
    _, _, err = run_cli(capsys, "report", T4, kept, "--out", page, "--resamples", "100")
    assert_skips_named_once(err, kept)
    assert err.splitlines()[-1] == f"ir_coliee: wrote {page}: 3 runs; skipped 6 entries"
    board = page_tables(page.read_text())["leaderboard"]
    assert sorted(row["AnswerAccuracy"] for row in board) == [0.5, 1.0, 1.0]  # the runs eval scored


def test_benchmark_takes_team_folders_below_a_dataset_id_folder(coliee_home, tmp_path, capsys):
    write_statute_root(coliee_home)
    folder = write_team_folder(tmp_path / "runs" / T4)
    _, out, err = run_cli(
        capsys, "benchmark", tmp_path / "runs", "--resamples", "100", "--format", "json"
    )
    values = {r["system"]: r["value"] for r in json.loads(out)["cells"]}
    assert values == {"A": 1.0, "A.formatted": 1.0, "B": 0.5}
    for entry in ("README.md", "teamA/train.log", "teamB/R05.internal", "teamB/R05.task4.C"):
        assert err.count(f"{folder / entry}: skipped: ") == 1
    assert (
        f"ir_coliee: found 3 runs of 1 benchmarks in {tmp_path / 'runs'}; skipped 6 entries" in err
    )


def test_validate_takes_a_folder_one_row_per_file(kept, capsys):
    """An organiser's intake: each file found gets its verdict (a README is no submission), what the walk
    leaves out is said once on standard error; exit 1 as one file is not valid."""
    _, out, err = run_cli(capsys, "validate", kept, "--task", "4", "--format", "csv", expect=1)
    rows = cells(out, "csv")
    verdicts = {os.path.relpath(r[0], kept): (r[1], r[2]) for r in rows[1:]}
    assert verdicts == {
        "README.md": ("not valid", "1"),
        "teamA/R05.task4.A.formatted": ("valid", "0"),
        "teamA/R05.task4.A.txt": ("valid", "0"),
        "teamA/train.log": ("not valid", "1"),
        "teamB/R05.internal": ("not valid", "2"),
        "teamB/R05.task4.B": ("valid", "0"),
    }
    # an internal file of True/False answers without a tag: the official format's first rule it breaks
    assert column(rows, "findings")[4].startswith("line 1: error: 2 columns; expected 3 columns")
    assert "ir_coliee: validated 6 files: 3 valid, 3 not valid; skipped 3 entries" in err
    for entry in ("teamB/R05.task4.C", "teamC", "teamB/old/R05.task4.B"):
        assert err.count(f"{kept / entry}: skipped: ") == 1
    # one file given itself: its findings and verdict, as before
    _, out, _ = run_cli(capsys, "validate", kept / "teamA" / "R05.task4.A.txt", "--task", "4")
    assert out.endswith("valid as a COLIEE Task 4 submission: 0 errors, 0 warnings\n")


def test_tune_takes_one_run_and_says_so_of_a_folder(kept, capsys):
    _, _, err = run_cli(capsys, "tune", T4, kept, "--task", "4", expect=2)
    assert "tune takes one run;" in err


def test_a_folder_of_nothing_but_logs_is_refused_naming_what_was_skipped(kept, capsys):
    logs = kept / "teamA"
    for name in ("R05.task4.A.txt", "R05.task4.A.formatted"):
        (logs / name).unlink()
    _, _, err = run_cli(capsys, "eval", T4, logs, expect=2)
    assert "no run could be scored (1 skipped)" in err and "train.log" in err


def test_a_manifest_resolves_every_path_against_its_folder(tmp_path, capsys, monkeypatch):
    """The gold file named as BENCHMARK too: from another working folder, as from the manifest's."""
    folder = tmp_path / "paper"
    folder.mkdir()
    (folder / "gold.qrels").write_text("q1 0 a 1\nq2 0 b 1\n")
    (folder / "x.run").write_text("q1 Q0 a 1 2.0 x\nq2 Q0 c 1 1.0 x\n")  # 1 of 2 right
    (folder / "y.run").write_text("q1 Q0 a 1 2.0 y\nq2 Q0 b 1 1.0 y\n")  # 2 of 2
    (folder / "runs.tsv").write_text("gold.qrels\tx\tx.run\ngold.qrels\ty\ty.run\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    args = ["benchmark", folder / "runs.tsv", "--measure", "gold.qrels=P@1", "--format", "json"]
    _, _, err = run_cli(capsys, *args, expect=2)  # --measure names the gold by its resolved path
    assert f"--measure {folder / 'gold.qrels'}=MEASURE" in err
    _, out, _ = run_cli(
        capsys, *args[:2], "--measure", f"{folder / 'gold.qrels'}=P@1", "--format", "json"
    )
    values = {r["system"]: r["value"] for r in json.loads(out)["cells"]}
    assert values == {"x": 0.5, "y": 1.0}


# --- one door out: --format and --out on every command ---------------------------------------------------


def _values(style: str, out: str, name: str, measure: str, key: str = "run") -> str:
    """The value of ``measure`` in the row of ``name``, read back from the document."""
    if style == "json":
        doc = json.loads(out)
        rows = doc if isinstance(doc, list) else doc.get("runs") or doc.get("rows")
        return next(r[measure] for r in rows if r[key] == name)
    rows = cells(out, style)
    shown = ESCAPERS[style](name)  # a path as the style writes it (a _ escaped in LaTeX, Markdown)
    return rows[column(rows, key).index(shown) + 1][rows[0].index(measure)]


@pytest.mark.parametrize("style", STYLES)
def test_eval_compare_and_tune_write_each_style_with_the_apis_values(kept, capsys, style):
    b = kept / "teamB" / "old" / "R05.task4.B"
    a = kept / "teamA" / "R05.task4.A.txt"
    _, out, _ = run_cli(capsys, "eval", T4, a, b, "--format", style)
    value = _values(style, out, "B", "AnswerAccuracy")
    api = ir_coliee.score(T4, [str(a), str(b)]).table.set_index("run")
    assert float(value) == pytest.approx(api.loc["B", "AnswerAccuracy"], abs=5e-5)
    _, out, _ = run_cli(capsys, "compare", T4, a, b, "--resamples", "200", "--format", style)
    value = _values(style, out, "B", "AnswerAccuracy CI low")
    from ir_coliee.scoring.compare import compare_runs

    table = compare_runs(T4, [str(a), str(b)], resamples=200).table  # index: run
    assert float(value) == pytest.approx(table.loc["B", "AnswerAccuracy CI low"], abs=5e-5)


@pytest.mark.parametrize("style", STYLES)
def test_leaderboard_tune_validate_and_data_check_write_each_style(kept, write, capsys, style):
    _, out, _ = run_cli(capsys, "leaderboard", "4", "2024", "--format", style)
    assert float(_values(style, out, "CAPTAIN2", "AnswerAccuracy")) == 0.8257
    gold = write("gold.qrels", "q1 0 a 1\nq1 0 b 1\nq2 0 c 1\n")
    run = write("task3-L.t", "q1 Q0 a 1 0.9 t\nq1 Q0 x 2 0.8 t\nq1 Q0 b 3 0.7 t\nq2 Q0 c 1 0.9 t\n")
    _, out, _ = run_cli(capsys, "tune", gold, run, "--task", "3", "--curve", "--format", style)
    # MacroF2 at cutoff 1: q1 P 1, R 1/2 -> F2 = 5PR / (4P + R) = 5/9; q2: 1; mean 7/9, as the API says
    from ir_coliee.scoring.tune import tune

    points = tune(gold, run, task="3").tuned.points
    assert points[0][1] == pytest.approx((5 / 9 + 1) / 2)
    if style == "json":
        doc = json.loads(out)
        assert (doc["cutoff"], doc["measure"], len(doc["curve"])) == (3, "MacroF2", 3)
        assert doc["curve"][0] == {"cutoff": 1, "MacroF2": pytest.approx(points[0][1])}
    else:
        rows = cells(out, style)
        assert rows[0] == ["cutoff", "MacroF2"] and float(rows[1][1]) == round(points[0][1], 4)
        assert "best rank cutoff: 3 (MacroF2 = 0.9545)" in out
    _, out, _ = run_cli(
        capsys, "validate", kept / "teamB", "--task", "4", "--format", style, expect=1
    )
    internal = str(kept / "teamB" / "R05.internal")
    assert str(_values(style, out, internal, "errors", key="path")) == "2"
    code = main(["data", "check", T4, "--format", style])
    out = capsys.readouterr().out
    assert code == 0
    if style == "json":
        parts = {r["part"] for r in json.loads(out)["rows"] if r["dataset"] == T4}
    elif style == "tsv":  # the plain listing, as it always printed
        parts = {line.split("\t")[1] for line in out.splitlines() if line.startswith(f"{T4}\t")}
    else:
        rows = cells(out, style)
        parts = {r[1] for r in rows[1:] if r[0] == T4}
    assert {"qrels R05", "counts"} <= parts


def test_analyse_and_benchmark_write_each_style(kept, capsys, tmp_path):
    cats = tmp_path / "cats.tsv"
    cats.write_text("R05-01-A party\nR05-01-I land\n")
    b = kept / "teamB" / "old" / "R05.task4.B"
    for style in STYLES:
        _, out, _ = run_cli(capsys, "analyse", T4, b, "--by", cats, "--format", style)
        if style == "json":
            doc = json.loads(out)
            assert (
                doc["measure"] == "AnswerAccuracy" and doc["groups"][0]["AnswerAccuracy B"] == 0.5
            )
        else:  # each table under a title; the histogram's and solved/nothing's name their measure
            assert "histogram: the questions by their mean AnswerAccuracy over the runs" in out
            assert "per question (solved, nothing: the runs whose AnswerAccuracy is 1, 0)" in out
            assert column(cells(out, style), "AnswerAccuracy B")[0] == "0.5000"


def test_out_writes_the_document_whole_to_its_file_and_nothing_to_standard_output(kept, capsys):
    target = kept.parent / "table.json"
    b = kept / "teamB" / "old" / "R05.task4.B"
    for args in (["eval", T4, b], ["leaderboard", "4", "2024"], ["compare", T4, b, b]):
        _, out, _ = run_cli(capsys, *args, "--format", "json", "--out", target)
        assert out == "" and json.loads(target.read_text())
    _, _, err = run_cli(capsys, "eval", T4, b, "--out", kept.parent / "nowhere" / "t", expect=2)
    assert "the folder" in err and "does not exist" in err
    assert not (kept.parent / "nowhere").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["eval", T4, "RUN"],
        ["compare", T4, "RUN", "RUN"],
        ["analyse", T4, "RUN", "--by", "anonymised"],
        ["tune", T4, "RUN"],
        ["leaderboard", "4", "2024"],
        ["validate", "RUN", "--task", "4"],
        ["data", "check"],
        ["benchmark", "RUN"],
    ],
)
def test_an_unknown_style_is_refused_with_exit_2(kept, capsys, args):
    run = kept / "teamB" / "old" / "R05.task4.B"
    with pytest.raises(SystemExit) as refused:
        main([str(run) if a == "RUN" else a for a in args] + ["--format", "xml"])
    assert refused.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


def test_the_api_writers_refuse_an_unknown_style(kept):
    """``BenchmarkResult.write`` wrote TSV for a style it did not know."""
    from ir_coliee.errors import ColieeArgumentError
    from ir_coliee.outputs.tabular import write_rows

    result = ir_coliee.benchmark({T4: {"B": str(kept / "teamB" / "old" / "R05.task4.B")}})
    for write in (
        lambda out: result.write(out, "xml"),
        lambda out: write_rows(["a"], [[1]], out, 4, style="xml"),  # type: ignore[arg-type]
    ):
        out = io.StringIO()
        with pytest.raises(ColieeArgumentError, match="style: one of tsv, csv, json"):
            write(out)
        assert out.getvalue() == ""


@pytest.mark.parametrize("style", ["csv", "latex", "json"])
def test_a_plot_goes_to_its_file_and_never_to_standard_output(kept, capsys, tmp_path, style):
    pytest.importorskip("matplotlib")
    a, b = kept / "teamA" / "R05.task4.A.txt", kept / "teamB" / "old" / "R05.task4.B"
    cats = tmp_path / "cats.tsv"
    cats.write_text("R05-01-A party\nR05-01-I land\n")
    for args in (
        ["compare", T4, a, b, "--resamples", "100"],
        ["analyse", T4, a, b, "--by", cats],
    ):
        png = tmp_path / f"{args[0]}.png"
        _, out, err = run_cli(capsys, *args, "--format", style, "--plot", png)
        assert png.read_bytes()[:4] == b"\x89PNG" and f"plot: {png}\n" in err
        assert "plot" not in out and str(png) not in out
        if style == "json":
            json.loads(out)  # the document alone
        elif style == "csv":
            assert all(len(r) > 1 for r in csv.reader(io.StringIO(out)) if r and r[0][:1] != "#")
