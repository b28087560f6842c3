"""Hostile input and faults: a correct score or a clean error naming the file, never a silent wrong
number or a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

import ir_coliee
from ir_coliee import ColieeFormatError, score

GOLD_JSON = '{"000001.txt": ["000010.txt"], "000002.txt": ["000012.txt", "000013.txt"]}'
RUN = "000001 000010 t\n000002 000012 t\n000002 000099 t\n"
# tp 1 + 1 = 2, retrieved 1 + 2 = 3, relevant 1 + 2 = 3: P = R = F1 = 2/3


def stdin_of(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def fifo(tmp_path, name: str, data: bytes) -> str:
    """A named pipe that a thread fills once: it can be read once only."""
    path = str(tmp_path / name)
    os.mkfifo(path)

    def feed() -> None:
        with open(path, "wb") as f:
            f.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return path


def test_run_from_standard_input(write, monkeypatch):
    stdin_of(monkeypatch, RUN.encode())
    row = score(write("g.json", GOLD_JSON), "-", task=1).table.iloc[0]
    assert (row["tp"], row["retrieved"], row["relevant"]) == (2, 3, 3) and row["MicroF1"] == pytest.approx(2 / 3)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_run_and_gold_from_named_pipes(tmp_path):
    report = score(fifo(tmp_path, "gold", GOLD_JSON.encode()), fifo(tmp_path, "run", RUN.encode()))
    assert report.table.iloc[0]["MicroF1"] == pytest.approx(2 / 3)
    assert report.runs[0].path.endswith("run")  # named as given, not as the temporary copy


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_errors_in_a_pipe_name_the_pipe_and_the_line(tmp_path):
    pipe = fifo(tmp_path, "run", b"000001 000010 t\n000001 bad\n")
    with pytest.raises(ColieeFormatError) as info:
        ir_coliee.read_run(pipe)
    assert (info.value.path, info.value.line) == (pipe, 2)


def test_many_piped_lines_lose_no_row(write, tmp_path):
    n = 200_000
    run = "".join(f"{q:06d} {d:06d} t\n" for q in range(n // 100) for d in range(100))
    gold = write("gold.qrels", "".join(f"{q:06d} 0 {q % 100:06d} 1\n" for q in range(n // 100)))
    result = subprocess.run(
        [sys.executable, "-m", "ir_coliee", "eval", gold, "-", "--task", "1", "--format", "json"],
        input=run.encode(),
        capture_output=True,
        check=True,
    )
    import json

    counts = json.loads(result.stdout)["counts"]
    # every query retrieves 100 cases, one of them its only relevant one
    assert counts == {"tp": n // 100, "retrieved": n, "relevant": n // 100, "queries": n // 100}


# --- label JSON --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, problem",
    [
        (
            '{"000001.txt": ["000010.txt"],\n "000002.txt": [],\n "000001.txt": ["000011.txt"]}',
            3,
            "the key '000001.txt' appears twice",
        ),
        ('{"000001.txt": ["000010.txt"],\n " ": ["000011.txt"]}', 2, "an empty query id"),
        ('{"000001.txt": ["000010.txt", ""]}', 1, "an empty document id among the labels of '000001.txt'"),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", None, "JSON nested too deeply"),
        ('{"a": [' + "9" * 5000 + "]}", None, "unreadable JSON value"),
    ],
)
def test_label_json_that_would_score_wrong_is_an_error(write, text, line, problem):
    path = write("task1_test_labels_2024.json", text)
    with pytest.raises(ColieeFormatError) as info:
        ir_coliee.read_qrels(path)
    assert (info.value.path, info.value.line) == (path, line) and problem in info.value.problem


def test_a_pilot_tort_with_a_key_twice_is_an_error(write):
    line = '{"tort_id": "T1", "court_decision": true, "court_decision": false, "undisputed_facts": []}'
    with pytest.raises(ColieeFormatError, match="'court_decision' appears twice") as info:
        ir_coliee.formats.pilot.read_torts(write("sub.jsonl", "\n" + line + "\n"))
    assert info.value.line == 2


# --- several copies of one official file -------------------------------------------------------------


def test_a_stale_backup_copy_is_not_read_and_every_copy_is_named(coliee_home, capsys):
    import ir_datasets
    from caselaw_data import write_task1_flat

    from ir_coliee.cli import main

    write_task1_flat(coliee_home, with_test_gold=True)
    current = coliee_home / "task1_test_labels_2024.json"
    backup = coliee_home / "backup" / "old" / "task1_test_labels_2024.json"
    backup.parent.mkdir(parents=True)
    backup.write_text('{"000200.txt": ["000999.txt"]}')  # stale: another gold
    ir_coliee.datasets.refresh()
    qrels = [(q.query_id, q.doc_id) for q in ir_datasets.load("coliee/task1/2024/test").qrels_iter()]
    assert ("000200", "000999") not in qrels and qrels  # the shallowest copy serves
    assert main(["data", "check", "coliee/task1/2024/test"]) == 0
    out, err = capsys.readouterr()
    assert f"copies\tNOTE: {current} is read; also under the data root, not read: {backup}" in out
    assert f"2 copies under the data root: reading {current}" in err


def test_a_package_as_folder_and_as_zip_reads_the_folder(coliee_home, capsys):
    import ir_datasets
    from statute_data import write_statute_root, zip_folder

    write_statute_root(coliee_home)
    package = coliee_home / "COLIEE2024statute_data-English"
    copy = coliee_home / "copy" / package.name
    import shutil

    shutil.copytree(package, copy)
    zip_folder(copy)  # copy/COLIEE2024statute_data-English.zip, with the folder nested inside
    ir_coliee.datasets.refresh()
    ds = ir_datasets.load("coliee/task3/2024/test")
    assert len(list(ds.docs_iter())) == 9
    sources = dict((s.part, s.location) for s in ir_coliee.datasets.REGISTERED["coliee/task3/2024/test"].sources())
    assert sources["docs"] == str(package / "text" / "civil_code_en-1to724-2.txt")
    assert "copies under the data root" in capsys.readouterr().err
