"""Command-line manners: version, help with defaults, suggestions, case, output formats, pipes, exit codes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from support.cases import without_path
from support.cli import GOLD_T1, RUN_T1, run_cli

from ir_coliee import __version__
from ir_coliee.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"ir_coliee {__version__}"


def test_help_shows_defaults_and_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for shown in (
        "(default: 10000)",
        "(default: 42)",
        "(default: holm)",
        "(default: 0)",
        "exit codes: 0 done; 1",
    ):
        assert shown in out


def _commands(parser) -> list[str]:
    return list(next(a for a in parser._actions if a.dest == "command").choices)


def test_each_command_group_names_the_commands_it_adds():
    """A command builds its own group's parser only: the names each group is listed under must be the
    ones its parser adds, in the order ``--help`` shows them, or a command would not be found."""
    from ir_coliee.cli import COMMANDS, build_parser

    for group in COMMANDS:
        assert _commands(build_parser(group.names[0])) == list(group.names)
    assert _commands(build_parser()) == [name for group in COMMANDS for name in group.names]
    assert (
        _commands(build_parser("--help"))
        == _commands(build_parser("evl"))
        == _commands(build_parser())
    )


def test_top_level_help_and_a_mistyped_command_list_every_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    listed = capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["evl", "gold", "run"])
    error = capsys.readouterr().err
    assert info.value.code == 2
    for name in (
        "eval",
        "leaderboard",
        "validate",
        "compare",
        "benchmark",
        "tune",
        "baseline",
        "datasets",
        "data",
        "demo",
    ):
        assert name in listed and f"'{name}'" in error


def test_a_command_imports_no_other_commands_module():
    code = (
        "import sys\nfrom ir_coliee.cli import main\n"
        "try:\n    main(['validate', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('ir_coliee.cli.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "['ir_coliee.cli.options', 'ir_coliee.cli.validate']"


def test_mistyped_measures_and_dataset_ids_get_suggestions(write, capsys):
    _, _, err = run_cli(
        capsys, "eval", write("g.json", GOLD_T1), write("r", RUN_T1), "MircoF1", expect=2
    )
    assert "unknown or malformed measure 'MircoF1'" in err and "did you mean MicroF1" in err
    _, _, err = run_cli(capsys, "eval", "coliee/task1/2024/tset", write("r2", RUN_T1), expect=2)
    assert "did you mean coliee/task1/2024/test" in err


def test_measure_names_in_any_case_where_unambiguous(write, capsys):
    _, out, _ = run_cli(
        capsys, "eval", write("g.json", GOLD_T1), write("r", RUN_T1), "microf1", "MACROF2@1", "map"
    )
    assert (
        without_path(out)[0] == "run\tMicroF1\tMacroF2@1\tAP"
    )  # "map" is not ambiguous: ir_measures spells it AP


@pytest.mark.parametrize(
    "style, expected",
    [
        ("csv", ["run,MicroP,MicroR,MicroF1,path", "univABC,0.6667,0.5000,0.5714,{run}"]),
        (
            "markdown",
            [
                "| run | MicroP | MicroR | MicroF1 | path |",
                "|---|---|---|---|---|",
                "| univABC | 0.6667 | 0.5000 | 0.5714 | {run} |",
            ],
        ),
        (
            "latex",
            [
                "\\begin{tabular}{lrrrl}",
                "\\toprule",
                "run & MicroP & MicroR & MicroF1 & path \\\\",
                "\\midrule",
                "univABC & 0.6667 & 0.5000 & 0.5714 & {run} \\\\",
                "\\bottomrule",
                "\\end{tabular}",
            ],
        ),
    ],
)
def test_output_formats_hold_the_same_columns(write, capsys, style, expected):
    gold, run = write("task1_test_labels_2024.json", GOLD_T1), write("task1.univABC", RUN_T1)
    # the measures named, so that this test of the layouts does not hang on the default set
    measures = ["MicroP", "MicroR", "MicroF1"]
    _, out, _ = run_cli(capsys, "eval", gold, run, *measures, "--task", "1", "--format", style)
    shown = run.replace("_", "\\_") if style in ("latex", "markdown") else run
    assert out.splitlines() == [
        line.replace("{run}", shown) for line in expected
    ]  # 2/3, 2/4, 4/7 as in the tsv test


def test_output_closed_early_stops_quietly_with_the_status_of_a_closed_pipe(write):
    gold = write("gold.qrels", "".join(f"q{q} 0 d{q} 1\n" for q in range(5000)))
    run = write("task1.r", "".join(f"q{q} d{q} t\n" for q in range(5000)))
    argv = ["eval", gold, run, "--task", "1", "--per-query"]  # about 600 KB: more than a pipe holds
    process = subprocess.Popen(
        [sys.executable, "-m", "ir_coliee", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(20)
    process.stdout.close()  # as `| head -1` does
    assert (
        process.wait(timeout=60) == 141
    )  # 128 + SIGPIPE, as the shell shows `yes | head -1`'s yes
    assert process.stderr.read() == b""


@pytest.mark.parametrize("closed", ["before", "at once"])
def test_the_files_asked_for_are_written_when_standard_output_is_closed(write, tmp_path, closed):
    gold = write("gold.qrels", "".join(f"q{q} 0 d{q} 1\n" for q in range(3)))
    run = write(
        "task3-L.t", "".join(f"q{q} Q0 d{q} 1 0.9 t\nq{q} Q0 x 2 0.8 t\n" for q in range(3))
    )
    cut, figure = tmp_path / "cut.txt", tmp_path / "curve.svg"
    argv = ["tune", gold, run, "--task", "1", "--write", str(cut), "--plot", str(figure)]
    read, written = os.pipe()
    if closed == "before":
        os.close(read)  # no reader at all: the first line printed fails
    process = subprocess.Popen(
        [sys.executable, "-m", "ir_coliee", *argv], stdout=written, stderr=subprocess.PIPE
    )
    os.close(written)
    if closed == "at once":
        os.close(read)
    assert process.wait(timeout=120) == 141
    assert process.stderr is not None and b"Traceback" not in process.stderr.read()
    # cutoff 1 keeps each query's first, all right; written as a Task 1 submission, tagged "tuned"
    assert cut.read_text() == "".join(f"q{q} d{q} tuned\n" for q in range(3))
    assert figure.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("forced, shown", [("1", True), ("0", False)])
def test_progress_bars_on_the_slow_steps(write, forced, shown):
    import os

    gold = write("gold.qrels", "q1 0 a 1\nq2 0 c 1\n")
    run = write("task3-L.t", "q1 Q0 a 1 0.9 t\nq1 Q0 x 2 0.8 t\nq2 Q0 c 1 0.9 t\n")
    env = {**os.environ, "IR_COLIEE_PROGRESS": forced}
    result = subprocess.run(
        [sys.executable, "-m", "ir_coliee", "tune", gold, run, "--task", "1"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0 and "best rank cutoff" in result.stdout
    assert ("ir_coliee: tuning MicroF1 over rank cutoffs" in result.stderr) is shown
    assert ("ir_coliee: reading task3-L.t" in result.stderr) is shown


def test_every_command_suggests_dataset_ids(write, capsys, coliee_home):
    run = write("task1.r", RUN_T1)
    for argv in (
        ["data", "check", "coliee/task1/2024/tset"],
        ["validate", run, "--task", "1", "--dataset", "coliee/task1/2024/tset"],
        ["baseline", "bm25", "coliee/task1/2024/tset", "--write", str(coliee_home / "out")],
    ):
        assert main(argv) == 2
        assert "did you mean coliee/task1/2024/test" in capsys.readouterr().err, argv


@pytest.mark.parametrize("forced", [None, "1"])
def test_bm25_bars_only_on_a_terminal(tmp_path, forced):
    """``baseline`` drew bm25s' bars into logs and pipes; now only where ir_coliee's own are shown."""
    import os

    from support import ROOT

    env = {k: v for k, v in os.environ.items() if k != "IR_COLIEE_PROGRESS"}
    env["COLIEE_HOME"] = str(ROOT / "ir_coliee" / "sample" / "release")
    env.update({"IR_COLIEE_PROGRESS": forced} if forced else {})
    argv = ["baseline", "bm25", "coliee/task1/2025/test", "--write", str(tmp_path / "run")]
    result = subprocess.run(
        [sys.executable, "-m", "ir_coliee", *argv], capture_output=True, text=True, env=env
    )
    assert result.returncode == 0, result.stderr
    # stderr is a pipe here: no bar unless forced, then bm25s' too ("Split strings", "BM25S Retrieve")
    assert ("BM25S" in result.stderr) is bool(forced)
    assert ("%|" in result.stderr) is bool(forced)


def test_a_run_read_line_by_line_shows_a_bar_by_bytes_with_a_time_estimate(
    write, capsys, monkeypatch
):
    from ir_coliee.model import FORMATS
    from ir_coliee.table.run_lines import read_columns

    path = write("task1.t", "q1 d1 t\n" * 10)  # 80 bytes
    monkeypatch.setenv("IR_COLIEE_PROGRESS", "1")
    assert len(read_columns(path, FORMATS["pairs"]).lines) == 10
    err = capsys.readouterr().err
    # the bar as first drawn: 0 of the file's 80 bytes, the time left not yet known
    assert "ir_coliee: reading task1.t line by line:   0%|" in err
    assert "0.00/80.0 [00:00<?, ?B/s]" in err
    monkeypatch.setenv("IR_COLIEE_PROGRESS", "0")
    read_columns(path, FORMATS["pairs"])
    assert capsys.readouterr().err == ""


def test_a_path_given_as_an_argument_never_forges_a_line_or_column_of_stderr(
    write, tmp_path, capsys
):
    gold, run = write("gold.json", GOLD_T1), write("task1_A.txt", RUN_T1)
    out = str(tmp_path / "nofolder\nFORGED: line" / "x.tsv")
    _, _, err = run_cli(capsys, "eval", "--task", "1", "--out", out, gold, run, expect=2)
    assert err.count("\n") == 1 and "nofolder\\nFORGED: line" in err
    # a category file's name in an error (its ids are not questions) and in a warning (a "#" in a name)
    by = write("c\t\x1b[2J\nx.txt", "000001.txt A#B\nnope A\n")
    _, _, err = run_cli(capsys, "analyse", "--task", "1", "--by", by, gold, run, expect=2)
    lines = err.splitlines()
    assert len(lines) == 2 and all("c\\t\\x1b[2J\\nx.txt" in line for line in lines), err
    assert lines[1].endswith("1 ids are not questions of the gold (nope)")


@pytest.mark.parametrize("asked", ["--help", "--version", "eval --help"])
def test_help_into_a_closed_pipe_has_the_status_of_every_command(asked):
    read, written = os.pipe()
    os.close(read)  # `ir_coliee --help | (exec 0<&-; true)`
    process = subprocess.Popen(
        [sys.executable, "-m", "ir_coliee", *asked.split()], stdout=written, stderr=subprocess.PIPE
    )
    os.close(written)
    assert process.wait(timeout=60) == 141
    assert process.stderr is not None and process.stderr.read() == b""


@pytest.mark.parametrize("asked", ["--help", "--version", "eval --help"])
def test_help_with_no_standard_output_is_said_as_a_command_says_it(asked):
    """``ir_coliee --help >&-``: Python starts without ``sys.stdout``; found by a review (a traceback)."""
    done = subprocess.run(
        [sys.executable, "-m", "ir_coliee", *asked.split()],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 2
    assert done.stderr == b"ir_coliee: error: standard output is closed\n"


def test_a_gold_query_named_all_is_said_to_share_the_name_of_the_totals(write, capsys):
    gold = write("gold.qrels", "all 0 d1 1\nq2 0 d2 1\n")
    run = write("task1.r", "all d1 t\nall d3 t\nq2 d4 t\nq2 d5 t\nq2 d6 t\n")
    argv = ["eval", gold, run, "--task", "1", "--per-query"]
    _, out, err = run_cli(capsys, *argv)
    # the query all: P 1/2, R 1/1, F1 2/3; the totals: P 1/5, R 1/2, F1 2/7
    rows = [line.split("\t") for line in out.splitlines() if line.startswith("all\tMicroF1")]
    assert [r[2] for r in rows] == ["0.6667", "0.2857"]
    assert "the gold has a query 'all', as the totals rows" in err
    _, _, err = run_cli(capsys, *argv, "--format", "json")  # no totals row: nothing to say
    assert err == ""
