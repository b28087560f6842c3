"""Folders of runs as teams keep them, and as a hostile tester makes them: one walker for every command
(links, loops, FIFOs, unreadable entries, empty files, deep trees), one rule from a file name to its task,
edition and system."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.caselaw_data import write_task1_flat
from support.cli import GOLD_T1, RUN_T1

import ir_coliee
from ir_coliee import ColieeError
from ir_coliee.cli import main
from ir_coliee.inputs.walk import walk
from ir_coliee.model import edition_of_file, name_says


def _team_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "runs"
    (folder / "teamA").mkdir(parents=True)
    (folder / "teamA" / "task1.A").write_text(RUN_T1)
    (folder / "teamB" / "deep").mkdir(parents=True)
    (folder / "teamB" / "deep" / "task1.B").write_text("000001 000010 B\n")
    (folder / "teamB" / "empty.txt").write_text("")
    (folder / ".hidden").write_text(RUN_T1)
    os.mkfifo(folder / "teamB" / "pipe")
    (folder / "teamB" / "dangling").symlink_to(folder / "nowhere")
    (folder / "teamA" / "loop").symlink_to(folder)  # a link back up the tree
    return folder


def test_the_walk_takes_each_file_once_and_names_what_it_leaves_out(tmp_path):
    folder = _team_folder(tmp_path)
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "task1.C").write_text(RUN_T1)
    (folder / "teamC").symlink_to(linked)  # a linked team folder is followed
    (folder / "root").symlink_to(
        "/"
    )  # a link to a folder holding the tree: never the whole filesystem
    (folder / "teamA" / "up").symlink_to(tmp_path)
    walked = walk([folder])
    assert [os.path.relpath(f.path, folder) for f in walked.files] == [
        "teamA/task1.A",
        "teamB/deep/task1.B",
        "teamC/task1.C",
    ]
    left = {os.path.relpath(f.path, folder): f.message for f in walked.skipped}
    assert left == {
        "teamA/loop": "skipped: a folder already walked (through a link, or a link loop), not walked again",
        "teamB/dangling": "skipped: a dangling link",
        "root": "skipped: a link to a folder holding the one walked (such as /), not followed",
        "teamA/up": "skipped: a link to a folder holding the one walked (such as /), not followed",
        "teamB/empty.txt": "skipped: an empty file",
        "teamB/pipe": "skipped: not a regular file (a FIFO, socket or device): never read",
    }


def test_eval_of_a_team_folder_scores_its_runs_and_counts_what_it_skipped(tmp_path, write, capsys):
    folder = _team_folder(tmp_path)
    gold = write("gold.json", GOLD_T1)
    assert (
        main(["eval", gold, str(folder), "--task", "1"]) == 0
    )  # the FIFO is never opened: no hang
    out, err = capsys.readouterr()
    rows = [line.split("\t")[1:5] for line in out.splitlines()]
    # univABC: tp 2 of 3 retrieved, 4 relevant; B: 000001 -> 000010, 1 of 1
    assert rows[1:] == [
        ["univABC", "0.6667", "0.5000", "0.5714"],
        ["B", "1.0000", "0.2500", "0.4000"],
    ]
    for name in ("pipe", "dangling", "empty.txt", "loop"):
        assert f"{folder}/team" in err and name in err
    assert err.count("skipped: ") == 4


def test_unreadable_entries_are_named(tmp_path, monkeypatch):
    """Root (as CI runs) reads every file whatever its mode: access is refused where the walk asks."""
    folder = tmp_path / "runs"
    (folder / "closed").mkdir(parents=True)
    (folder / "task1.A").write_text(RUN_T1)
    (folder / "task1.B").write_text(RUN_T1)
    real_access, real_scandir = os.access, os.scandir
    monkeypatch.setattr(
        os, "access", lambda p, mode: not str(p).endswith("task1.B") and real_access(p, mode)
    )

    def scandir(path):
        if str(path).endswith("closed"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    walked = walk([folder])
    assert [Path(f.path).name for f in walked.files] == ["task1.A"]
    assert {Path(f.path).name: f.message for f in walked.skipped} == {
        "closed": "skipped: the folder cannot be read (Permission denied)",
        "task1.B": "skipped: cannot be read (permission denied)",
    }


@pytest.fixture
def deep_tree(tmp_path):
    """A run 1,100 folders deep, removed bottom up afterwards: a recursive walk (os.walk, os.makedirs,
    shutil.rmtree, so pytest's own clean-up) stops near 1,000 levels with a RecursionError."""
    folders = [str(tmp_path / "runs")]
    os.mkdir(folders[0])
    for _ in range(1_100):
        folders.append(os.path.join(folders[-1], "d"))
        os.mkdir(folders[-1])
    run = os.path.join(folders[-1], "task1.A")
    Path(run).write_text(RUN_T1)
    yield Path(folders[0])
    os.remove(run)
    for folder in reversed(folders):
        os.rmdir(folder)


def test_a_tree_deeper_than_the_recursion_limit(deep_tree, write, capsys):
    assert [Path(f.path).name for f in walk([deep_tree]).files] == ["task1.A"]
    assert main(["eval", write("gold.json", GOLD_T1), str(deep_tree), "--task", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split("\t")[1:3] == ["univABC", "0.6667"]


# --- one rule from a file name to (task, edition, system) ----------------------------------------------------


@pytest.mark.parametrize(
    "name, task, exam, year, system",
    [
        ("R04.task4.X", "4", "R04", None, "X"),
        ("task1.R04", "1", None, None, "R04"),  # a run tag, not an exam
        ("task1.run2023", "1", None, None, "run2023"),  # a year in the tag is the tag's
        ("task1_test_answer_2024_run1.txt", "1", None, 2024, "task1_test_answer_2024_run1"),
        ("H30.bert-large", None, "H30", None, "bert-large"),
        ("R06.task4.H2.txt", "4", "R06", None, "H2"),
        ("task3-L.X", "3", None, None, "X"),
        ("bm25.txt", None, None, None, "bm25"),
    ],
)
def test_what_a_file_name_says(name, task, exam, year, system):
    assert tuple(name_says(name)) == (task, exam, year, system)


def test_eval_auto_never_reads_a_run_tag_as_an_exam(coliee_home, tmp_path, capsys):
    write_task1_flat(coliee_home, 2025, with_test_gold=True)
    write_task1_flat(coliee_home, 2023, with_test_gold=True)
    (coliee_home / "task1_test_labels_2023.json").write_text(
        '{"000200.txt": ["000301.txt"]}'
    )  # 2023: other gold
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "task1.R04").write_text("000200 000300 R04\n000201 000301 R04\n")
    assert edition_of_file("task1.R04", 2025) == ("1", 2025)
    assert main(["eval", "auto", str(folder), "--year", "2025"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split("\t")
    assert row[1:5] == ["R04", "1.0000", "1.0000", "1.0000"]  # 2025's gold, not 2023's (0.5)


def test_benchmark_keeps_two_files_that_name_one_system_apart_and_says_so(
    coliee_home, tmp_path, capsys
):
    write_task1_flat(coliee_home, 2025, with_test_gold=True)
    folder = tmp_path / "grid" / "coliee" / "task1" / "2025" / "test"
    folder.mkdir(parents=True)
    (folder / "task1.bm25").write_text("000200 000300 bm25\n000201 000301 bm25\n")  # F1 1
    (folder / "bm25.txt").write_text("000200 000301 bm25\n000201 000300 bm25\n")  # F1 0
    assert main(["benchmark", str(tmp_path / "grid"), "--resamples", "20"]) == 0
    out, err = capsys.readouterr()
    values = {(r.split("\t")[0], r.split("\t")[2]): r.split("\t")[3] for r in out.splitlines()[1:]}
    assert (
        values[("task1.bm25", "MicroF1")] == "1.0000"
        and values[("bm25.txt", "MicroF1")] == "0.0000"
    )
    assert err.count("2 files of coliee/task1/2025/test name the system 'bm25'") == 2
    assert "this one is named 'task1.bm25'" in err and "this one is named 'bm25.txt'" in err


def test_one_file_reached_twice_is_one_run(tmp_path, write, capsys):
    """Given twice, through a link or a hard link: the same file is scored once, and the others are said."""
    folder = tmp_path / "runs"
    (folder / "a").mkdir(parents=True)
    (folder / "b").mkdir()
    (folder / "a" / "task1.X").write_text(RUN_T1)
    (folder / "b" / "task1.Y").symlink_to(folder / "a" / "task1.X")
    os.link(folder / "a" / "task1.X", folder / "b" / "task1.Z")
    walked = walk([folder, folder / "a" / "task1.X"])
    assert [os.path.relpath(f.path, folder) for f in walked.files] == ["a/task1.X"]
    assert sorted(os.path.relpath(f.path, folder) for f in walked.skipped) == [
        "a/task1.X",
        "b/task1.Y",
        "b/task1.Z",
    ]
    assert all(
        f.message == f"skipped: the same file as {folder}/a/task1.X, read once"
        for f in walked.skipped
    )
    assert main(["eval", write("g.json", GOLD_T1), str(folder), "--task", "1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # the header and one run


def test_eval_names_a_missing_run_and_standard_input_given_twice(write, capsys):
    gold = write("g.json", GOLD_T1)
    assert main(["eval", gold, "nonexist", "--task", "1"]) == 2
    assert capsys.readouterr().err == "ir_coliee: error: no such run file: nonexist\n"
    assert main(["eval", gold, "-", "-", "--task", "1"]) == 2
    assert (
        capsys.readouterr().err
        == "ir_coliee: error: - (standard input) given twice: it holds one run\n"
    )


def test_a_task_number_is_one_digit():
    assert name_says("task12.run").task is None and name_says("task1.run").task == "1"


def test_an_empty_list_of_runs_is_refused_by_name(write):
    with pytest.raises(ColieeError, match=r"^no run file in an empty list of runs$"):
        ir_coliee.score(write("gold", "q1 0 d1 1\n"), [], task=1)
