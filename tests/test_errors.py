"""One error boundary for the command line and one for the public API; writers that keep what they
replace; messages that cannot drive a terminal; output a terminal cannot encode, replaced and not cut."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.cli import GOLD_T1, RUN_T1

import ir_coliee
from ir_coliee.cli import main
from ir_coliee.errors import ColieeError
from ir_coliee.outputs.tabular import write_rows

GOLD_A = "R06-01-A Y g\nR06-01-I N g\n"


def _cli(
    *args: str, env: dict | None = None, stdout=subprocess.PIPE
) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "ir_coliee", *args]
    return subprocess.run(
        command, stdout=stdout, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})}
    )


# --- the command line --------------------------------------------------------------------------------------


def test_a_required_package_that_fails_to_import_is_named_with_its_reinstall(tmp_path, write):
    """numpy, which every run is counted with (``import ir_coliee`` does not load it)."""
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text(
        'raise ImportError("libopenblas.so: cannot open")\n'
    )
    env = {"PYTHONPATH": os.pathsep.join([os.environ.get("PYTHONPATH", ""), str(tmp_path)])}
    run = write("task1.r", "000001 Q0 000002 1 0.5 X\n")
    done = _cli("eval", write("g.json", GOLD_T1), run, env=env)
    assert done.returncode == 2
    assert done.stderr == (
        "ir_coliee: error: the required package numpy failed to import (libopenblas.so: cannot open): "
        "pip install --force-reinstall numpy\n"
    )


@pytest.mark.parametrize(
    "error, code, said",
    [
        (
            KeyError("000001"),
            2,
            "`ir_coliee eval` failed: KeyError: '000001'. This is a bug of ir_coliee",
        ),
        (RecursionError("deep"), 2, "an input nested too deeply to read"),
        (
            ImportError("libfoo.so: cannot open", name="matplotlib"),
            2,
            "the optional package matplotlib failed to import (libfoo.so: cannot open): pip install --force-reinstall matplotlib",
        ),
        (AttributeError("x"), 2, "`ir_coliee eval` failed: AttributeError: x"),
    ],
)
def test_anything_below_a_command_is_one_message_and_an_exit_code(
    monkeypatch, write, capsys, error, code, said
):
    import ir_coliee.scoring.files

    def broken(*args, **kwargs):
        raise error

    monkeypatch.setattr(ir_coliee.scoring.files, "score_files", broken)
    assert main(["eval", write("g.json", GOLD_T1), write("task1.r", RUN_T1)]) == code
    err = capsys.readouterr().err
    assert err.startswith("ir_coliee: error: ") and said in err and "Traceback" not in err
    # --debug adds the traceback, and keeps the exit code the error has without it
    assert main(["--debug", "eval", write("g.json", GOLD_T1), write("task1.r", RUN_T1)]) == code
    err = capsys.readouterr().err
    assert "Traceback" in err and f"{type(error).__name__}" in err and said in err
    monkeypatch.setenv("IR_COLIEE_DEBUG", "1")
    assert main(["eval", write("g.json", GOLD_T1), write("task1.r", RUN_T1)]) == code
    assert "Traceback" in capsys.readouterr().err


def test_a_full_standard_output_is_named(write):
    with open("/dev/full", "w") as full:
        done = _cli(
            "eval", write("g.json", GOLD_T1), write("task1.r", RUN_T1), "--task", "1", stdout=full
        )
    assert done.returncode == 2
    assert (
        done.stderr.strip().splitlines()[-1]
        == "ir_coliee: error: <standard output>: No space left on device"
    )


def test_a_mistyped_second_run_file_is_no_measure(write, capsys):
    assert (
        main(
            [
                "eval",
                write("g.json", GOLD_T1),
                write("task1.r", RUN_T1),
                "task1.typo",
                "--task",
                "1",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == "ir_coliee: error: no such run file: task1.typo\n"


def test_an_egov_law_nested_20000_deep_names_the_file(coliee_home, capsys):
    from support.statute2026_data import PACKAGE, write_2026_package

    write_2026_package(coliee_home)
    law = coliee_home / PACKAGE / "129AC0000000089_20240524_506AC0000000033.xml"
    law.write_text('<?xml version="1.0"?>\n<Law>' + "<P>" * 20_000 + "</P>" * 20_000 + "</Law>\n")
    assert main(["datasets", "export", "coliee/task3/2026/train/ja", "docs"]) == 2
    err = capsys.readouterr().err
    assert f"ir_coliee: error: {law}:" in err and ": XML nested more than 200 elements deep" in err
    assert "Traceback" not in err


def test_ids_that_would_drive_the_terminal_are_shown_escaped(write, capsys):
    run = write("task1.r", "000001 000010 t\n\x1b[2J\u202e000009 000010 t\n")
    assert main(["eval", write("g.json", GOLD_T1), run, "--task", "1"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\u202e" not in err
    assert "\\x1b[2J\\u202e000009" in err


def test_output_a_terminal_cannot_encode_is_replaced_not_cut(tmp_path):
    folder = tmp_path / "équipe"
    folder.mkdir()
    (folder / "g.json").write_text(GOLD_T1)
    (folder / "task1.r").write_text(RUN_T1)
    done = _cli(
        "eval",
        str(folder / "g.json"),
        str(folder / "task1.r"),
        "--task",
        "1",
        env={"PYTHONIOENCODING": "ascii"},
    )
    assert done.returncode == 0, done.stderr
    _, row = done.stdout.splitlines()
    assert row.split("\t")[:4] == ["univABC", "0.6667", "0.5000", "0.5714"]
    assert row.endswith("/?quipe/task1.r")


# --- the public API ----------------------------------------------------------------------------------------


def test_a_public_verb_turns_anything_below_into_a_coliee_error(monkeypatch, write):
    door = sys.modules["ir_coliee.inputs.door"]

    def broken(*args, **kwargs):
        raise KeyError("q1")

    monkeypatch.setattr(door, "load_gold", broken)
    with pytest.raises(ColieeError, match=r"^score: KeyError: 'q1' \(an input shape") as info:
        ir_coliee.score(write("g.json", GOLD_T1), write("task1.r", RUN_T1), task=1)
    assert isinstance(info.value.__cause__, KeyError)  # kept for a bug report
    with pytest.raises(TypeError):  # a call that does not fit the signature is Python's own error
        ir_coliee.score(write("g.json", GOLD_T1), write("task1.r", RUN_T1), tsk=1)


@given(
    gold=st.dictionaries(
        st.sampled_from(["1", "2", "3"]), st.sets(st.sampled_from("abcd"), min_size=1), min_size=1
    ),
    run=st.lists(
        st.tuples(st.sampled_from(["1", "2", "3"]), st.sampled_from("abcde")),
        min_size=1,
        max_size=12,
    ),
)
def test_open_files_score_as_their_paths(tmp_path_factory, gold, run):
    folder = tmp_path_factory.mktemp("open")
    gold_text = "".join(f"{q} 0 {d} 1\n" for q, docs in sorted(gold.items()) for d in sorted(docs))
    run_text = "".join(f"{q} {d} t\n" for q, d in run)
    (folder / "gold.qrels").write_text(gold_text)
    (folder / "task1.t").write_text(run_text)
    try:
        expected = ir_coliee.score(
            str(folder / "gold.qrels"), str(folder / "task1.t"), task=1
        ).rows[0]
    except ColieeError as e:  # no shared query: every shape is refused alike
        with pytest.raises(ColieeError, match="shares no query"):
            ir_coliee.score(io.StringIO(gold_text), io.StringIO(run_text), task=1)
        assert "shares no query" in str(e)
        return
    tp = sum(1 for q, d in set(run) if d in gold.get(q, ()))
    assert expected["MicroR"] == pytest.approx(float(F(tp, sum(map(len, gold.values())))))
    for shape in (
        lambda: (open(folder / "gold.qrels"), open(folder / "task1.t")),
        lambda: (open(folder / "gold.qrels", "rb"), open(folder / "task1.t", "rb")),
        lambda: (io.StringIO(gold_text), io.BytesIO(run_text.encode())),
    ):
        gold_in, run_in = shape()
        row = ir_coliee.score(gold_in, run_in, task=1).rows[0]
        assert [row[m] for m in ("MicroP", "MicroR", "MicroF1")] == [
            expected[m] for m in ("MicroP", "MicroR", "MicroF1")
        ]


# --- writers -----------------------------------------------------------------------------------------------

RUN = {"q1": {"d1": 2.0, "d2": 1.0}}


def test_a_written_file_keeps_the_mode_of_the_one_it_replaces(tmp_path):
    target = tmp_path / "task1.out"
    target.write_text("old\n")
    target.chmod(0o640)
    ir_coliee.write_run(RUN, target, format="pairs", tag="t")
    assert (
        stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_text() == "q1 d1 t\nq1 d2 t\n"
    )


def test_a_new_file_gets_the_umask_default(tmp_path):
    old = os.umask(0o027)
    try:
        ir_coliee.write_run(RUN, tmp_path / "task1.new", format="pairs", tag="t")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "task1.new").stat().st_mode) == 0o640


def test_writing_to_a_link_writes_its_target(tmp_path):
    target = tmp_path / "real.run"
    target.write_text("old\n")
    link = tmp_path / "task1.link"
    link.symlink_to(target)
    ir_coliee.write_run(RUN, link, format="pairs", tag="t")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "q1 d1 t\nq1 d2 t\n"


def test_a_hard_linked_file_is_written_in_place_a_loop_and_a_read_only_file_refused(
    write, capsys, monkeypatch
):
    gold = write("g.json", '{"q1": ["d1"]}')
    run = write("task1.s", "q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\n")
    out = write("task1.cut", "old\n")
    os.link(out, out + ".other")
    assert main(["tune", gold, run, "--task", "1", "--write", out, "--tag", "cut"]) == 0
    assert (
        open(out + ".other").read() == "q1 d1 cut\n" and os.stat(out).st_nlink == 2
    )  # the other name sees it
    loop = os.path.join(os.path.dirname(out), "task1.loop")
    os.symlink(loop, loop)
    capsys.readouterr()
    assert main(["tune", gold, run, "--task", "1", "--write", loop, "--tag", "cut"]) == 2
    assert (
        capsys.readouterr().err
        == f"ir_coliee: error: {loop}: cannot write (a loop of symbolic links)\n"
    )
    assert os.path.islink(loop)
    monkeypatch.setattr(
        os, "access", lambda path, how: how != os.W_OK
    )  # root writes a 0444 file: not a shell
    assert main(["tune", gold, run, "--task", "1", "--write", out, "--tag", "cut"]) == 2
    assert capsys.readouterr().err == f"ir_coliee: error: {out}: cannot write (permission denied)\n"


def test_writing_to_standard_output_leaves_it_the_run_alone(write):
    gold = write("g.json", '{"q1": ["d1"]}')
    run = write("task1.s", "q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\n")
    for target in ("-", "/dev/stdout"):
        done = _cli("tune", gold, run, "--task", "1", "--write", target, "--tag", "cut")
        assert done.returncode == 0, done.stderr
        assert done.stdout == "q1 d1 cut\n"  # a valid submission, as `> task1.cut` keeps it
        assert done.stderr.splitlines() == [
            "# best rank cutoff: 1 (MicroF1 = 1.0000)",
            f"written: {target}",
        ]


@pytest.mark.parametrize(
    "measure",
    [
        "P@0",
        "R@0",
        "nDCG@0",
        "AP@0",
        "Judged@0",
        "P@99999999999999999999",
        "P(rel=0)@5",
        "MicroF(beta=1e400)",
    ],
)
def test_measures_that_would_crash_or_mislead_are_refused(write, capsys, measure):
    """A cutoff of 0 aborts trec_eval's C code, the whole process: refused before any work, exit 2."""
    assert (
        main(["eval", write("g.json", GOLD_T1), write("task1.r", RUN_T1), measure, "--task", "1"])
        == 2
    )
    err = capsys.readouterr().err
    assert (
        err.startswith(f"ir_coliee: error: unknown or malformed measure {measure!r}")
        and "bug" not in err
    )
    with pytest.raises(ValueError, match="must be"):
        ir_coliee.evaluate(
            ir_coliee.read_qrels(write("g2.json", GOLD_T1)),
            ir_coliee.read_run(write("task1.r2", RUN_T1)),
            [measure],
            task=1,
        )


