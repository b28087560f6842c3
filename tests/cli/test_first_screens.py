"""What a new user reads first: the demo's folder, a dataset's warning once, the format a message states
being the one the validator applies, a description for every command, and the pip package (and extra) of a
missing optional dependency."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from support.cli import run_cli

import ir_coliee
from ir_coliee.cli import build_parser
from ir_coliee.docgen.reference import _commands
from ir_coliee.errors import PACKAGES, ColieeError
from ir_coliee.model import FORMATS

R06_NOTE = "never distributed in this language"


def test_the_demo_says_its_folder_is_temporary_and_each_dataset_warning_once(capsys):
    _, out, err = run_cli(capsys, "demo")
    assert out.splitlines()[0] == (
        "The submission files go to a temporary folder, deleted when the demo ends: keep them with "
        "--out FOLDER."
    )
    # the R06 gold of the English 2025 statute sets: three steps score on it (Task 3 twice, Task 4),
    # and each of its two datasets is named once
    assert [line.split(":")[2].strip() for line in err.splitlines() if R06_NOTE in line] == [
        "coliee/task3/2025/test",
        "coliee/task4/2025/test",
    ]


def test_every_command_has_a_description():
    commands = dict(_commands(build_parser()))
    assert {"tune", "data", "data check"} <= set(commands)
    assert [name for name, sub in commands.items() if not sub.description] == []


def test_the_answer_format_a_message_states_is_the_rule_applied(write, capsys):
    """The validator states the official rule (the tag required) and applies it; the scorer states and
    applies its own (the tag optional, with a warning)."""
    official, lenient = FORMATS["answers"].official().expected(), FORMATS["answers"].expected()
    assert official == "3 columns 'query_id Y|N run_tag'"
    assert lenient == official + " (run_tag optional when scored; a submission needs it)"
    untagged = write("R06.task4.x", "R06-01-A Y\n")
    _, out, _ = run_cli(capsys, "validate", untagged, "--task", "4", expect=1)
    assert f"R06.task4.x:1: error: 2 columns; expected {official}\n" in out
    four = write("R06.task4.y", "R06-01-A Y t extra\n")
    _, out, _ = run_cli(capsys, "validate", four, "--task", "4", expect=1)
    assert f"Task 4 takes {official}\n" in out
    gold = write("gold.txt", "R06-01-A Y\n")
    run_cli(capsys, "eval", gold, untagged, "--task", "4")  # scored, as the lenient rule says
    _, _, err = run_cli(capsys, "eval", gold, four, "--task", "4", expect=2)
    assert "R06.task4.y:1: 4 columns; expected " in err and err.endswith(f" or {lenient}\n")


def test_a_missing_optional_package_names_its_pip_package_and_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "pyterrier", None)  # import pyterrier: ModuleNotFoundError
    run = pd.DataFrame({"qid": ["1"], "docno": ["d"], "score": [1.0]})
    topics, qrels = (
        pd.DataFrame({"qid": ["1"], "query": ["x"]}),
        pd.DataFrame({"qid": ["1"], "docno": ["d"], "label": [1]}),
    )
    with pytest.raises(ColieeError) as e:
        ir_coliee.Experiment([run], topics, qrels, eval_metrics=[ir_coliee.MicroF1])
    assert str(e.value) == (
        "Experiment: the package pyterrier is not installed: "
        "pip install python-terrier (or pip install 'ir_coliee[pyterrier]')"
    )
    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda m, *a: None if m in PACKAGES else found(m, *a)
    )
    _, _, err = run_cli(
        capsys, "baseline", "bm25", "coliee/task1/2025/test", "--write", tmp_path / "r", expect=2
    )
    assert err == (
        "ir_coliee: error: the BM25 baseline needs bm25s: pip install bm25s (or pip install "
        "'ir_coliee[demo]')\n"
    )
    gold, run_file = tmp_path / "g.json", tmp_path / "task1.r"
    gold.write_text('{"q1": ["d1"]}')
    run_file.write_text("q1 d1 t\n")
    _, _, err = run_cli(capsys, "tune", gold, run_file, "--plot", tmp_path / "p.png", expect=2)
    assert err == (
        "ir_coliee: error: --plot needs matplotlib: pip install matplotlib (or pip install "
        "'ir_coliee[plot]')\n"
    )


def test_the_packages_named_are_those_pyproject_declares():
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]

    def names(requirements: list[str]) -> set[str]:
        return {r.split(">")[0].split("=")[0].split("[")[0].strip() for r in requirements}

    required = {package for package, extra in PACKAGES.values() if not extra}
    assert required == names(project["dependencies"])
    for package, extra in PACKAGES.values():
        if extra:
            assert package in names(project["optional-dependencies"][extra]), (package, extra)
