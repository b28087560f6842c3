"""PyTerrier on caselaw datasets (this folder is collected only where PyTerrier is installed)."""

from __future__ import annotations

import ir_datasets
import pyterrier as pt
import pytest
from support.caselaw_data import write_task2
from support.records import record_fields

import ir_coliee
from ir_coliee.errors import ColieeDataError

rows = record_fields


def test_pyterrier_reranks_each_querys_candidates(coliee_home):
    write_task2(coliee_home)
    dataset = pt.get_dataset("irds:coliee/task2/2026/test")
    topics = dataset.get_topics()
    assert topics["qid"].tolist() == ["999", "1000"]
    candidates = dataset.get_results()
    assert len(candidates) == 5

    # a DataFrame-based system: prefer paragraph 2 of each case, then paragraph 1
    wanted = {"999/002": 2.0, "1000/001": 1.5, "1000/002": 1.0}
    scored = candidates.assign(score=candidates["docno"].map(wanted).fillna(0.0))
    reranker = pt.Transformer.from_df(scored[scored.score > 0])
    table = pt.Experiment(
        [reranker],
        topics,
        dataset.get_qrels(),
        eval_metrics=[ir_coliee.MicroF1, ir_coliee.MicroP @ 1],
        names=["rerank"],
    )
    assert table.iloc[0]["MicroF1"] == 1.0
    assert table.iloc[0]["MicroP@1"] == 1.0


def test_2019_task1_index_and_golden_labels(coliee_home):
    from support.caselaw_data import write_2019

    write_2019(coliee_home)
    train = ir_datasets.load("coliee/task1/2019/train")
    assert rows(train.qrels_iter(), "query_id", "doc_id") == [
        ("001", "001/002"),
        ("001", "001/003"),
        ("002", "002/001"),
    ]
    assert train.docs_store().get("002/003").text == "2019 train candidate 003 of 002.\n"
    assert next(train.queries_iter()).text == "Synthetic 2019 train base case 001.\n"
    test = ir_datasets.load("coliee/task1/2019/test")
    assert next(test.queries_iter()).text == "Synthetic 2019 test base case 001.\n"
    assert rows(test.qrels_iter(), "query_id", "doc_id") == [("001", "001/003"), ("002", "002/002")]
    assert len(list(test.scoreddocs_iter())) == 6


def test_2019_task2_index(coliee_home):
    from support.caselaw_data import write_2019

    write_2019(coliee_home)
    ds = ir_datasets.load("coliee/task2/2019/train")
    assert rows(ds.queries_iter(), "query_id", "text") == [
        ("001", "2019 fragment 001.\n"),
        ("002", "2019 fragment 002.\n"),
    ]
    assert rows(ds.qrels_iter(), "query_id", "doc_id") == [
        ("001", "001/002"),
        ("002", "002/001"),
        ("002", "002/002"),
    ]
    assert [d.doc_id for d in ds.docs_iter()] == ["001/001", "001/002", "002/001", "002/002"]
    with pytest.raises(ColieeDataError, match=r"task2\.xml"):
        list(ir_datasets.load("coliee/task2/2019/test").queries_iter())


def test_pyterrier_coliee_prefix_without_importing_ir_coliee(coliee_home):
    """The ``pyterrier.dataset_provider`` entry point: a fresh process that never imports ir_coliee."""
    import os
    import subprocess
    import sys

    write_task2(coliee_home)
    code = (
        "import sys, pyterrier as pt\n"
        "ds = pt.get_dataset('coliee:task2/2026/test')\n"
        "assert 'ir_coliee' in sys.modules\n"
        "print(ds.get_topics()['qid'].tolist(), len(ds.get_qrels()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=True,
    )
    assert out.stdout.strip() == "['999', '1000'] 3"


def test_coliee_provider_lists_and_refuses_unknown_names():
    from ir_coliee.hosts.pt_datasets import ColieeDatasetProvider

    provider = ColieeDatasetProvider()
    assert "task3/2024/test" in provider.list_dataset_names()
    with pytest.raises(KeyError, match="no COLIEE dataset"):
        provider.get_dataset("task9/2024/test")
