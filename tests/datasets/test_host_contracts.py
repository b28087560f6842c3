"""What users of ir_datasets expect of any entry: metadata per part, a top-level entry with its
documentation, ``bibtex_ids``, one docs parent per corpus, and a quiet early stop of ``docs_iter()``."""

from __future__ import annotations

import logging

import ir_datasets
from support.caselaw_data import write_task1_2021

import ir_coliee
from ir_coliee.releases.catalog import catalog


def test_metadata_per_part_as_built_in_entries_answer_it():
    dataset = ir_datasets.load("coliee/task1/2025/test")
    whole = dataset.metadata()
    assert dataset.docs_metadata() == whole["docs"] and dataset.docs_metadata()["count"] > 0
    assert dataset.queries_metadata() == whole["queries"] and dataset.qrels_metadata() == whole["qrels"]
    # a dataset whose sizes are not known answers empty dicts, as built-in entries without metadata do
    assert ir_datasets.load("coliee/task1/2019/train").docs_metadata() == {}


def test_the_top_level_entry_and_the_citation_keys():
    top = ir_datasets.load("coliee").documentation()
    assert top["pretty_name"].startswith("COLIEE") and top["bibtex_ids"] == ["coliee"]
    assert "official_measures" not in top  # no task of its own
    for dataset_id in ("coliee/task1/2025/test", "coliee/task3/2024/test/ja", "coliee/pilot/2026/test"):
        doc = ir_datasets.load(dataset_id).documentation()
        assert doc["bibtex_ids"] == ["coliee"] and doc["official_measures"], dataset_id


def test_datasets_over_one_corpus_share_their_docs_parent(statute_root):
    # train and test of an edition read one Civil Code: one parent, one index
    assert ir_datasets.docs_parent_id("coliee/task3/2024/test") == "coliee/task3/2024"
    assert ir_datasets.docs_parent_id("coliee/task3/2024/train") == "coliee/task3/2024"
    task3, task4 = ir_datasets.load("coliee/task3/2024/test"), ir_datasets.load("coliee/task4/2024/train")
    assert task3.docs_handler() == task4.docs_handler()  # Tasks 3 and 4 too (no id is above both)
    assert ir_datasets.load("coliee/task3/2024/test/ja").docs_handler() != task3.docs_handler()
    assert (
        ir_datasets.load("coliee/task3/2024/test/ja").docs_handler()
        == ir_datasets.load("coliee/task3/2024/train/ja").docs_handler()
    )
    # the parent is a dataset of those documents
    parent = [d.doc_id for d in ir_datasets.load("coliee/task3/2024").docs_iter()]
    assert parent == [d.doc_id for d in task3.docs_iter()] and parent
    # 2021's train and test queries share one pool; 2025's train and test pools are two folders
    assert ir_datasets.docs_parent_id("coliee/task1/2021/test") == "coliee/task1/2021"
    assert ir_datasets.docs_parent_id("coliee/task1/2025/test") == "coliee/task1/2025/test"
    assert "coliee/task3/2024" not in catalog()  # a docs parent is not a dataset to score against


def test_stopping_docs_iter_early_logs_no_error(coliee_home, caplog):
    write_task1_2021(coliee_home)
    pool = coliee_home / "task1_files"
    for i in range(1200):  # past the size where a progress bar (and ir_datasets' logging) starts
        (pool / f"{900000 + i}.txt").write_text("A case.\n")
    caplog.set_level(logging.DEBUG)
    docs = ir_datasets.load("coliee/task1/2021/train").docs_iter()
    first = next(docs)
    docs.close()
    assert first.doc_id
    assert not [r for r in caplog.records if "[error]" in r.getMessage()]


def test_named_measures_make_no_claim_of_a_coliee_task(tmp_path):
    gold = tmp_path / "trec.qrels"
    gold.write_text("q1 0 d1 1\nq2 0 d2 1\n")
    run = {"q1": {"d1": 1.0}, "q2": {"d3": 1.0}}
    named = ir_coliee.score(str(gold), run, measures=["P@1"])
    assert named.findings == [] and named.table.loc[0, "P@1"] == 1 / 2
    guessed = ir_coliee.score(str(gold), run)
    assert [f.rule for f in guessed.findings] == ["guess"]
