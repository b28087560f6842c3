"""``ir_coliee analyse`` end to end on a statute package shaped like a release and folders of run files:
the printed values, the plot, and clean errors (exit 2) on bad groupings."""

from __future__ import annotations

import json
import re

import pytest
from support.cli import run_cli
from support.statute_data import write_analysed_exam


@pytest.fixture
def runs(coliee_home, tmp_path):
    """The R05 exam of support.statute_data.ANALYSED, and a folder of Task 3 runs in TREC (one in a team's
    sub-folder) and of Task 4 answer files."""
    write_analysed_exam(coliee_home)
    folder = tmp_path / "runs"
    (folder / "team").mkdir(parents=True)
    # bm25: A retrieves 1 and 9 (F2 5/6), I retrieves 2 (5/9), U and E nothing relevant (0)
    (folder / "R05.task3.bm25").write_text(
        "R05-01-A Q0 1 1 2.0 bm25\nR05-01-A Q0 9 2 1.0 bm25\nR05-01-I Q0 2 1 1.0 bm25\n"
        "R05-02-U Q0 9 1 1.0 bm25\nR05-02-E Q0 724-2 1 1.0 bm25\n"
    )
    # top: A, I and U solved (1), E: P 1, R 1/3 (5/13)
    (folder / "team" / "R05.task3.top").write_text(
        "R05-01-A Q0 1 1 2.0 top\nR05-01-I Q0 2 1 1.0 top\nR05-01-I Q0 3 2 0.5 top\n"
        "R05-02-U Q0 3-2 1 1.0 top\nR05-02-E Q0 1 1 1.0 top\n"
    )
    answers = tmp_path / "answers"
    answers.mkdir()
    # gold Y, N, N, N: yes right on A only, mixed right on A, I, U
    (answers / "R05.task4.yes").write_text(
        "R05-01-A Y yes\nR05-01-I Y yes\nR05-02-U Y yes\nR05-02-E Y yes\n"
    )
    (answers / "R05.task4.mixed").write_text(
        "R05-01-A Y mixed\nR05-01-I N mixed\nR05-02-U N mixed\nR05-02-E Y mixed\n"
    )
    (tmp_path / "cats.tsv").write_text("R05-01-A\tparty\nR05-02-E\tparty\tland\nR05-01-I\tland\n")
    return tmp_path


def lines(out: str) -> list[list[str]]:
    return [line.split("\t") for line in out.splitlines()]


def test_statute_runs_from_a_folder_grouped_two_ways(capsys, runs):
    _, out, _ = run_cli(
        capsys,
        "analyse",
        "coliee/task3/2024/test",
        runs / "runs",
        "--by",
        "single-multiple",
        "--by",
        "anonymised",
    )
    table = lines(out)
    assert table[1] == ["by", "group", "questions", "MacroF2 bm25", "MacroF2 top", "MacroF2 mean"]
    # all: bm25 (5/6 + 5/9)/4 = 25/72 = 0.3472; top (3 + 5/13)/4 = 0.8462
    assert ["all", "all", "4", "0.3472", "0.8462", "0.5967"] in table
    # single (A, U): bm25 5/12 = 0.4167, top 1; multiple (I, E): bm25 5/18 = 0.2778, top (1 + 5/13)/2 = 0.6923
    assert ["single-multiple", "single", "2", "0.4167", "1.0000", "0.7083"] in table
    assert ["single-multiple", "multiple", "2", "0.2778", "0.6923", "0.4850"] in table
    # anonymised (A, U, E): bm25 5/18, top (2 + 5/13)/3 = 0.7949; other (I): 5/9, 1
    assert ["anonymised", "anonymised", "3", "0.2778", "0.7949", "0.5363"] in table
    assert ["anonymised", "other", "1", "0.5556", "1.0000", "0.7778"] in table
    # the questions' means: A 0.92, I 0.78, U 0.5, E 0.19
    assert ["all", "all", "0", "1", "0", "0", "0", "1", "0", "1", "0", "1"] in table
    assert ["R05-02-U", "single", "anonymised", "0.0000", "1.0000", "0.5000", "1", "1"] in table


