"""Threats to a comparison found in the case-law files: byte-identical documents under different ids, and
test query cases present verbatim in a training pool of the same or a later edition (not an earlier one,
and not 2021's pool shared by both splits)."""

from __future__ import annotations

from support.caselaw_data import case_text, write_task1_2021, write_task1_flat

from ir_coliee.data.catalog import dataset_entry
from ir_coliee.data.datasets.check import check_dataset
from ir_coliee.data.guards import Leak, identical_documents, leaked_queries, threats


def _case(root, folder: str, doc: str, text: str) -> None:
    path = root / folder / f"{doc}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_identical_documents_and_leaked_test_queries(coliee_home):
    for year in (2024, 2025, 2026):
        write_task1_flat(coliee_home, year, with_test_gold=True)
    test_pool = "task1_test_files_2025/task1_test_files_2025"
    # 000300 has two twins in the 2025 test pool; 000301's text under one more id
    _case(coliee_home, test_pool, "009001", case_text(12))
    _case(coliee_home, test_pool, "009002", case_text(12))
    _case(coliee_home, test_pool, "009003", case_text(13))
    # test query 000200 (case_text(10)) is in the 2025 and 2026 training pools, 000201 in 2024's only
    _case(coliee_home, "task1_train_files_2025", "007000", case_text(10))
    _case(coliee_home, "task1_train_files_2026", "008000", case_text(10))
    _case(coliee_home, "task1_train_files_2024", "006000", case_text(11))
    entry = dataset_entry("coliee/task1/2025/test")
    assert identical_documents(entry) == [["000300", "009001", "009002"], ["000301", "009003"]]
    assert leaked_queries(entry) == [
        Leak("coliee/task1/2025/train", ["000200 = 007000"]),
        Leak("coliee/task1/2026/train", ["000200 = 008000"]),
    ]
    rules = [rule for rule, _ in threats(entry)]
    assert rules == ["identical-documents", "test-in-training", "test-in-training"]
    shortened = dict(threats(entry, shown=1))  # the first of each list, then how many more
    assert (
        "(5 files): 000300 = 009001 = 009002; 1 more (a relevant"
        in shortened["identical-documents"]
    )
    notes = {s.part: s.problem for s in check_dataset("coliee/task1/2025/test")}
    assert notes["identical-documents"].startswith(
        "2 groups of byte-identical documents under different ids (5 files)"
    )
    assert "000300 = 009001 = 009002; 000301 = 009003" in notes["identical-documents"]
    assert "in the training pool of coliee/task1/2026/train" in notes["test-in-training"]


def test_a_pool_shared_by_both_splits_is_no_leak_and_statute_has_no_pool(coliee_home, statute_root):
    write_task1_2021(coliee_home)
    assert leaked_queries(dataset_entry("coliee/task1/2021/test")) == []
    assert threats(dataset_entry("coliee/task3/2024/test")) == []


def test_gold_alone_scores_and_says_what_it_could_not_check(coliee_home):
    """With only the labels under the data root, a benchmark still scores (as eval does) and says that the
    pool was not checked; a listed test query without its case file is left out of the leak check."""
    import json

    import ir_coliee
    from ir_coliee.data.locator import refresh

    (coliee_home / "task1_test_labels_2024.json").write_text(
        json.dumps({"000001.txt": ["000010.txt"]})
    )
    entry = dataset_entry("coliee/task1/2024/test")
    assert [rule for rule, _ in threats(entry)] == ["unchecked"]
    runs = {"a": {"000001": {"000010": 1.0}}, "b": {"000001": {"000099": 1.0}}}
    result = ir_coliee.benchmark({"coliee/task1/2024/test": runs}, resamples=20)
    assert result.value(("coliee/task1/2024/test", "MicroF1"), "a") == 1.0
    assert "unchecked" in [f.rule for f in result.findings]
    write_task1_flat(coliee_home, 2025, with_test_gold=True)
    (coliee_home / "task1_test_files_2025" / "task1_test_files_2025" / "000201.txt").unlink()
    _case(coliee_home, "task1_train_files_2025", "007000", case_text(10))  # 000200's text
    refresh()  # the data root was scanned before these files were written
    assert leaked_queries(dataset_entry("coliee/task1/2025/test")) == [
        Leak("coliee/task1/2025/train", ["000200 = 007000"])
    ]
