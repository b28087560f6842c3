"""The ``ir_coliee`` command: eval with official defaults, per-query output, JSON, warnings, errors, demo."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.cases import default_columns, picked, printed_rows, without_path
from support.cli import GOLD_T1, RUN_T1, run_cli

from ir_coliee.cli import main


def test_eval_task1_defaults_to_micro_measures(write, capsys):
    gold, run = write("task1_test_labels_2024.json", GOLD_T1), write("task1.univABC", RUN_T1)
    _, out, err = run_cli(capsys, "eval", gold, run, "--task", "1", "--year", "2024")
    assert without_path(out)[0].split("\t") == ["run", *default_columns("1", 2024)]
    (row,) = printed_rows(out)
    assert picked(row, "run", "MicroP", "MicroR", "MicroF1") == [
        "univABC",
        "0.6667",
        "0.5000",
        "0.5714",
    ]  # 2/3, 2/4, 4/7
    assert "1 run queries are not in the gold and are ignored: 000009" in err


def test_eval_guesses_the_task_and_says_so(write, capsys):
    _, out, err = run_cli(capsys, "eval", write("g.json", GOLD_T1), write("r", RUN_T1))
    assert without_path(out)[0].split("\t") == ["run", *default_columns("1")]
    assert "scoring as COLIEE Task 1" in err


def test_eval_task3_ranked_run_adds_map_and_rprec(write, capsys):
    gold = write("gold.qrels", "R05-01-A 0 566 1\nR05-01-A 0 567 1\nR05-02-I 0 1 1\n")
    run = write(
        "task3-L.x",
        "/* c */\nR05-01-A Q0 566 1 0.9 x\nR05-01-A Q0 3 2 0.8 x\nR05-02-I Q0 9 1 0.5 x\n",
    )
    _, out, err = run_cli(capsys, "eval", gold, run, "--year", "2025")
    assert without_path(out)[0].split("\t") == ["run", *default_columns("3", 2025)]
    (row,) = printed_rows(out)
    # per question P: 1/2, 0; R: 1/2, 0; F2: 1/2, 0
    assert picked(row, "run", "MacroP", "MacroR", "MacroF2") == ["x", "0.2500", "0.2500", "0.2500"]
    assert {"AP", "Rprec"} <= set(row)  # the choice this test is about: ranked runs report MAP
    assert "scoring as COLIEE Task 3" in err


def test_eval_explicit_measures_and_digits(write, capsys):
    _, out, _ = run_cli(
        capsys,
        "eval",
        write("g.json", GOLD_T1),
        write("r", RUN_T1),
        "MicroF1@1",
        "MacroF(beta=2)",
        "--digits",
        "6",
    )
    # @1 keeps each query's first line: tp 1 + 1 + 0 of retrieved 2, relevant 4: F1 = 2·1·(1/2)/(3/2) = 2/3
    # MacroF2 per query: 000001 P = R = 1/2 -> 1/2; 000002 -> 1; 000003 -> 0: mean 1/2
    assert without_path(out) == ["run\tMicroF1@1\tMacroF2", "univABC\t0.666667\t0.500000"]


def test_eval_per_query_shows_counts(write, capsys):
    _, out, _ = run_cli(
        capsys, "eval", write("g.json", GOLD_T1), write("r", RUN_T1), "MicroP", "--per-query"
    )
    lines = out.splitlines()
    assert lines[0] == "query_id\tmeasure\tvalue\ttp\tretrieved\trelevant"
    assert "000001\tMicroP\t0.5000\t1\t2\t2" in lines
    assert "000003\tMicroP\t0.0000\t0\t0\t1" in lines
    assert lines[-1] == "all\tMicroP\t0.6667\t\t\t"


def test_eval_json(write, capsys):
    _, out, _ = run_cli(
        capsys,
        "eval",
        write("g.json", GOLD_T1),
        write("r", RUN_T1),
        "--task",
        "1",
        "--format",
        "json",
        "--per-query",
    )
    doc = json.loads(out)
    assert doc["measures"]["MicroR"] == 0.5
    assert doc["run_tags"] == ["univABC"] and doc["format"] == "pairs"
    first = next(
        r for r in doc["per_query"] if r["query_id"] == "000001" and r["measure"] == "MicroF1"
    )
    assert (first["tp"], first["retrieved"], first["relevant"]) == (1, 2, 2)


def test_eval_task4_answers(write, capsys):
    gold = write("gold.txt", "R06-01-A Y gold\nR06-01-I N gold\nR06-02-U Y gold\n")
    run = write("R06.task4.x", "R06-01-A Y x\nR06-01-I Y x\n")
    _, out, _ = run_cli(capsys, "eval", gold, run, "--task", "4")
    assert without_path(out) == ["run\tAnswerAccuracy", "x\t0.3333"]


def test_eval_warns_about_duplicates(write, capsys):
    run = write("r", "000001 000010 t\n000001 000010 t\n")
    _, out, err = run_cli(capsys, "eval", write("g.json", GOLD_T1), run, "--task", "1")
    assert "1 duplicate lines" in err and "line 2 (first on 1)" in err
    (row,) = printed_rows(out)
    assert picked(row, "run", "MicroP", "MicroR", "MicroF1") == ["t", "1.0000", "0.2500", "0.4000"]


@pytest.mark.parametrize(
    "gold, run, args, message",
    [
        (GOLD_T1, "000001 000010\n", [], "r:1: 2 columns"),
        (GOLD_T1, RUN_T1, ["NoSuchMeasure"], "unknown or malformed measure 'NoSuchMeasure'"),
        (GOLD_T1, RUN_T1, ["--task", "5", "--year", "2024"], "task 5 has no 2024 edition"),
        ('{"000001.txt": []}', RUN_T1, [], "the gold holds no relevant"),
        (GOLD_T1, RUN_T1, ["--digits", "-1"], "--digits must be at least 0"),
    ],
)
def test_eval_errors_exit_2_with_a_message(write, capsys, gold, run, args, message):
    _, out, err = run_cli(capsys, "eval", write("g.json", gold), write("r", run), *args, expect=2)
    assert message in err and "Traceback" not in err
    assert out == ""


def test_demo_runs_the_whole_loop_on_the_sample_release(capsys, tmp_path):
    _, out, _ = run_cli(capsys, "demo", "--out", tmp_path)
    for dataset_id in ("task1", "task2", "task3", "task4", "pilot"):
        assert f"== coliee/{dataset_id}/2025/test (synthetic sample release)" in out
    assert out.count("validate: 0 errors") == 6
    for header in (
        "run\tMicroP\tMicroR\tMicroF1\tpath",
        "run\tMacroP\tMacroR\tMacroF2\tAP",
        "run\tAnswerAccuracy\tpath\n",
    ):
        assert header in out
    assert "run\tAnswerAccuracy\tMacroF1\tMacroP\tMacroR\tMacroF1[plaintiff]" in out
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(
        [
            "task1.bm25demo",
            "task2.bm25demo",
            "task3.bm25demo",
            "task3-L.bm25demo",
            "R06.task4.bm25demo",
            "pilot.bm25demo.jsonl",
        ]
    )
    # the files are official submissions: the scorer reads them back to the printed numbers
    assert (
        main(["eval", "coliee/task2/2025/test", str(tmp_path / "task2.bm25demo")]) == 2
    )  # the release is not the data root now
    assert "not found" in capsys.readouterr().err


def test_datasets_command_passes_through_to_ir_datasets(capsys, coliee_home):
    from support.caselaw_data import write_task2

    write_task2(coliee_home)
    commands = "doc_fifos, export, lookup, list, build_clueweb_warc_indexes"
    for given, said in (
        ([], "none"),
        (["nosuch"], "'nosuch'"),
    ):  # a usage error exits 2, as argparse's
        assert main(["datasets", *given]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"ir_coliee: error: datasets: expected one of {commands}")
        assert err.endswith(f"(ir_datasets' commands), got {said}\n")
    assert main(["datasets", "export", "nosuch/id", "docs"]) == 2
    assert (
        capsys.readouterr().err
        == "ir_coliee: error: no dataset 'nosuch/id' (`ir_coliee datasets list` lists them)\n"
    )
    assert (
        main(["datasets", "lookup", "nosuch/id", "1"]) == 2
    )  # ir_datasets said 'not found' and exited 1
    assert "no dataset 'nosuch/id'" in capsys.readouterr().err
    assert main(["datasets", "export", "coliee/task2/2026/test", "docs", "--fields", "nosuch"]) == 2
    expected = (
        "ir_coliee: error: no field 'nosuch' in docs (fields: doc_id, case_id, paragraph, text)\n"
    )
    assert capsys.readouterr().err == expected
    assert (
        main(["datasets", "export", "coliee/task2/2026/test", "qrels", "--fields", "nosuch"]) == 2
    )  # was exit 0
    assert (
        "no field 'nosuch' in qrels (fields: query_id, doc_id, relevance, iteration)"
        in capsys.readouterr().err
    )
    assert (
        main(["datasets", "lookup", "coliee/task2/2026/test", "999/002", "--fields", "nosuch"]) == 2
    )
    assert (
        "no field 'nosuch' in docs (fields: doc_id, case_id, paragraph, text)"
        in capsys.readouterr().err
    )
    # lookup serves queries too (ir_datasets asks a queries_store, which its handlers lack)
    assert main(["datasets", "lookup", "coliee/task2/2026/test", "--qid", "999", "nosuch"]) == 0
    looked_up = capsys.readouterr()
    assert looked_up.out.split("\t")[0] == "999" and "query_id nosuch not found" in looked_up.err
    main(["datasets", "export", "coliee/task2/2026/test", "qrels", "--format", "tsv"])
    assert capsys.readouterr().out.splitlines()[0] == "999\t999/002\t1\t0"
    main(["datasets", "export", "coliee/task2/2026/test", "docs", "--format", "jsonl"])
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first == {
        "doc_id": "999/001",
        "case_id": "999",
        "paragraph": "001",
        "text": " [1] Synthetic paragraph 1 of case 999.\n",
    }


def test_python_dash_m_entry_point():
    out = subprocess.run(
        [sys.executable, "-m", "ir_coliee", "--help"], capture_output=True, text=True, check=True
    )
    assert "eval" in out.stdout and "demo" in out.stdout


def test_eval_json_per_query_with_a_pytrec_eval_measure(write, capsys):
    gold = write("g.qrels", "R05-01-A 0 1 1\nR05-01-A 0 2 1\n")
    run = write("task3-L.t", "R05-01-A Q0 1 1 0.9 t\nR05-01-A Q0 3 2 0.5 t\n")
    _, out, _ = run_cli(
        capsys, "eval", gold, run, "MacroF2", "AP", "--per-query", "--format", "json"
    )
    doc = json.loads(out)
    # P = 1/2, R = 1/2: F2 = (5/4)/(5/2) = 1/2; AP = (1/1) / 2 relevant = 1/2
    assert doc["measures"] == {"MacroF2": 0.5, "AP": 0.5}
    ap = next(r for r in doc["per_query"] if r["measure"] == "AP")
    assert (ap["value"], ap["tp"], ap["retrieved"], ap["relevant"]) == (0.5, None, None, None)
    assert doc["counts"] == {"tp": 1, "retrieved": 2, "relevant": 2, "queries": 1}
