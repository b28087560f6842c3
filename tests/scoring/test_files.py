"""Many runs at once: folders, each file's edition from its official name, a ranked table, placement."""

from __future__ import annotations

import pytest
from support.cases import without_path
from support.statute_data import write_statute_root

import ir_coliee
from ir_coliee.cli import main


@pytest.fixture
def submissions(coliee_home, tmp_path):
    write_statute_root(coliee_home)  # R05 gold (2024's test exam) and R04 gold (2023's)
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "R05.task4.A").write_text("R05-01-A Y A\nR05-01-I N A\n")  # 2 of 2
    (folder / "R05.task4.B").write_text("R05-01-A N B\nR05-01-I N B\n")  # 1 of 2
    (folder / "R04.task4.C").write_text("R04-02-O Y C\nR04-03-G Y C\n")  # 1 of 2
    (folder / ".DS_Store").write_bytes(b"\0")
    return folder


def test_a_folder_of_several_editions_in_one_call(submissions, capsys):
    assert main(["eval", "auto", str(submissions), "--leaderboard"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [
        "edition\ttask\trank\trun\tAnswerAccuracy\tcorrect\tpath",
        f"2023\tTask 4\t1\tC\t0.5000\t1/2\t{submissions / 'R04.task4.C'}",
        f"2024\tTask 4\t1\tA\t1.0000\t2/2\t{submissions / 'R05.task4.A'}",
        f"2024\tTask 4\t2\tB\t0.5000\t1/2\t{submissions / 'R05.task4.B'}",
    ]
    board = lines[
        lines.index(
            "# leaderboard: COLIEE 2024 Task 4, by AnswerAccuracy (partial table: 10 published rows)"
        )
        + 1 :
    ]
    # 2024's published Task 4 rows top out at 0.8257 (CAPTAIN2): A goes above all of them, B below all
    assert board[:3] == [
        "rank\tteam\trun\tAnswerAccuracy\tentry",
        "1\t\tA\t1.0000\tthis run",
        "2\tCAPTAIN\tCAPTAIN2\t0.8257\tofficial",
    ]
    assert board[12] == "12\t\tB\t0.5000\tthis run"
    assert (
        "# leaderboard: COLIEE 2023 Task 4, by AnswerAccuracy (partial table: 13 published rows)"
        in lines
    )


def test_an_official_row_equal_to_the_run_is_named_and_ties_share_a_rank(
    coliee_home, tmp_path, capsys
):
    """A run scoring what a published run scored is placed beside it, with one rank, and the row says so."""
    import pandas as pd

    from ir_coliee.results import load_leaderboard

    board = load_leaderboard("4", 2024)
    # 86 of the 109 questions, printed 0.789 for CAPTAIN3 and CAPTAIN1 (a run of 0.7890 exactly is above
    # them: 86/109 = 0.78899)
    table = board.with_runs(pd.DataFrame({"run": ["mine"], "AnswerAccuracy": [86 / 109]}))
    tied = table[table["rank"] == 4]
    assert tied["run"].tolist() == ["CAPTAIN3", "CAPTAIN1", "mine"]  # 4th, and 7 follows
    assert tied["entry"].tolist() == [
        "official = mine",
        "official = mine",
        "this run = CAPTAIN3, CAPTAIN1",
    ]
    assert table[table["run"] == "UA_gpt"]["rank"].tolist() == [7]


def test_several_runs_against_one_gold_are_ranked(submissions, capsys):
    a, b = submissions / "R05.task4.A", submissions / "R05.task4.B"
    assert main(["eval", "coliee/task4/2024/test", str(b), str(a), "--format", "markdown"]) == 0
    shown = {p: str(p).replace("_", "\\_") for p in (a, b)}  # Markdown text: "_" no emphasis
    assert capsys.readouterr().out.splitlines() == [
        "| rank | run | AnswerAccuracy | correct | path |",
        "|---|---|---|---|---|",
        f"| 1 | A | 1.0000 | 2/2 | {shown[a]} |",
        f"| 2 | B | 0.5000 | 1/2 | {shown[b]} |",
    ]


def test_a_name_that_does_not_say_its_edition(submissions, capsys):
    (submissions / "task3.X").write_text("R05-01-A 1 X\n")
    assert (
        main(["eval", "auto", str(submissions)]) == 0
    )  # the other runs are scored; this one is skipped
    err = capsys.readouterr().err
    assert f"{submissions / 'task3.X'}: skipped: the name says no edition and task" in err
    assert "ir_coliee: scored 3 runs in 2 tables; skipped 1 entry" in err
    reports = ir_coliee.scoring.files.score_files("auto", [submissions / "task3.X"], year=2024)
    assert [(r.task, r.year) for r in reports] == [("3", 2024)]  # --year completes the name


def test_several_runs_as_json_hold_the_table_columns(submissions, capsys):
    import json

    a, b = submissions / "R05.task4.A", submissions / "R05.task4.B"
    assert main(["eval", "coliee/task4/2024/test", str(a), str(b), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["task"], doc["year"]) == ("4", 2024)
    assert doc["runs"] == [
        {
            "rank": 1,
            "run": "A",
            "AnswerAccuracy": 1.0,
            "correct": 2,
            "questions": 2,
            "path": str(a),
        },
        {
            "rank": 2,
            "run": "B",
            "AnswerAccuracy": 0.5,
            "correct": 1,
            "questions": 2,
            "path": str(b),
        },
    ]


@pytest.mark.parametrize("style", ["tsv", "csv", "markdown", "latex", "json"])
def test_several_editions_are_one_document_in_every_format(submissions, capsys, style):
    """Parsed as its format: one header (or one JSON value), an edition and a task on every row."""
    import csv
    import io
    import json

    assert main(["eval", "auto", str(submissions), "--format", style]) == 0
    out = capsys.readouterr().out
    if style == "json":
        tables = json.loads(out)["tables"]
        assert [(t["year"], [r["run"] for r in t["runs"]]) for t in tables] == [
            (2023, ["C"]),
            (2024, ["A", "B"]),
        ]
        assert tables[1]["runs"][0]["correct"] == 2 and tables[1]["runs"][0]["questions"] == 2
        return
    if style == "latex":
        body = out.split("\\midrule\n")[1].split("\\bottomrule")[0]
        assert (
            out.startswith("\\begin{tabular}")
            and out.rstrip().endswith("\\end{tabular}")
            and "#" not in out
        )
        rows = [
            [c.strip() for c in line.removesuffix(" \\\\").split(" & ")]
            for line in body.splitlines()
        ]
    elif style == "markdown":
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in out.splitlines()[2:]]
    else:
        rows = list(csv.reader(io.StringIO(out), delimiter="\t" if style == "tsv" else ","))[1:]
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("2023", "Task 4", "C"),
        ("2024", "Task 4", "A"),
        ("2024", "Task 4", "B"),
    ]


def test_a_folder_as_a_team_keeps_it(coliee_home, tmp_path, capsys):
    """Runs in one folder per team, a TSV log beside them, experiments named EXAM.name: the runs are
    scored, each other file is skipped with one short line naming it, and a summary says how many."""
    write_statute_root(coliee_home)
    teams = tmp_path / "runs"
    (teams / "teamA").mkdir(parents=True)
    (teams / "teamB" / "old").mkdir(parents=True)
    (teams / "teamA" / "R05.task4.A").write_text("R05-01-A Y A\nR05-01-I N A\n")  # 2 of 2
    (teams / "teamB" / "old" / "R05.bert-large").write_text(
        "R05-01-A N\nR05-01-I N\n"
    )  # 1 of 2, no tag
    (teams / "teamB" / "experiments.tsv").write_text("run\tacc\nbert\t0.5\n")
    (teams / "teamB" / "R05.notes").write_text("tried three seeds; the second was best\n")
    assert main(["eval", "auto", str(teams), "--task", "4"]) == 0
    out, err = capsys.readouterr()
    assert without_path(out) == [
        "rank\trun\tAnswerAccuracy\tcorrect",
        "1\tA\t1.0000\t2/2",
        "2\tR05.bert-large\t0.5000\t1/2",
    ]
    lines = err.splitlines()
    assert (
        f"ir_coliee: warning: {teams / 'teamB' / 'experiments.tsv'}: skipped: the name says no edition and task "
        in "\n".join(lines) + " "
    )
    assert any(
        line.startswith(
            f"ir_coliee: warning: {teams / 'teamB' / 'R05.notes'}: skipped: not a Task 4 run (line 1)"
        )
        for line in lines
    )
    assert lines[-1] == "ir_coliee: scored 2 runs in 1 table; skipped 2 entries"
    assert max(map(len, lines)) < 400


def test_an_edition_without_its_gold_skips_its_runs_not_the_others(submissions, capsys):
    """R06 (2025) is not under the data root: its run is skipped, named with the gold it lacks; the rest
    are scored."""
    (submissions / "R06.task4.Z").write_text("R06-01-A Y Z\n")
    assert main(["eval", "auto", str(submissions)]) == 0
    err = capsys.readouterr().err
    assert f"{submissions / 'R06.task4.Z'}: skipped: no gold for coliee/task4/2025/test: " in err
    assert "ir_coliee: scored 3 runs in 2 tables; skipped 1 entry" in err
    for name in ("R05.task4.A", "R05.task4.B", "R04.task4.C"):
        (submissions / name).unlink()
    assert main(["eval", "auto", str(submissions)]) == 2
    assert "no file could be scored (1 skipped)" in capsys.readouterr().err


def test_counts_stay_whole_numbers_beside_another_tasks_rows(submissions, capsys):
    (submissions / "R05.task3.X").write_text("R05-01-A 1 X\nR05-01-A 2 X\n")  # 2 retrieved
    assert main(["eval", "auto", str(submissions)]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    counts = {(r[1], r[3]): [r[rows[0].index(c)] for c in ("tp", "retrieved")] for r in rows[1:]}
    assert counts[("Task 3", "X")][1] == "2" and counts[("Task 3", "X")][0] in ("0", "1", "2")
    assert counts[("Task 4", "A")] == ["", ""]  # Task 4 counts no pairs
