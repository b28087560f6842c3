"""The one door: a run scores the same in every shape and id convention a host hands over as the plain
official file, equal to an independent reference of the official definitions, or it is refused."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections import namedtuple

import ir_measures
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ir_measures import ScoredDoc
from support.cases import micro_reference

import ir_coliee
from ir_coliee.errors import ColieeScoringError, ColieeWarning

Row = namedtuple("Row", "query_id doc_id score")  # a host's own row type


def _ranked(pairs: list[tuple[str, str]]) -> list[tuple[str, str, float]]:
    return [(q, d, float(len(pairs) - i)) for i, (q, d) in enumerate(pairs)]


# every shape a host hands over, with the official ids ("000001") in their own convention
SHAPES = {
    "generator of ScoredDoc": lambda rows: (ScoredDoc(q, d, s) for q, d, s in rows),
    "map object": lambda rows: map(lambda r: ScoredDoc(*r), rows),
    "list of a host's namedtuples": lambda rows: [Row(*r) for r in rows],
    "plain tuples": lambda rows: [tuple(r) for r in rows],
    "DataFrame of strings": lambda rows: pd.DataFrame(
        rows, columns=["query_id", "doc_id", "score"]
    ),
    "DataFrame of integers (pandas read 000001 as 1)": lambda rows: pd.DataFrame(
        [(int(q), int(d), s) for q, d, s in rows], columns=["query_id", "doc_id", "score"]
    ),
    "DataFrame of categoricals": lambda rows: pd.DataFrame(
        rows, columns=["query_id", "doc_id", "score"]
    ).astype({"query_id": "category", "doc_id": "category"}),
    "PyTerrier result frame": lambda rows: pd.DataFrame(rows, columns=["qid", "docno", "score"]),
    "DataFrame of whole floats (pandas read ids beside a NaN)": lambda rows: pd.DataFrame(
        [(float(q), float(d), s) for q, d, s in rows], columns=["query_id", "doc_id", "score"]
    ),
    "PyTerrier's text of float qids (1.0)": lambda rows: pd.DataFrame(
        [(str(float(q)), d, s) for q, d, s in rows], columns=["qid", "docno", "score"]
    ),
    "dict of dicts, numpy scores": lambda rows: {
        q: {d: np.float32(s) for qq, d, s in rows if qq == q}
        for q in dict.fromkeys(r[0] for r in rows)
    },
    ".txt suffixes": lambda rows: [ScoredDoc(q + ".txt", d + ".txt", s) for q, d, s in rows],
    "dataset-scoped ids (826/032)": lambda rows: [ScoredDoc(q, f"{q}/{d}", s) for q, d, s in rows],
}

ids = st.integers(1, 12).map(lambda i: f"{i:06d}")
golds = st.dictionaries(ids, st.sets(ids, min_size=1, max_size=4), min_size=1, max_size=4)
runs = st.lists(st.tuples(ids, ids), min_size=1, max_size=25, unique=True)


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@settings(max_examples=40, deadline=None)
@given(gold=golds, pairs=runs)
def test_every_shape_scores_as_the_official_file_or_is_refused(tmp_path_factory, gold, pairs):
    folder = tmp_path_factory.mktemp("door")
    gold_file = folder / "gold.json"
    gold_file.write_text(
        json.dumps({f"{q}.txt": sorted(f"{d}.txt" for d in ds) for q, ds in gold.items()})
    )
    run_file = folder / "task1.t"
    run_file.write_text("".join(f"{q} {d} t\n" for q, d in pairs))
    rows = _ranked(pairs)
    expected = [float(v) for v in micro_reference(gold, set(pairs))]
    measures = [ir_coliee.MicroP, ir_coliee.MicroR, ir_coliee.MicroF1]
    try:
        from_file = ir_coliee.score(str(gold_file), str(run_file), task=1).table
    except ColieeScoringError as refused:  # shares no query with the gold: refused in every shape
        assert "shares no query" in str(refused)
        for make in SHAPES.values():
            with pytest.raises(ColieeScoringError, match="shares no query"):
                ir_coliee.score(str(gold_file), make(rows), task=1)
            with pytest.warns(
                ColieeWarning, match="shares no query"
            ):  # ir_measures' 0s, not unseen
                values = ir_coliee.calc_aggregate(
                    measures, ir_coliee.read_qrels(gold_file), make(rows)
                )
            assert list(values.values()) == [0.0, 0.0, 0.0]
        return
    assert from_file[["MicroP", "MicroR", "MicroF1"]].iloc[0].tolist() == pytest.approx(
        expected, abs=1e-12
    )
    for name, make in SHAPES.items():
        table = ir_coliee.score(str(gold_file), make(rows), task=1).table
        assert table[["MicroP", "MicroR", "MicroF1"]].iloc[0].tolist() == pytest.approx(
            expected, abs=1e-12
        ), name
        # the host's own entry point reads the same shapes the same way
        values = ir_coliee.calc_aggregate(measures, ir_coliee.read_qrels(gold_file), make(rows))
        assert [values[m] for m in measures] == pytest.approx(expected, abs=1e-12), name
    # the official file against a dataset's scoped qrels (826/032), through ir_measures itself
    scoped = [ir_measures.Qrel(q, f"{q}/{d}", 1) for q, ds in gold.items() for d in ds]
    values = ir_measures.calc_aggregate(measures, scoped, ir_coliee.read_run(run_file))
    assert [values[m] for m in measures] == pytest.approx(expected, abs=1e-12)


def test_ir_measures_warns_of_a_run_sharing_no_query_with_the_qrels():
    """ir_measures scores a gold query absent from the run as 0, by design, as pytrec_eval does (the oracle
    tests hold us to it); a run none of whose queries is in the qrels is most likely an id mismatch, whose
    0.0 would pass unseen (as in PyTerrier): a warning names both sides."""
    qrels = [ir_measures.Qrel("q1", "d1", 1), ir_measures.Qrel("q2", "d2", 1)]
    run = [ScoredDoc("Q1", "d1", 1.0), ScoredDoc("Q2", "d2", 1.0)]
    with pytest.warns(
        ColieeWarning,
        match=r"shares no query with the qrels: every value is 0 \(run: 2 queries, e.g. Q1, Q2",
    ):
        values = ir_coliee.calc_aggregate([ir_coliee.MicroF1, ir_measures.SetF], qrels, run)
    assert values == {ir_coliee.MicroF1: 0.0, ir_measures.SetF: 0.0}
    with warnings.catch_warnings():
        warnings.simplefilter(
            "error"
        )  # a run with no line at all (a pipeline that retrieved nothing): a true 0
        assert ir_coliee.calc_aggregate([ir_coliee.MicroF1], qrels, []) == {ir_coliee.MicroF1: 0.0}
        # one shared query of two: the other counts as retrieved nothing (P 1/1, R 1/2: F1 = 2/3)
        values = ir_coliee.calc_aggregate([ir_coliee.MicroF1], qrels, [ScoredDoc("q1", "d1", 1.0)])
    assert values[ir_coliee.MicroF1] == pytest.approx(2 / 3)


def test_a_generator_is_read_once_by_every_api(write):
    gold = write("g.json", json.dumps({"001": ["010.txt", "011.txt"], "002": ["012.txt"]}))
    rows = [("001", "010", 3.0), ("001", "099", 2.0), ("002", "012", 1.0)]

    def gen():
        return (ScoredDoc(*r) for r in rows)

    # tp 2 of retrieved 3, relevant 3: P = R = F1 = 2/3
    assert ir_coliee.score(gold, gen(), task=1).table["MicroF1"].iloc[0] == pytest.approx(2 / 3)
    assert ir_coliee.evaluate(ir_coliee.read_qrels(gold), gen(), task=1)["MicroF1"].iloc[
        0
    ] == pytest.approx(2 / 3)
    table = ir_coliee.compare_runs(gold, {"a": gen(), "b": gen()}, task=1, resamples=50).table
    assert table["MicroF1"].tolist() == pytest.approx([2 / 3, 2 / 3])
    tuned = ir_coliee.tune(gold, gen(), task=1, max_rank=3)
    assert tuned.tuned.value == pytest.approx(
        2 / 3 if tuned.tuned.cutoff >= 2 else 0.8
    )  # @1: 2/2 and 2/3: F1 4/5
    assert tuned.tuned.value == pytest.approx(4 / 5) and tuned.tuned.cutoff == 1
    # an ir_measures measure beside ours: both providers see the same (once read) run
    values = ir_coliee.calc_aggregate(
        [ir_coliee.MicroR, ir_measures.R @ 10], ir_coliee.read_qrels(gold), gen()
    )
    assert values[ir_coliee.MicroR] == pytest.approx(2 / 3) and values[
        ir_measures.R @ 10
    ] == pytest.approx(3 / 4)


def test_a_consumed_generator_is_refused_not_scored_zero(write):
    gold = write("g.json", json.dumps({"001": ["010.txt"]}))
    run = (ScoredDoc(q, d, s) for q, d, s in [("001", "010", 1.0)])
    list(run)
    with pytest.raises(ColieeScoringError, match="shares no query"):
        ir_coliee.score(gold, run, task=1)


@pytest.mark.parametrize(
    "run, problem",
    [
        (
            pd.DataFrame(
                {"query_id": ["001", None], "doc_id": ["010", "011"], "score": [1.0, 2.0]}
            ),
            "row 1",
        ),
        (
            pd.DataFrame(
                {"query_id": ["001", "001"], "doc_id": ["010", np.nan], "score": [1.0, 2.0]}
            ),
            "row 1",
        ),
        (pd.DataFrame({"query_id": ["001"], "doc_id": [1.5], "score": [1.0]}), "1.5"),
        (pd.DataFrame({"query_id": ["001"], "doc_id": ["010"], "score": ["high"]}), "score"),
        (pd.DataFrame({"query_id": ["001"], "doc_id": ["010"], "score": [np.nan]}), "row 0"),
        (pd.DataFrame({"query": ["001"], "doc": ["010"]}), "columns"),
        ([("001", "010")], "rows of type tuple"),
    ],
)
def test_what_cannot_be_an_id_or_a_score_is_refused_with_its_row(write, run, problem):
    gold = write("g.json", json.dumps({"001": ["010.txt"]}))
    with pytest.raises(ColieeScoringError, match=problem):
        ir_coliee.score(gold, run, task=1)


def test_integer_ids_are_mapped_with_a_warning(write):
    gold = write("g.json", json.dumps({"001": ["010.txt", "011.txt"], "002": ["012.txt"]}))
    run = pd.DataFrame({"query_id": [1, 1, 2], "doc_id": [10, 99, 12], "score": [3.0, 2.0, 1.0]})
    report = ir_coliee.score(gold, run, task=1)
    assert (report.table["tp"].iloc[0], report.table["retrieved"].iloc[0]) == (2, 3)
    mapped = [f.message for f in report.findings if f.rule == "mapped-ids"]
    assert any("'1' -> '001'" in m for m in mapped) and any("'10' -> '010'" in m for m in mapped)


def test_another_id_convention_is_refused_saying_which(write):
    gold = write("g.json", json.dumps({"000001": ["000010.txt"]}))
    run = write("task1.t", "000001 R05-01-A t\n")  # e.g. columns from another task
    with pytest.raises(ColieeScoringError, match="another id convention") as info:
        ir_coliee.score(gold, run, task=1)
    assert "bar-exam question ids" in str(info.value) and "numbers of 6 digits" in str(info.value)


def test_no_shared_document_of_one_convention_is_a_warning_with_counts(write):
    gold = write("g.json", json.dumps({"000001": ["000010.txt"]}))
    report = ir_coliee.score(gold, write("task1.t", "000001 000020 t\n000001 000021 t\n"), task=1)
    assert report.table["MicroF1"].iloc[0] == 0.0
    (finding,) = [f for f in report.findings if f.rule == "no-shared-ids"]
    assert "none of the 2 case ids on the run's 2 lines" in finding.message


def test_task2_dataset_ids_in_a_run_score_against_the_label_json(write):
    gold = write(
        "task2_test_labels_2025.json", json.dumps({"826": ["032.txt", "033.txt"], "827": "001.txt"})
    )
    run = write(
        "task2.t", "826 Q0 826/032 1 1.0 tag\n826 Q0 826/040 2 0.5 tag\n827 Q0 827/001 1 1.0 tag\n"
    )
    # tp 2 of retrieved 3, relevant 3
    assert ir_coliee.score(gold, run, task=2).table["MicroF1"].iloc[0] == pytest.approx(2 / 3)


def test_an_official_task2_file_scores_against_scoped_qrels_through_every_api(write):
    from ir_measures import Qrel

    scoped = [Qrel("826", "826/032", 1), Qrel("826", "826/033", 1), Qrel("827", "827/001", 1)]
    run = ir_coliee.read_run(write("task2.t", "826 032 t\n826 040 t\n827 001 t\n"))
    assert ir_coliee.evaluate(scoped, run, task=2)["MicroF1"].iloc[0] == pytest.approx(2 / 3)
    assert ir_measures.calc_aggregate([ir_coliee.MicroF1], scoped, run)[
        ir_coliee.MicroF1
    ] == pytest.approx(2 / 3)


def test_two_files_with_one_tag_stay_two_rows(write):
    gold = write("g.json", json.dumps({"001": ["010.txt"], "002": ["012.txt"]}))
    a, b = write("a.run", "001 010 same\n"), write("b.run", "002 012 same\n")
    report = ir_coliee.score(gold, [a, b], task=1)
    assert report.table["run"].tolist() == ["same (a.run)", "same (b.run)"]
    assert report.table["path"].tolist() == [a, b]
    f1 = report.per_query[report.per_query["measure"] == "MicroF1"]
    # each run's per-query values are its own: a finds 001 only, b finds 002 only
    assert f1[f1["run"] == "same (a.run)"].set_index("query_id")["value"].to_dict() == {
        "001": 1.0,
        "002": 0.0,
    }
    assert f1[f1["run"] == "same (b.run)"].set_index("query_id")["value"].to_dict() == {
        "001": 0.0,
        "002": 1.0,
    }


def test_answers_that_share_no_question_are_refused_and_their_lines_reported(write):
    gold = write("gold.qrels", "q1 0 a 1\nq2 0 c 1\n")
    run = write("task3.t", "q1 a t\nq2 c t\n")
    answers_gold = write("answers.gold", "q1 Y g\nq2 N g\n")
    with pytest.raises(ColieeScoringError, match="shares no query"):
        ir_coliee.score(
            gold, run, answers=write("R07.task4.t", "x9 Y t\n"), answers_gold=answers_gold
        )
    flawed = write(
        "R07.task4.u", "q1 Y t\nq1 Y t\nq9 N t\n"
    )  # a duplicate, an unknown question, q2 absent
    report = ir_coliee.score(gold, run, answers=flawed, answers_gold=answers_gold)
    rules = {f.rule for f in report.findings}
    assert {"duplicate", "unknown-query", "absent-queries"} <= rules
    assert report.table["RecallGatedAccuracy"].iloc[0] == pytest.approx(
        1 / 2
    )  # q1 right with its article
    untagged = write("R07.task4.v", "q1 Y\nq2 N\n")
    report = ir_coliee.score(gold, run, answers=untagged, answers_gold=answers_gold)
    assert (
        "no-tag" in {f.rule for f in report.findings}
        and report.table["RecallGatedAccuracy"].iloc[0] == 1.0
    )


RITEVAL = """<?xml version="1.0" encoding="UTF-8"?>
<dataset>
<pair id="R05-01-A" label="Y"><t1>Article 1  Text.</t1><t2>Q?</t2></pair>
<pair id="R05-01-I" label="N"><t1>No header here at all.</t1><t2>Q?</t2></pair>
</dataset>
"""


def test_a_labelled_question_without_readable_articles_is_an_error_for_task3_only(write):
    from ir_coliee.errors import ColieeFormatError

    gold = write("riteval_R05_en.xml", RITEVAL)
    with pytest.raises(ColieeFormatError, match="R05-01-I") as info:
        ir_coliee.score(gold, write("task3.t", "R05-01-A 1 t\n"), task=3)
    assert info.value.line == 4
    answers = ir_coliee.score(gold, write("R05.task4.t", "R05-01-A Y t\nR05-01-I Y t\n"), task=4)
    assert answers.table["AnswerAccuracy"].iloc[0] == 0.5


@pytest.mark.parametrize(
    "labels, docs",
    [
        ("025.txt 027.txt", ["025", "027"]),
        ("025.txt;027.txt", ["025", "027"]),
        ("025.txt, 027.txt", ["025", "027"]),
    ],
)
def test_label_names_joined_by_any_separator_of_the_releases_are_split(write, labels, docs):
    frame = ir_coliee.read_qrels(write("task2_train_labels_2025.json", json.dumps({"827": labels})))
    assert frame["doc_id"].tolist() == docs


def test_label_names_joined_otherwise_are_an_error_naming_the_key(write):
    from ir_coliee.errors import ColieeFormatError

    path = write("labels.json", '{"826": ["001.txt"],\n "827": "025.txt|027.txt"}')
    with pytest.raises(ColieeFormatError, match="'827'") as info:
        ir_coliee.read_qrels(path)
    assert info.value.line == 2


@pytest.mark.parametrize("score", ["1_000", "١", "٣.٥"])
@pytest.mark.parametrize("clean", [True, False])  # the fast reader and the line-by-line reader
def test_scores_trec_eval_reads_otherwise_are_errors_with_their_line(write, score, clean):
    from ir_coliee.errors import ColieeFormatError

    pad = "" if clean else "  "
    path = write("task3-L.t", f"R05-01-A Q0 1 1 0.5 t\nR05-01-A Q0 2 2 {score}{pad} t\n")
    with pytest.raises(ColieeFormatError, match="score") as info:
        ir_coliee.read_run(path)
    assert info.value.line == 2


@pytest.mark.parametrize(
    "text, line, problem",
    [
        (b"001 010 t\n\xef\xbb\xbf002 012 t\n", 2, "byte order mark"),
        (b"001 010 t\n002 01\x002 t\n", 2, "NUL"),
    ],
)
def test_a_bom_or_nul_inside_a_file_is_an_error_naming_the_line(write, text, line, problem):
    from ir_coliee.errors import ColieeFormatError

    with pytest.raises(ColieeFormatError, match=problem) as info:
        ir_coliee.read_run(write("task1.t", text))
    assert info.value.line == line


def test_a_line_over_the_limit_is_an_error_with_its_number(write, monkeypatch):
    from ir_coliee.errors import ColieeFormatError
    from ir_coliee.formats import textfile
    from ir_coliee.table import run_fast as fast

    monkeypatch.setattr(textfile, "MAX_LINE", 1000)
    monkeypatch.setattr(
        fast, "MAX_LINE", 1000
    )  # the fast reader hands such a file to the line reader
    monkeypatch.setattr(fast, "_SCAN_BLOCK", 100)  # its blocks are shorter than a line may be
    path = write("task1.t", "001 010 t\n001 " + "9" * 5000 + " t\n")
    with pytest.raises(ColieeFormatError, match="longer than 1,000 bytes") as info:
        ir_coliee.read_run(path)
    assert info.value.line == 2


@pytest.mark.parametrize("reader", ["_split_columns", "_arrow_columns"])
@pytest.mark.parametrize("change", ["truncated", "not UTF-8 any more"])
def test_a_file_changed_while_read_is_a_clean_error(write, monkeypatch, reader, change):
    """Changed after the scan: cut short, or a byte made one that is not UTF-8 (the split reader once
    raised a bare decode error, naming neither file nor line: found by a review)."""
    from ir_coliee.errors import ColieeFormatError
    from ir_coliee.table import run_fast as fast

    monkeypatch.setattr(fast, "SPLIT_FILE", 1 << 30 if reader == "_split_columns" else 0)
    monkeypatch.setattr(fast, "_arrow_loaded", lambda: False)
    path = write("task1.t", "".join(f"{q:03d} {d:03d} t\n" for q in range(50) for d in range(20)))
    real = getattr(fast, reader)

    def changing(p, *args):
        with open(p, "r+b") as f:
            f.truncate(100) if change == "truncated" else f.write(b"\xff")
        return real(p, *args)

    monkeypatch.setattr(fast, reader, changing)
    # (a byte rewritten within the file system's clock tick leaves size and time alone: the line reader,
    # handed the file, then names the byte)
    said = "changed while it was being read" + ("" if change == "truncated" else "|1: byte 0xff")
    with pytest.raises(ColieeFormatError, match=said) as info:
        ir_coliee.read_run(path)
    assert info.value.path == path


def _command(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ir_coliee", *args], capture_output=True, timeout=60, **kwargs
    )


def test_random_bytes_on_a_device_are_refused_at_once(write):
    gold = write("gold.qrels", "q1 0 d1 1\n")
    result = _command("eval", gold, "/dev/urandom", "--task", "1")
    assert result.returncode == 2 and b"Traceback" not in result.stderr and b"NUL" in result.stderr


def test_a_stream_over_the_cap_is_refused_and_its_copy_removed(write, tmp_path):
    import os

    gold = write("gold.qrels", "q1 0 d1 1\n")
    spool = tmp_path / "spool"
    spool.mkdir()
    env = {**os.environ, "IR_COLIEE_STREAM_LIMIT": "100", "TMPDIR": str(spool)}
    result = _command("eval", gold, "-", "--task", "1", input=b"q1 d1 t\n" * 100, env=env)
    assert result.returncode == 2 and b"more than 100 bytes on a stream" in result.stderr
    assert list(spool.iterdir()) == []


def test_sigterm_removes_the_copy_of_a_stream(write, tmp_path):
    import os
    import signal
    import time

    gold = write("gold.qrels", "q1 0 d1 1\n")
    spool = tmp_path / "spool"
    spool.mkdir()
    env = {**os.environ, "TMPDIR": str(spool)}
    process = subprocess.Popen(
        [sys.executable, "-m", "ir_coliee", "eval", gold, "-", "--task", "1"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdin is not None
    process.stdin.write(b"q1 d1 t\n")
    process.stdin.flush()
    deadline = time.time() + 30
    while not any(spool.iterdir()) and time.time() < deadline:  # the copy has begun
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM and b"Traceback" not in err
    assert list(spool.iterdir()) == []


@pytest.mark.parametrize("closed", [">&-", "<&-"])
def test_closed_standard_streams_exit_cleanly(write, closed):
    gold = write("gold.qrels", "q1 0 d1 1\n")
    run = write("r", "q1 d1 t\n")
    source = "-" if closed == "<&-" else run
    command = f"{sys.executable} -m ir_coliee eval {gold} {source} --task 1 {closed}"
    result = subprocess.run(["sh", "-c", command], capture_output=True, timeout=60)
    assert (
        result.returncode == 2 and b"Traceback" not in result.stderr and b"closed" in result.stderr
    )


def test_a_plot_without_matplotlib_fails_before_any_work(write, tmp_path, monkeypatch, capsys):
    import importlib.util

    from ir_coliee.cli import main
    from ir_coliee.outputs import plots

    real = importlib.util.find_spec
    monkeypatch.setattr(
        plots.importlib.util, "find_spec", lambda n, *a: None if n == "matplotlib" else real(n, *a)
    )
    gold = write("g.json", json.dumps({"001": ["010.txt"]}))
    run = write("task1.t", "001 010 t\n")
    written = tmp_path / "cut.t"
    assert (
        main(
            [
                "tune",
                gold,
                run,
                "--task",
                "1",
                "--write",
                str(written),
                "--plot",
                str(tmp_path / "p.png"),
            ]
        )
        == 2
    )
    assert "needs matplotlib" in capsys.readouterr().err and not written.exists()


def test_a_case_file_whose_name_is_not_utf8_is_named_and_skipped(coliee_home, capsys):
    import os

    import ir_datasets
    from support.caselaw_data import write_task1_flat

    from ir_coliee.cli import main

    write_task1_flat(coliee_home)
    pool = coliee_home / "task1_test_files_2024" / "task1_test_files_2024"
    with open(os.path.join(os.fsencode(pool), b"0002\xff9.txt"), "w") as f:
        f.write("a case under a name that is not UTF-8\n")
    main(["data", "check", "coliee/task1/2024/test"])
    out = capsys.readouterr().out
    # the message shows the byte as \xff; its cell in the tsv shows the message's backslash as \\
    assert "0002\\\\xff9.txt: the file name is not valid UTF-8, skipped" in out
    doc_ids = [d.doc_id for d in ir_datasets.load("coliee/task1/2024/test").docs_iter()]
    assert doc_ids == [
        "000200",
        "000201",
        "000300",
        "000301",
    ]  # the pool without the unreadable name


def test_one_run_or_several_is_told_from_the_shape(write):
    """A list of generators is several runs; a list of dict rows, or of namedtuples, is one run."""
    gold = write("g.json", json.dumps({"001": ["010.txt"], "002": ["012.txt"]}))
    rows = [("001", "010", 2.0), ("002", "099", 1.0)]
    several = ir_coliee.score(
        gold, [(ScoredDoc(*r) for r in rows), iter([ScoredDoc("002", "012", 1.0)])], task=1
    )
    assert several.table["MicroP"].tolist() == [1 / 2, 1.0]  # 1 of 2 retrieved; 1 of 1
    as_dicts = [{"query_id": q, "doc_id": d, "score": s} for q, d, s in rows]
    assert ir_coliee.score(gold, as_dicts, task=1).table["MicroP"].tolist() == [1 / 2]


def test_an_id_of_megabytes_is_cut_in_a_message(write):
    """A run query that is no gold query is named in a warning: an id of 2M characters is named by its
    first 40 and its length, not copied whole onto standard error."""
    long_id = "Q" * 2_000_000
    run = write("task1.big", f"q1 d1 t\n{long_id} d1 t\n")
    report = ir_coliee.score(write("gold", "q1 0 d1 1\n"), [run], task=1)
    (said,) = [f.message for f in report.findings if "not in the gold" in f.message]
    assert (
        said
        == f"1 run queries are not in the gold and are ignored: {'Q' * 40!r}... (2,000,000 characters)"
    )
    assert report.table["MicroF1"].iloc[0] == 1.0  # q1: d1 retrieved, d1 relevant
