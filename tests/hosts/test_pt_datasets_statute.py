"""PyTerrier on statute datasets (this folder is collected only where PyTerrier is installed)."""

from __future__ import annotations

import pandas as pd
import pyterrier as pt
import pytest
from support.records import record_fields

import ir_coliee
from ir_coliee.cli import main

ids = record_fields


def test_pyterrier_irds_dataset(statute_root):
    dataset = pt.get_dataset("irds:coliee/task3/2024/test")
    topics = dataset.get_topics()
    assert list(topics.columns) == ["qid", "query"]
    assert topics["qid"].tolist() == ["R05-01-A", "R05-01-I"]
    qrels = dataset.get_qrels()
    assert qrels[["qid", "docno", "label"]].values.tolist() == [
        ["R05-01-A", "213-2", 1],
        ["R05-01-I", "3-2", 1],
        ["R05-01-I", "724-2", 1],
    ]
    system = pd.DataFrame(
        {
            "qid": ["R05-01-A", "R05-01-I", "R05-01-I"],
            "docno": ["213-2", "3-2", "1"],
            "score": [1.0, 1.0, 0.5],
        }
    )
    table = pt.Experiment(
        [system], topics, qrels, eval_metrics=[ir_coliee.MacroF2, ir_coliee.MicroP], names=["s"]
    )
    assert table.iloc[0]["MacroF2"] == pytest.approx(3 / 4, abs=1e-15)
    assert table.iloc[0]["MicroP"] == pytest.approx(2 / 3, abs=1e-15)


def test_eval_2026_style_gate_takes_answer_gold_from_the_task4_twin(statute_root, write, capsys):
    run = write("task3.t", "R05-01-A 213-2 t\nR05-01-I 3-2 t\n")
    answers = write("R05.task4.t", "R05-01-A Y t\nR05-01-I N t\n")
    assert main(["eval", "coliee/task3/2024/test", run, "--answers", answers]) == 0
    header, row = capsys.readouterr().out.splitlines()
    # R05-01-A: right answer, all gold retrieved; R05-01-I: right answer, 724-2 missed
    assert header.split("\t")[:2] == ["run", "RecallGatedAccuracy"]
    assert row.split("\t")[:2] == ["t", "0.5000"]
