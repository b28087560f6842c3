"""Every command end to end on a release shaped like the real ones: a training and a test split whose
query and document ids do not overlap (Task 1 2024: training queries 000028, 000029 over 0001xx cases;
test queries 000200, 000201 over 0003xx cases). A workflow that worked must not silently stop working."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.caselaw_data import write_task1_flat
from support.cases import default_columns, picked, without_path

from ir_coliee.cli import main

TEST = "coliee/task1/2024/test"
TRAIN = "coliee/task1/2024/train"
#: test gold: 000200 -> 000300; 000201 -> 000301. A: 2 right of 3 retrieved, 2 relevant -> P 2/3, R 1, F1 4/5
RUN_A = "000200 000300 A\n000200 000301 A\n000201 000301 A\n"
#: B: 0 right of 2
RUN_B = "000200 000301 B\n000201 000300 B\n"
#: training gold: 000028 -> 000100, 000101; 000029 -> 000102. 1 right of 2 retrieved, 3 relevant
RUN_TRAIN = "000028 000100 T\n000029 000101 T\n"


@pytest.fixture
def release(coliee_home, tmp_path):
    write_task1_flat(coliee_home, 2024, with_test_gold=True)
    runs = tmp_path / "runs"
    runs.mkdir()
    for name, text in (("task1.A", RUN_A), ("task1.B", RUN_B), ("task1.T", RUN_TRAIN)):
        (runs / name).write_text(text)
    return runs


def _cells(out: str) -> list[list[str]]:
    return [row.split("\t") for row in without_path(out)]


def test_eval_on_each_split(release, capsys):
    assert main(["eval", TEST, str(release / "task1.A"), "--digits", "4"]) == 0
    assert _cells(capsys.readouterr().out)[1][:4] == ["A", "0.6667", "1.0000", "0.8000"]
    assert main(["eval", TRAIN, str(release / "task1.T"), "--digits", "4"]) == 0
    assert _cells(capsys.readouterr().out)[1][:4] == ["T", "0.5000", "0.3333", "0.4000"]
    # a training run against the test gold shares no query: refused, never a silent 0
    assert main(["eval", TEST, str(release / "task1.T")]) == 1
    assert "shares no query with the gold coliee/task1/2024/test" in capsys.readouterr().err


def test_eval_auto_finds_the_test_set_from_the_file_name(release, tmp_path, capsys):
    folder = tmp_path / "auto"
    folder.mkdir()
    (folder / "task1_test_answer_2024_A.txt").write_text(RUN_A)
    assert main(["eval", "auto", str(folder)]) == 0
    header, row = (line.split("\t") for line in capsys.readouterr().out.splitlines()[:2])
    measures = default_columns("1", 2024)
    assert header[: len(measures) + 5] == ["rank", "run", *measures, "tp", "retrieved", "relevant"]
    assert picked(dict(zip(header, row)), "run", "MicroP", "MicroR", "MicroF1") == [
        "A",
        "0.6667",
        "1.0000",
        "0.8000",
    ]
    assert picked(dict(zip(header, row)), "tp", "retrieved", "relevant") == ["2", "3", "2"]


def test_validate_against_each_split(release, capsys):
    assert main(["validate", str(release / "task1.A"), "--task", "1", "--dataset", TEST]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out
    assert main(["validate", str(release / "task1.T"), "--task", "1", "--dataset", TRAIN]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out


def test_compare_and_benchmark_on_the_test_split(release, tmp_path, capsys):
    assert (
        main(
            [
                "compare",
                TEST,
                str(release / "task1.A"),
                str(release / "task1.B"),
                "--resamples",
                "50",
            ]
        )
        == 0
    )
    rows = [row.split("\t") for row in capsys.readouterr().out.splitlines()]
    assert [r[0] for r in rows[1:]] == ["A", "B"]
    f1 = rows[0].index("MicroF1")
    assert [r[f1] for r in rows[1:]] == ["0.8000", "0.0000"]
    folder = tmp_path / "grid" / "coliee" / "task1" / "2024" / "test"
    folder.mkdir(parents=True)
    for name in ("task1.A", "task1.B"):
        (folder / name).write_text((release / name).read_text())
    assert main(["benchmark", str(tmp_path / "grid"), "--resamples", "50"]) == 0
    rows = [row.split("\t") for row in capsys.readouterr().out.splitlines()]
    values = {(r[0], r[2]): r[3] for r in rows[1:]}
    assert values[("A", "MicroF1")] == "0.8000" and values[("B", "MicroF1")] == "0.0000"
    assert values[("A", "MicroP")] == "0.6667"


def test_baseline_writes_a_run_of_the_test_queries_that_scores(release, tmp_path, capsys):
    out = tmp_path / "task1.bm25"
    assert main(["baseline", "bm25", TEST, "--write", str(out), "--k", "1"]) == 0
    lines = out.read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["000200", "000201"]
    assert all(line.split()[1] in {"000200", "000201", "000300", "000301"} for line in lines)
    capsys.readouterr()
    assert main(["eval", TEST, str(out)]) == 0


def test_tune_on_train_cuts_the_test_run(release, tmp_path, capsys):
    train = tmp_path / "task1.train"
    train.write_text(
        "000028 Q0 000100 1 0.9 t\n000028 Q0 000105 2 0.8 t\n000029 Q0 000102 1 0.7 t\n"
    )
    test = tmp_path / "task1.test"
    test.write_text(
        "000200 Q0 000300 1 0.9 t\n000200 Q0 000301 2 0.5 t\n000201 Q0 000301 1 0.4 t\n"
    )
    cut = tmp_path / "task1.cut"
    assert (
        main(["tune", TRAIN, str(train), "--apply", str(test), "--write", str(cut), "--tag", "c"])
        == 0
    )
    assert "best rank cutoff: 1 (MicroF1 = 0.8000)" in capsys.readouterr().out
    assert cut.read_text() == "000200 000300 c\n000201 000301 c\n"


def test_data_check_and_export_of_each_split(release, capsys):
    assert main(["data", "check"]) == 0
    out = capsys.readouterr().out
    assert f"{TEST}\tcomplete\n" in out and f"{TRAIN}\tcomplete\n" in out
    assert main(["datasets", "export", TRAIN, "qrels"]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == [
        "000028 0 000100 1",
        "000028 0 000101 1",
        "000029 0 000102 1",
    ]
    assert main(["datasets", "export", TEST, "queries", "--fields", "query_id"]) == 0
    assert capsys.readouterr().out.split() == ["000200", "000201"]


def test_the_release_fixture_has_disjoint_ids(release, coliee_home):
    train = {p.stem for p in Path(coliee_home, "task1_train_files_2024").rglob("*.txt")}
    test = {p.stem for p in Path(coliee_home, "task1_test_files_2024").rglob("*.txt")}
    assert train and test and not train & test