def test_validate_escapes_run_tags_on_standard_output(write, capsys):
    run = write("t.txt", "000001 000010 a\n000001 000011 \x1b[2Jb\n")
    assert main(["validate", run, "--task", "1"]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "2 run tags (a, \\x1b[2Jb)" in out


def test_readers_take_no_file_descriptor(write):
    with pytest.raises(ColieeError, match=r"^<input>: int 0 is no path; expected a file.s path$"):
        ir_coliee.read_label_json(0)
    with pytest.raises(ColieeError, match=r"^<input>: bool True is no path"):
        ir_coliee.read_label_json(True)
    print("standard output still open")  # a descriptor read as a file would have been closed


@pytest.mark.parametrize("bad", [0, -1, 1.5])
def test_write_run_refuses_a_max_per_query_that_is_no_count(tmp_path, bad):
    with pytest.raises(ColieeError, match="max_per_query must be a whole number of at least 1"):
        ir_coliee.write_run(RUN, tmp_path / "task3-L.x", format="trec", tag="t", max_per_query=bad)
    assert not (tmp_path / "task3-L.x").exists()


def test_a_write_that_fails_leaves_the_old_file_and_names_the_path(tmp_path):
    target = tmp_path / "task1.out"
    target.write_text("old\n")
    with pytest.raises(ColieeError, match="must have exactly one answer"):
        ir_coliee.write_run({"q1": {"Y": 1.0, "N": 0.5}}, target, format="answers", tag="t")
    assert target.read_text() == "old\n"
    with pytest.raises(OSError, match=r"cannot write \(No space left on device\): '/dev/full'"):
        ir_coliee.write_run(RUN, "/dev/full", format="pairs", tag="t")
    assert Path(target).read_text() == "old\n"


def test_a_broken_optional_package_is_refused_before_any_work(tmp_path, write):
    broken = tmp_path / "site"
    (broken / "matplotlib").mkdir(parents=True)
    (broken / "matplotlib" / "__init__.py").write_text(
        "raise OSError('libpng16.so.16: cannot open shared object file')\n"
    )
    out = tmp_path / "curve.png"
    cut = tmp_path / "task1.cut"
    gold, run = (
        write("g.json", '{"q1": ["d1"]}'),
        write("task1.s", "q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\n"),
    )
    done = _cli(
        "tune",
        gold,
        run,
        "--task",
        "1",
        "--write",
        str(cut),
        "--plot",
        str(out),
        env={"PYTHONPATH": str(broken)},
    )
    assert done.returncode == 2 and done.stdout == ""
    assert (
        "--plot needs matplotlib, which is installed but fails to import (OSError: libpng16.so.16"
        in done.stderr
    )
    assert not cut.exists() and not out.exists()  # refused before the work


def test_run_names_and_paths_in_a_printed_table_cannot_drive_the_terminal(tmp_path, capsys):
    folder = tmp_path / "team\x1b[2J"
    folder.mkdir()
    (tmp_path / "g.json").write_text(GOLD_T1)
    (folder / "task1.r").write_text(RUN_T1.replace("univABC", "univ\u202eA"))
    measures = [
        "MicroP",
        "MicroR",
        "MicroF1",
    ]  # named: this test is about the names, not the defaults
    assert (
        main(["eval", str(tmp_path / "g.json"), str(folder / "task1.r"), *measures, "--task", "1"])
        == 0
    )
    header, row = capsys.readouterr().out.splitlines()
    assert header.split("\t") == ["run", "MicroP", "MicroR", "MicroF1", "path"]
    # the bidirectional mark and the escape byte are written out, never sent to the terminal
    assert row.split("\t") == [
        "univ\\u202eA",
        "0.6667",
        "0.5000",
        "0.5714",
        str(folder / "task1.r").replace("\x1b", "\\x1b"),
    ]
    table = io.StringIO()
    write_rows(["run", "path"], [["a\tb", "c\nd"]], table, 4)
    assert (
        table.getvalue() == "run\tpath\na\\tb\tc\\nd\n"
    )  # a tab or line end in a cell splits no row


def test_json_on_a_terminal_that_cannot_encode_a_name_escapes_it_as_json(tmp_path):
    folder = tmp_path / "équipe"
    folder.mkdir()
    (tmp_path / "g.json").write_text(GOLD_T1)
    (folder / "task1.r").write_text(RUN_T1)
    done = _cli(
        "eval",
        str(tmp_path / "g.json"),
        str(folder / "task1.r"),
        *("MicroP", "MicroR", "MicroF1"),  # named: this test is about the names, not the defaults
        "--task",
        "1",
        "--format",
        "json",
        env={"PYTHONIOENCODING": "ascii"},
    )
    assert done.returncode == 0, done.stderr
    import json

    doc = json.loads(done.stdout)
    assert (
        doc["path"] == str(folder / "task1.r")
        and "\\u00e9quipe" in done.stdout
        and "?" not in done.stdout
    )
    assert {m: round(v, 4) for m, v in doc["measures"].items()} == {
        "MicroP": 0.6667,
        "MicroR": 0.5,
        "MicroF1": 0.5714,
    }


@pytest.mark.parametrize(
    "call, said",
    [
        (
            lambda w: ir_coliee.write_run({"q1": {"d1": 1.0}}, w("out.r", ""), "trec", "no tag!"),
            "run tag 'no tag!' is not allowed",
        ),
        (
            lambda w: ir_coliee.compare(
                w("g.json", GOLD_T1), {"a": {"1": {"a": 1.0}}}, ["MicroF1"], correction="x"
            ),
            "unknown correction 'x'",
        ),
        (
            lambda w: ir_coliee.tune_cutoff(
                {"q": {"d": 1}}, {"q": {"d": 1.0}}, "MicroF1", over="depth"
            ),
            "unknown cutoff kind 'depth'",
        ),
    ],
)
def test_an_argument_the_api_does_not_take_is_said_plainly_not_as_a_bug(write, call, said):
    with pytest.raises(ir_coliee.ColieeArgumentError) as info:
        call(write)
    assert said in str(info.value) and "bug" not in str(info.value)
    assert isinstance(info.value, ValueError)  # what Python's own argument errors are


@pytest.mark.parametrize(
    "options, said",
    [
        ({"confidence": 2}, "confidence must be between 0 and 1"),
        ({"confidence": 0}, "confidence must be between 0 and 1"),
        ({"resamples": 0}, "resamples must be a whole number of at least 1"),
        ({"resamples": 1.5}, "resamples must be a whole number of at least 1"),
    ],
)
def test_compare_refuses_an_interval_or_a_resampling_it_cannot_make(options, said):
    gold, run = {"q": {"d": 1}}, {"q": {"d": 1.0}}
    with pytest.raises(ir_coliee.ColieeArgumentError, match=said):
        ir_coliee.compare(gold, {"a": run, "b": run}, ["MicroF1"], **options)


def test_a_measure_parameter_out_of_range_is_an_argument_error():
    with pytest.raises(
        ir_coliee.ColieeArgumentError, match="cutoff must be a positive whole number"
    ):
        ir_coliee.calc_aggregate([ir_coliee.MicroF1 @ 0], {"q": {"d": 1}}, {"q": {"d": 1.0}})


def test_a_measure_declared_without_its_formula_is_refused_where_it_is_declared():
    from ir_coliee.measures.base import REGISTRY, ColieeMeasure, declare

    class _NoFormula(ColieeMeasure):
        __name__ = "NoFormula"
        NAME = __name__

    with pytest.raises(TypeError, match="NoFormula declares no formula"):
        declare(_NoFormula())
    assert "NoFormula" not in REGISTRY


def test_latex_cells_escape_the_backslashes_they_hold():
    table = io.StringIO()
    write_rows(["path"], [["a\\b~c^d_e"]], table, 4, style="latex")
    assert "a\\textbackslash{}b\\textasciitilde{}c\\textasciicircum{}d\\_e \\\\" in table.getvalue()


def test_an_os_error_that_is_no_write_error_is_not_blamed_on_standard_output() -> None:
    """A shared library that fails to load raises an OSError without a file name: not a full device."""
    from ir_coliee.cli import failure

    assert failure(OSError(8, "Exec format error"), "eval") == (2, "OSError: Exec format error")
    assert failure(OSError(28, "No space left on device"), "eval") == (
        2,
        "<standard output>: No space left on device",
    )


def test_debug_keeps_the_exit_code_of_unreadable_input(write, tmp_path, capsys):
    missing = str(tmp_path / "nosuch.json")
    assert main(["eval", missing, write("task1.r", RUN_T1), "--task", "1"]) == 2
    plain = capsys.readouterr().err
    assert main(["--debug", "eval", missing, write("task1.r", RUN_T1), "--task", "1"]) == 2
    debug = capsys.readouterr().err
    assert "Traceback" in debug and debug.endswith(plain) and "Traceback" not in plain


@pytest.mark.parametrize(
    "call, said",
    [
        (lambda g: ir_coliee.analyse(g, [g], by=[7]), "by: give at least one grouping"),
        (lambda g: ir_coliee.analyse(g, [g], by=["length", "length"]), "given twice"),
        (lambda g: ir_coliee.tune(g, g, over="depth"), "unknown cutoff kind 'depth'"),
        (lambda g: ir_coliee.tune(g, g, max_rank=2.5), "max_rank must be a whole number"),
        (lambda g: ir_coliee.tune_cutoff(g, g, steps=0), "steps must be a whole number"),
        (lambda g: ir_coliee.compare_runs(g, [g, g], resamples=0), "resamples must be"),
        (lambda g: ir_coliee.compare_runs(g, [g, g], seed=-1), "seed must be"),
        (lambda g: ir_coliee.benchmark({"b": {"s": g}}, resamples=0), "resamples must be"),
    ],
)
def test_arguments_are_refused_before_any_file_is_read(tmp_path, call, said):
    missing = str(tmp_path / "nosuch.qrels")  # read first, this would be the error
    with pytest.raises(ir_coliee.ColieeArgumentError, match=said):
        call(missing)