def test_answers_by_category_with_the_baseline_and_a_plot(capsys, runs):
    png = runs / "analysis.png"
    args = [
        "analyse",
        "coliee/task4/2024/test",
        runs / "answers",
        "--by",
        runs / "cats.tsv",
        "--format",
        "markdown",
    ]
    _, out, err = run_cli(capsys, *args, "--plot", png)
    assert (
        "| by | group | questions | AnswerAccuracy mixed | AnswerAccuracy yes | AnswerAccuracy mean | baseline (N) |"
        in out
    )
    # party (A, E): mixed 1/2, yes 1/2, baseline N 1/2; land (E, I): mixed 1/2, yes 0, baseline 1
    assert "| cats.tsv | party | 2 | 0.5000 | 0.5000 | 0.5000 | 0.5000 |" in out
    assert "| cats.tsv | land | 2 | 0.5000 | 0.0000 | 0.2500 | 1.0000 |" in out
    assert "| cats.tsv | (none) | 1 | 1.0000 | 0.0000 | 0.5000 | 1.0000 |" in out
    assert "| all | all | 4 | 0.7500 | 0.2500 | 0.5000 | 0.7500 |" in out
    # the figure goes to its file, said on standard error: standard output is the document alone
    assert png.read_bytes().startswith(b"\x89PNG") and f"plot: {png}\n" in err
    assert "plot:" not in out


def test_json_is_one_document(capsys, runs):
    _, out, _ = run_cli(
        capsys,
        "analyse",
        "coliee/task4/2024/test",
        runs / "answers",
        "--by",
        "anonymised",
        "--format",
        "json",
    )
    doc = json.loads(out)
    assert doc["task"] == "4" and doc["year"] == 2024
    anonymised = next(g for g in doc["groups"] if g["group"] == "anonymised")
    assert anonymised["AnswerAccuracy mixed"] == pytest.approx(2 / 3) and anonymised[
        "baseline (N)"
    ] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("by", "message"),
    [
        (
            "single-or-not",
            "by 'single-or-not': neither relevant, single-multiple, anonymised nor a category file",
        ),
        ("absent.tsv", "by 'absent.tsv': neither"),
        (
            "foreign.tsv",
            "category file .*foreign.tsv: 1 ids are not questions of the gold \\(H30-1-A\\)",
        ),
        ("empty.tsv", "category file empty.tsv: no line QUERY_ID CATEGORY"),
        ("reserved.tsv", "category file reserved.tsv, line 2: 'all' names a group of its own"),
    ],
)
def test_bad_groupings_exit_2_with_a_message(capsys, runs, monkeypatch, by, message):
    monkeypatch.chdir(runs)
    (runs / "foreign.tsv").write_text("R05-01-A party\nH30-1-A party\n")
    (runs / "empty.tsv").write_text("# QUERY_ID CATEGORY\n")
    (runs / "reserved.tsv").write_text("R05-01-A party\nR05-01-I all\n")
    _, out, err = run_cli(
        capsys, "analyse", "coliee/task3/2024/test", runs / "runs", "--by", by, expect=2
    )
    assert out == "" and "Traceback" not in err
    assert err.startswith("ir_coliee: error: ") and re.search(message, err)


def test_a_grouping_without_meaning_for_answers_exits_2(capsys, runs):
    _, _, err = run_cli(
        capsys, "analyse", "coliee/task4/2024/test", runs / "answers", "--by", "relevant", expect=2
    )
    assert "one answer per question: group by anonymised or a category file" in err


def test_by_is_required(capsys, runs):
    with pytest.raises(SystemExit) as exit:
        run_cli(capsys, "analyse", "coliee/task4/2024/test", runs / "answers")
    assert exit.value.code == 2 and "--by" in capsys.readouterr().err


