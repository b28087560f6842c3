"""The published official tables: shipped with their sources, checked row by row, used to place a run."""

from __future__ import annotations

import csv
from decimal import Decimal

import pandas as pd
import pytest

from ir_coliee import ColieeError
from ir_coliee.cli import main
from ir_coliee.results import Row, _checks, available, load_leaderboard


def test_the_complete_2024_task1_table():
    board = load_leaderboard(1, 2024)
    assert board.complete and board.headline == "MicroF1" and len(board.table) == 26
    assert "coliee-site" in board.source
    best = board.table.iloc[0]
    assert (best["team"], best["MicroP"], best["MicroR"], best["MicroF1"]) == (
        "TQM",
        0.5057,
        0.3944,
        0.4432,
    )
    assert (
        board.table["check"] == ""
    ).all()  # every row agrees with itself and with the 1,562 gold pairs
    assert board.table["MicroF1"].is_monotonic_decreasing


def test_rows_whose_figures_contradict_each_other_are_flagged():
    # printed F1 0.60 cannot come from P 0.50 and R 0.50, whatever the rounding
    assert _checks(
        Row("1", "T", "r", {"P": Decimal("0.50"), "R": Decimal("0.50"), "F1": Decimal("0.60")}),
        "1",
        2024,
    ) == ["F1 0.60 does not follow from P 0.50 and R 0.50 (0.5000)"]
    # 2024 Task 1 has 1,562 gold pairs: R 0.3945 would need 616.2 of them
    row = Row(
        "1", "T", "r", {"P": Decimal("0.5057"), "R": Decimal("0.3945"), "F1": Decimal("0.4432")}
    )
    assert _checks(row, "1", 2024) == ["R 0.3945 x 1,562 gold pairs is not a whole number"]
    assert _checks(row._replace(values={**row.values, "R": Decimal("0.3944")}), "1", 2024) == []
    board = load_leaderboard(1, 2023)
    flagged = board.table[board.table["check"] != ""]
    assert flagged[["team", "run"]].values.tolist() == [["THUIR", "thuirrun1"]]  # shown, not hidden


def test_percentages_become_fractions_and_2026_task3_is_ranked_by_the_gate():
    assert load_leaderboard(2, 2023).table.iloc[0]["MicroF1"] == pytest.approx(0.7456)
    board = load_leaderboard(3, 2026)
    assert (
        board.headline == "RecallGatedAccuracy"
        and board.table.iloc[0]["RecallGatedAccuracy"] == 0.951
    )
    assert not board.complete


def test_placing_a_run():
    board = load_leaderboard(1, 2024)
    rank, above, below = board.place(0.44)
    assert (
        rank == 2
        and above["run"] == "task1_test_answer_2024_run1.txt"
        and below["run"] == "task1_test_answer_2024_run3.txt"
    )
    assert board.place(0.99)[:2] == (1, None)
    assert board.place(0.0)[0] == len(board.table) + 1


def test_every_shipped_table_loads():
    assert ("1", 2024) in available() and ("4", 2026) in available()
    for task, year in available():
        assert len(load_leaderboard(task, year).table) > 0
    with pytest.raises(ColieeError, match="no published table"):
        load_leaderboard(5, 2021)


