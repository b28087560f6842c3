"""Every argument of every verb checked before any file is read or any work done: each refusal here comes
with the reader (or the scorer) never called, and the same command without the bad argument calls it."""

from __future__ import annotations

import pytest
from support.cli import run_cli

from ir_coliee.errors import ColieeError
from ir_coliee.inputs import door
from ir_coliee.scoring import benchmark, page


@pytest.fixture
def reads(monkeypatch):
    """The calls of the gold reader (each stops the command there, exit 2)."""
    calls: list[object] = []

    def load_gold(gold):
        calls.append(gold)
        raise ColieeError("work began")

    monkeypatch.setattr(door, "load_gold", load_gold)
    return calls


@pytest.fixture
def files(write):
    return {
        "gold": write("gold.qrels", "q1 0 a 1\nq2 0 c 1\n"),
        "run": write("x.run", "q1 Q0 a 1 3.0 x\nq2 Q0 b 1 2.0 x\n"),
        "other": write("y.run", "q1 Q0 b 1 3.0 y\nq2 Q0 c 1 2.0 y\n"),
        "cats": write("cats.tsv", "q1 one\nq2 two\n"),
    }


# (verb and its arguments, the bad argument added, what the refusal says)
REFUSED = [
    ("eval {gold} {run}", "Bogus", "unknown or malformed measure 'Bogus'"),
    ("eval {gold} {run} --task 1", "--leaderboard", "--leaderboard needs the edition"),
    ("compare {gold} {run} {other}", "--measure Bogus", "unknown or malformed measure"),
    ("compare {gold} {run} {other}", "--baseline -1", "baseline -1 is not the index of a run"),
    ("analyse {gold} {run} --by {cats}", "--measure Bogus", "unknown or malformed measure"),
    ("analyse {gold} {run} --by {cats}", "--by nonexist.txt", "by 'nonexist.txt': neither"),
    ("analyse {gold} {run} --by {cats}", "--by anonymised", 'by="anonymised" reads the question'),
    ("report {gold} {run} --out {tmp}/p.html", "--by nonexist.txt", "by 'nonexist.txt'"),
    ("report {gold} {run} --out {tmp}/p.html", "--measure Bogus", "unknown or malformed"),
    ("tune {gold} {run}", "--measure Bogus", "unknown or malformed measure"),
    ("tune {gold} {run}", "--apply {tmp}/nonexist", "nonexist': no such run file"),
    ("tune {gold} {run} --write {tmp}/t.txt", "--tag a_b!", "run tag 'a_b!' is not allowed"),
    ("compare {gold} {run} {other} --out {tmp}/x.png", "--plot {tmp}/x.png", "--out writes there"),
    ("analyse {gold} {run} --by {cats} --out {tmp}/x.svg", "--plot {tmp}/x.svg", "writes there"),
    ("tune {gold} {run} --out {tmp}/t.txt", "--write {tmp}/t.txt", "--out writes there too"),
    ("tune {gold} {run} --write {tmp}/t.png", "--plot {tmp}/t.png", "--plot writes there too"),
    ("eval {gold} {run}", "--out {run}", "x.run: is an input too (inputs)"),
    ("tune {gold} {run} --apply {other}", "--write {other}", "y.run: is an input too (apply)"),
]


@pytest.mark.parametrize(("command", "bad", "said"), REFUSED)
def test_a_bad_argument_is_refused_before_the_gold_is_read(
    command, bad, said, files, reads, tmp_path, capsys
):
    pytest.importorskip("matplotlib") if "--plot" in bad else None
    argv = command.format(tmp=tmp_path, **files).split()
    _, _, err = run_cli(capsys, *argv, expect=2)
    assert reads == [files["gold"]] and "work began" in err  # without it: the work begins
    _, _, err = run_cli(capsys, *argv, *bad.format(tmp=tmp_path, **files).split(), expect=2)
    assert said in err and reads == [files["gold"]]  # refused, the gold never read again