def test_a_file_given_twice_is_one_run_and_a_readme_in_a_folder_is_skipped(capsys, runs):
    """bm25 given twice and in its folder (beside a README): read once, as eval reads it; only top and bm25."""
    (runs / "runs" / "README.md").write_text("# Our runs\n\nBM25 and a tuned one, see the paper.\n")
    bm25 = runs / "runs" / "R05.task3.bm25"
    _, out, err = run_cli(
        capsys, "analyse", "coliee/task3/2024/test", bm25, bm25, runs / "runs", "--by", "relevant"
    )
    assert lines(out)[1] == [
        "by",
        "group",
        "questions",
        "MacroF2 bm25",
        "MacroF2 top",
        "MacroF2 mean",
    ]
    assert ["all", "all", "4", "0.3472", "0.8462", "0.5967"] in lines(out)
    assert f"{bm25}: skipped: the same file as {bm25}, read once" in err
    # skipped as every verb skips a file found beside the runs (eval auto's words)
    assert f"{runs / 'runs' / 'README.md'}: skipped: not a Task 3 run (line 3): 8 columns" in err
    _, out, err = run_cli(
        capsys,
        "analyse",
        "coliee/task3/2024/test",
        runs / "runs" / "README.md",
        bm25,
        "--by",
        "relevant",
        expect=2,
    )
    assert "README.md:3: 8 columns" in err and out == ""


@pytest.mark.parametrize(
    ("suffix", "start"), [(".pdf", b"%PDF"), (".svg", b"<?xml"), (".PNG", b"\x89PNG")]
)
def test_the_plot_is_written_in_the_format_its_suffix_says(capsys, runs, suffix, start):
    figure = runs / f"analysis{suffix}"
    run_cli(
        capsys,
        "analyse",
        "coliee/task4/2024/test",
        runs / "answers",
        "--by",
        "anonymised",
        "--plot",
        figure,
    )
    assert figure.read_bytes().startswith(start)


def test_a_plot_of_another_format_is_refused_before_the_work(capsys, runs):
    args = [
        "analyse",
        "coliee/task4/2024/test",
        runs / "nowhere",
        "--by",
        "anonymised",
        "--plot",
        runs / "a.jpg",
    ]
    _, out, err = run_cli(capsys, *args, expect=2)
    assert (
        out == "" and f"--plot {runs / 'a.jpg'}: name a .png, .pdf or .svg file" in err
    )  # not the runs' error


def test_the_plot_has_a_panel_per_grouping_with_a_bar_per_run(runs, monkeypatch):
    """One panel per grouping, each group's value of the first measure with one bar per run in the run's
    colour (a count, NumRet, off the scale), the axes named by the measure; then the histogram."""
    import ir_coliee
    from ir_coliee.outputs import plots

    drawn = []
    monkeypatch.setattr(plots, "save", lambda fig, path: drawn.append(fig) or str(path))
    analysis = ir_coliee.analyse(
        "coliee/task3/2024/test", runs / "runs", by="anonymised", measures=["NumRet"]
    )
    analysis.plot(runs / "a.png")
    bars, histogram = drawn[0].axes
    assert bars.get_ylabel() == "MacroF2" and bars.get_xlabel() == "anonymised"
    assert [t.get_text() for t in bars.get_legend().get_texts()] == ["bm25", "top"]
    # anonymised (A, U, E): bm25 5/18, top (2 + 5/13)/3; other (I): 5/9, 1
    heights = [round(p.get_height(), 4) for p in bars.patches]
    assert heights == [0.2778, 0.5556, 0.7949, 1.0]
    colours = [p.get_facecolor() for p in bars.patches]  # each run one colour, the two apart
    assert colours[0] == colours[1] != colours[2] == colours[3]
    assert [round(p.get_height()) for p in histogram.patches] == [0, 1, 0, 0, 0, 1, 0, 1, 0, 1]
    assert histogram.get_xlabel() == "mean MacroF2 over the runs"


def test_every_run_has_a_look_of_its_own_however_many_runs():
    """Ten runs: ten colours; 24 runs (a season): 24 distinct colours, neighbours set apart by hatches."""
    from ir_coliee.outputs.plots import HATCHES, looks

    for n in (3, 10, 11, 24):
        styles = looks([f"run{i}" for i in range(n)])
        assert len({colour for colour, _ in styles.values()}) == n
        assert len(set(styles.values())) == n
    assert {hatch for _, hatch in looks([f"run{i}" for i in range(24)]).values()} == set(HATCHES)