def test_leaderboard_and_eval_leaderboard_commands(write, capsys):
    assert main(["leaderboard", "2", "2024"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        out[0].startswith("# source: ")
        and out[1] == "rank\tteam\trun\tMicroP\tMicroR\tMicroF1\tcheck"
    )
    assert out[2] == "1\tAMHR\tamhr.mt53bk2r.txt\t0.6364\t0.6667\t0.6512\t"
    gold = write("task1_test_labels_2024.json", '{"000001.txt": ["000010.txt", "000011.txt"]}')
    run = write("task1.univABC", "000001 000010 univABC\n000001 000099 univABC\n")
    assert main(["eval", gold, run, "--task", "1", "--year", "2024", "--leaderboard"]) == 0
    out = capsys.readouterr().out.splitlines()
    # P = 1/2, R = 1/2, F1 = 1/2: above every official 2024 run, 27 rows with it
    at = out.index("# leaderboard: COLIEE 2024 Task 1, by MicroF1 (complete official table)")
    assert out[at + 1 : at + 4] == [
        "rank\tteam\trun\tMicroP\tMicroR\tMicroF1\tentry",
        "1\t\tunivABC\t0.5000\t0.5000\t0.5000\tthis run",
        "2\tTQM\ttask1_test_answer_2024_run1.txt\t0.5057\t0.3944\t0.4432\tofficial",
    ]
    assert len(out) - at - 2 == 27
    for style in ("csv", "tsv"):  # the title a comment: every other line a row of the table's width
        argv = ["eval", gold, run, "--task", "1", "--year", "2024", "--leaderboard"]
        assert main([*argv, "--format", style]) == 0
        text = capsys.readouterr().out.split("\n\n")[1].splitlines()
        assert text[0] == "# leaderboard: COLIEE 2024 Task 1, by MicroF1 (complete official table)"
        rows = list(csv.reader(text[1:], "excel-tab" if style == "tsv" else "excel"))
        assert len(rows) == 28 and {len(r) for r in rows} == {7}
    assert main(["leaderboard", "5", "2021"]) == 2


def test_the_command_prints_the_table_without_pandas_or_numpy():
    """A published table is a few dozen rows: the command prints them from plain rows, and places a run
    without building a DataFrame (``place``: the rank among the rows)."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom ir_coliee.cli import main\nmain(['leaderboard', '1', '2024'])\n"
        "print(sorted(m for m in ('pandas', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[-1] == "[]"
    header, best = out[1].split("\t"), out[2].split("\t")
    assert header[:3] == ["rank", "team", "run"] and "MicroF1" in header
    assert best[header.index("team")] == "TQM" and best[header.index("MicroF1")] == "0.4432"
    board = load_leaderboard(1, 2024)
    # F1 0.4432 exactly is above TQM's 1,232 / 2,780 = 0.443165 (printed 0.4432)
    rank, above, below = board.place(0.4432)
    assert rank == 1 and above is None and below is not None and below["team"] == "TQM"


def test_a_run_is_placed_only_against_a_complete_table():
    from ir_coliee.results import placed

    # COLIEE 2024 Task 1: the complete table of 26 runs; F1 1.0 is first, 0.0 after all 26
    ranks, table = placed("1", 2024, "MicroF1", {"a": 1.0, "b": 0.0, "c": float("nan")})
    assert (ranks, table) == ({"a": (1, 26), "b": (27, 26)}, "complete")
    assert placed("1", 2025, "MicroF1", {"a": 1.0}) == (
        {},
        "partial",
    )  # 3 published rows: no rank among them
    assert placed("1", 2024, "MicroP", {"a": 1.0}) == (
        {},
        None,
    )  # not the measure the table ranks by
    assert placed("1", None, "MicroF1", {"a": 1.0}) == ({}, None)  # a gold file names no edition


@pytest.mark.parametrize(
    "task, year, value, rank",
    [
        # 2023 Task 4, AMHR01's own submission: 66 of 101 = 0.653465, printed 65.35 (%): 5th, with it
        ("4", 2023, 66 / 101, 5),
        # 2026 Task 2, JUNLLP's counts: R .2789 x 294 = 82 found, P .6721 = 82 / 122 retrieved,
        # F1 = 164 / 416 = 0.394231 (printed 0.3942, twice): 12th with both rows
        ("2", 2026, 164 / 416, 12),
        # between JUNLLP's exact F1 and its rounding: below both rows, above bosch's 0.3939 (13 / 33)
        ("2", 2026, 0.39421, 14),
        # 2024 Task 1, rounding down: yr_run3, R .3688 x 1,562 = 576 of 1,809, F1 1,152 / 3,371 =
        # 0.341738 printed 0.3417; rounding up: yr_run2, 587 of 1,809, 1,174 / 3,371 = 0.348264 printed
        # 0.3483: each run ties with its own row
        ("1", 2024, 1152 / 3371, 9),
        ("1", 2024, 1174 / 3371, 8),
        # 2025 Task 4: 56 of 73 = 0.7671, below KIS (66/73) and UI's UIRunLang (60/73)
        ("4", 2025, 56 / 73, 3),
    ],
)
def test_a_run_equal_to_a_row_shares_its_rank(task, year, value, rank):
    board = load_leaderboard(task, year)
    assert board.place(value)[0] == rank
    runs = pd.DataFrame({"run": ["mine"], board.headline: [value]})
    placed = board.with_runs(runs)
    mine = placed[placed["entry"].str.startswith("this run")].iloc[0]
    assert mine["rank"] == rank
    tied = placed[placed["entry"].str.endswith(" = mine")]
    assert (tied["rank"] == rank).all()
    assert mine["entry"] == ("this run = " + ", ".join(tied["run"]) if len(tied) else "this run")


def test_what_a_tie_is_named_in_the_placed_table():
    board = load_leaderboard("4", 2023)
    placed = board.with_runs(pd.DataFrame({"run": ["mine"], "AnswerAccuracy": [66 / 101]}))
    assert placed[["rank", "run", "entry"]].values.tolist()[3:7] == [
        [4, "UA-V2", "official"],
        [5, "AMHR01", "official = mine"],
        [5, "mine", "this run = AMHR01"],
        [7, "LLNTUdulcsL", "official"],
    ]
    board = load_leaderboard("2", 2026)
    placed = board.with_runs(pd.DataFrame({"run": ["mine"], "MicroF1": [164 / 416]}))
    assert placed[["rank", "run"]].values.tolist()[11:15] == [
        [12, "submission (1)"],
        [12, "submission (2)"],
        [12, "mine"],
        [15, "bosch_task_2_submission (1)"],
    ]


def test_every_row_of_the_public_record_is_shipped_with_its_source():
    board = load_leaderboard("4", 2025)
    assert [(r["run"], r["AnswerAccuracy"]) for r in board.rows] == [
        ("", 0.9041),
        ("UIRunLang", 0.8219),
        ("UIRunFTune", 0.6027),
    ]
    assert board.rows[2]["source"].startswith("bryan273/UI-COLIEE2025 README")
    assert board.rows[2]["source"].endswith("; equals 44/73")
    task1 = load_leaderboard("1", 2025)
    assert [r["run"] for r in task1.rows] == [
        "",
        "JNLP_001",
        "JNLP_002",
        "CaseLink_3",
        "",
        "NOWJ_001",
    ]
    assert task1.rows[4]["source"] == task1.rows[2]["source"]  # "same" as the row above it


def test_a_published_row_without_the_headline_gets_no_rank_when_runs_are_placed():
    """The 2025 pilot table ranks by accuracy; its relevance rows hold MacroF1 alone: placed among them, a
    run takes its rank by accuracy and such a row none (it stopped the page and eval --leaderboard)."""
    import pandas as pd

    board = load_leaderboard("pilot", 2025)
    placed = board.with_runs(pd.DataFrame({"run": ["ours"], "AnswerAccuracy": [0.5]}))
    ranks = dict(zip(placed["run"], placed["rank"]))
    assert ranks["JAIST-LJPJT25"] == 1 and ranks["ours"] == 2 and pd.isna(ranks["KIS5"])


def test_a_training_set_run_is_not_placed_on_the_test_sets_tables(coliee_home, write, capsys):
    """The published tables rank test-set runs: ``eval --leaderboard`` on a training dataset is refused
    (exit 1) before any scoring, and the results page says why it places no run."""
    from support.caselaw_data import write_task1_flat

    import ir_coliee
    from ir_coliee.data.locator import refresh

    write_task1_flat(coliee_home, with_test_gold=True)
    refresh()
    run = write("run1.txt", "000028 000100 r\n000200 000300 r\n")
    assert main(["eval", "--leaderboard", "coliee/task1/2024/train", run]) == 1
    err = capsys.readouterr().err
    assert "--leaderboard: coliee/task1/2024/train is a train set: the published tables" in err
    assert main(["eval", "--leaderboard", "coliee/task1/2024/test", run]) == 0
    assert "leaderboard: COLIEE 2024 Task 1, by MicroF1" in capsys.readouterr().out
    page = ir_coliee.report("coliee/task1/2024/train", [run], resamples=10)
    said = "Not placed on a published table: coliee/task1/2024/train is a train set"
    assert said in page.html and 'data-table="placement"' not in page.html
    page = ir_coliee.report("coliee/task1/2024/test", [run], resamples=10)
    assert 'data-table="placement"' in page.html


@pytest.mark.parametrize(
    ("style", "row"),
    [
        ("tsv", "\tKIS\tKIS5\t\t0.7120\t\tthird-party summary"),
        ("csv", ",KIS,KIS5,,0.7120,,third-party summary"),
        ("markdown", "|  | KIS | KIS5 | – | 0.7120 |  | third-party summary |"),
    ],
)
def test_a_measure_a_row_does_not_publish_is_never_printed_nan(style, row, capsys):
    assert main(["leaderboard", "pilot", "2025", "--format", style]) == 0
    out = capsys.readouterr().out
    assert row in out.splitlines() and "nan" not in out


def test_one_flagged_row_is_said_in_the_singular(capsys):
    assert main(["leaderboard", "1", "2023"]) == 0
    assert "# 1 row fails a check (see the check column)" in capsys.readouterr().out


@pytest.mark.parametrize("queries", [2, 400])
def test_a_place_scored_on_other_queries_than_the_test_sets_is_said(write, capsys, queries):
    """2024's Task 1 test set holds 400 queries: a gold file of 2 given with its year places the run, and
    the command and the results page say that the places rank scores on other queries; one of 400 does not."""
    import json

    import ir_coliee

    gold = write("gold.json", json.dumps({f"{q:06d}.txt": ["000010.txt"] for q in range(queries)}))
    run = write("task1.univABC", "000000 000010 univABC\n000001 000099 univABC\n")
    assert main(["eval", gold, run, "--task", "1", "--year", "2024", "--leaderboard"]) == 0
    said = f"the gold holds {queries} queries where the 2024 test set holds 400: these places rank"
    assert (said in capsys.readouterr().err) == (queries != 400)
    page = ir_coliee.report(gold, [run], task="1", year=2024, resamples=10)
    assert 'data-table="placement"' in page.html and (said in page.html) == (queries != 400)


@pytest.mark.parametrize(("year", "questions"), [(2024, 109), (2025, 73)])
def test_task4_counts_questions_against_its_test_set(write, capsys, year, questions):
    """2025's test set is known by its Japanese copy, whose gold the English one is scored against."""
    gold = write("gold.txt", "R05-01-A Y\nR05-01-I N\n")
    run = write("R05.task4.A", "R05-01-A Y A\nR05-01-I N A\n")
    assert main(["eval", gold, run, "--task", "4", "--year", str(year), "--leaderboard"]) == 0
    said = f"Task 4: the gold holds 2 questions where the {year} test set holds {questions}: "
    assert said in capsys.readouterr().err


def test_a_refused_placement_prints_no_table_first(write, capsys):
    """The 2024 Task 3 table ranks by MacroF2: asked for AP alone, the command refuses before it writes."""
    gold, run = write("gold.txt", "q1 0 a 1\n"), write("task3-L.r", "q1 Q0 a 1 0.9 r\n")
    argv = ["eval", gold, run, "AP", "--task", "3", "--year", "2024", "--leaderboard"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "ranks runs by MacroF2, which this report does not hold" in err