def test_a_report_baseline_that_is_no_run_is_refused_before_scoring(files, monkeypatch, capsys):
    scored: list[object] = []

    def scoring(*args, **kwargs):
        scored.append(args)
        raise ColieeError("work began")

    monkeypatch.setattr(page, "score", scoring)
    argv = ["report", files["gold"], files["run"], "--out", "p.html", "--task", "1"]
    _, _, err = run_cli(capsys, *argv, "--baseline", "x", expect=2)
    assert "work began" in err and len(scored) == 1
    _, _, err = run_cli(capsys, *argv, "--baseline", "7", expect=2)
    assert "baseline '7' is not one of the runs (x)" in err and len(scored) == 1


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ("--measure {tmp}/no.qrels=P@1", "--measure {tmp}/no.qrels: no benchmark of that name"),
        ("--measure {tmp}/gold.qrels=Bogus", "unknown or malformed measure 'Bogus'"),
        ("--name {tmp}/no.qrels=T", "--name {tmp}/no.qrels: no benchmark or system of that name"),
        ("--name x=X --name x=Y", "--name x: named twice (X, Y)"),
        ("--baseline z", "the baseline 'z' has no run on"),
    ],
)
def test_a_benchmark_argument_is_refused_before_any_scoring(
    bad, said, write, files, monkeypatch, capsys, tmp_path
):
    scored: list[str] = []

    def score_benchmark(name, *args):
        scored.append(name)
        raise ColieeError("work began")

    monkeypatch.setattr(benchmark, "score_benchmark", score_benchmark)
    manifest = write("runs.tsv", "gold.qrels\tx\tx.run\ngold.qrels\ty\ty.run\n")
    argv = ["benchmark", manifest, "--measure", f"{tmp_path}/gold.qrels=P@1"]
    _, _, err = run_cli(capsys, *argv, expect=2)
    assert "work began" in err and scored == [f"{tmp_path}/gold.qrels"]
    _, _, err = run_cli(capsys, *argv, *bad.format(tmp=tmp_path, **files).split(), expect=2)
    assert said.format(tmp=tmp_path) in err and len(scored) == 1


def test_a_compare_baseline_past_the_runs_is_refused_before_scoring(files, monkeypatch):
    from ir_coliee.scoring import compare

    scored: list[object] = []

    def compare_rows(*args, **kwargs):
        scored.append(args)
        raise ColieeError("work began")

    monkeypatch.setattr(compare, "compare_rows", compare_rows)
    runs = [files["run"], files["other"]]
    with pytest.raises(ColieeError, match=r"baseline 2 is not the index of a run \(0 to 1\)"):
        compare.compare_runs(files["gold"], runs, task=1, baseline=2)
    assert scored == []
    with pytest.raises(ColieeError, match="work began"):  # baseline 1: the runs are compared
        compare.compare_runs(files["gold"], runs, task=1, baseline=1)
    assert len(scored) == 1


def test_a_compare_baseline_is_a_run_by_name_or_index_as_report_and_benchmark_take_it(
    files, monkeypatch, capsys
):
    """``--baseline y`` is ``--baseline 1``; a name that is no run is refused before any scoring."""
    argv = ["compare", files["gold"], files["run"], files["other"], "--task", "1"]
    by_index = run_cli(capsys, *argv, "--baseline", "1", "--resamples", "200")[1]
    by_name = run_cli(capsys, *argv, "--baseline", "y", "--resamples", "200")[1]
    assert by_name == by_index
    # the baseline row is marked: y's, not x's
    rows = {line.split("\t")[0]: line.split("\t")[1] for line in by_name.splitlines()[1:]}
    assert rows == {"x": "False", "y": "True"}

    from ir_coliee.scoring import compare

    scored: list[object] = []
    monkeypatch.setattr(compare, "compare_rows", lambda *a, **k: scored.append(a))
    _, _, err = run_cli(capsys, *argv, "--baseline", "z", expect=2)
    assert "baseline 'z' is not one of the runs (x, y)" in err and scored == []
