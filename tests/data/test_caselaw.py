"""Case-law datasets (Tasks 1, 2) record by record on synthetic roots in each edition's layout."""

from __future__ import annotations

import re

import ir_datasets
import pandas as pd
import pytest
from support.caselaw_data import (
    TASK1_TEST,
    TASK1_TRAIN,
    write_task1_2020,
    write_task1_2021,
    write_task1_2021_public_copy,
    write_task1_flat,
    write_task2,
)
from support.cases import without_path
from support.records import record_fields
from support.statute_data import zip_folder

from ir_coliee.cli import main
from ir_coliee.data.datasets import REGISTERED
from ir_coliee.data.datasets.caselaw import ColieeCaseDoc, ColieeParagraph
from ir_coliee.data.locator import refresh
from ir_coliee.errors import ColieeDataError

rows = record_fields


def test_task1_flat_pool(coliee_home):
    write_task1_flat(coliee_home)
    ds = ir_datasets.load("coliee/task1/2024/train")
    docs = list(ds.docs_iter())
    assert [d.doc_id for d in docs] == TASK1_TRAIN  # .DS_Store and notes.md are not cases
    assert docs[0].paragraphs() == [
        (1, "The synthetic applicant appeals <FRAGMENT_SUPPRESSED> a synthetic decision."),
        (2, "Synthetic reasons, second paragraph."),
    ]
    assert docs[-1].paragraphs()[-1] == (3, "Motifs synthétiques du jugement, en français.")
    assert rows(ds.queries_iter(), "query_id") == [("000028",), ("000029",)]
    assert next(ds.queries_iter()).text == docs[0].text  # query cases sit among the candidates
    assert rows(ds.qrels_iter(), "query_id", "doc_id", "relevance") == [
        ("000028", "000100", 1),  # listed twice, kept once
        ("000028", "000101", 1),
        ("000029", "000102", 1),
    ]
    candidates = rows(ds.scoreddocs_iter(), "query_id", "doc_id")
    assert [d for q, d in candidates if q == "000028"] == [d for d in TASK1_TRAIN if d != "000028"]
    assert len(candidates) == 2 * (len(TASK1_TRAIN) - 1)
    assert ds.docs_count() == len(TASK1_TRAIN)
    store = ds.docs_store()
    assert store.get("000101") == docs[3]
    assert isinstance(store.get("000101"), ColieeCaseDoc)
    with pytest.raises(KeyError):
        store.get("999999")


def test_task1_test_split_without_gold_yet(coliee_home):
    write_task1_flat(coliee_home)
    ds = ir_datasets.load("coliee/task1/2024/test")
    assert [d.doc_id for d in ds.docs_iter()] == TASK1_TEST  # found in the nested same-name folder
    assert rows(ds.queries_iter(), "query_id") == [("000200",), ("000201",)]  # from test_no_labels
    with pytest.raises(ColieeDataError, match=r"task1_test_labels_2024\.json"):
        list(ds.qrels_iter())
    sources = {s.part: s for s in REGISTERED["coliee/task1/2024/test"].files.sources()}
    assert sources["queries"].location.endswith("task1_test_no_labels_2024.json")
    assert (
        sources["qrels"].location is None
        and "task1_test_labels_2024.json" in sources["qrels"].problem
    )


def test_task1_test_gold_when_released(coliee_home):
    write_task1_flat(coliee_home, with_test_gold=True)
    ds = ir_datasets.load("coliee/task1/2024/test")
    assert rows(ds.qrels_iter(), "query_id", "doc_id") == [
        ("000200", "000300"),
        ("000201", "000301"),
    ]


def test_task1_2021_shared_pool(coliee_home):
    write_task1_2021(coliee_home)
    train, test = (
        ir_datasets.load("coliee/task1/2021/train"),
        ir_datasets.load("coliee/task1/2021/test"),
    )
    assert [d.doc_id for d in train.docs_iter()] == [d.doc_id for d in test.docs_iter()]
    assert rows(test.qrels_iter(), "query_id", "doc_id") == [
        ("000002", "000004"),
        ("000002", "000003"),
    ]
    assert len(list(test.scoreddocs_iter())) == 3


def test_task1_2021_as_its_public_copies_hold_it(coliee_home, capsys):
    """Bare names (train_labels.json, test_no_labels.json) and a list-shaped test query list; data check
    names the file that serves."""
    write_task1_2021_public_copy(coliee_home)
    train, test = (
        ir_datasets.load("coliee/task1/2021/train"),
        ir_datasets.load("coliee/task1/2021/test"),
    )
    assert rows(train.qrels_iter(), "query_id", "doc_id") == [("000001", "000003")]
    assert rows(test.queries_iter(), "query_id") == [("000002",), ("000004",)]
    assert main(["data", "check", "coliee/task1/2021/test"]) == 1  # no test gold in public copies
    out = capsys.readouterr().out
    assert f"coliee/task1/2021/test\tqueries\t{coliee_home / 'test_no_labels.json'}" in out


def test_task1_2020_candidates_are_scoped_by_query(coliee_home):
    write_task1_2020(coliee_home)
    ds = ir_datasets.load("coliee/task1/2020/train")
    assert [d.doc_id for d in ds.docs_iter()] == [
        "001/001",
        "001/002",
        "001/003",
        "002/001",
        "002/002",
        "002/003",
    ]
    assert ds.docs_store().get("002/001").text == "Candidate 001 of query 002.\n"
    assert rows(ds.queries_iter(), "query_id", "text") == [
        ("001", "Synthetic base case 001.\n"),
        ("002", "Synthetic base case 002.\n"),
    ]
    assert rows(ds.qrels_iter(), "query_id", "doc_id") == [
        ("001", "001/002"),
        ("002", "002/001"),
        ("002", "002/003"),
    ]
    assert rows(ds.scoreddocs_iter(), "query_id", "doc_id")[:3] == [
        ("001", "001/001"),
        ("001", "001/002"),
        ("001", "001/003"),
    ]


def test_task2_folders_ids_above_999_and_both_label_shapes(coliee_home):
    write_task2(coliee_home)
    ds = ir_datasets.load("coliee/task2/2026/test")
    assert rows(ds.queries_iter(), "query_id", "text") == [
        ("999", "Synthetic decision fragment of 999.\n"),
        ("1000", "Synthetic decision fragment of 1000.\n"),
    ]
    assert rows(ds.base_cases_iter(), "query_id", "text")[1] == (
        "1000",
        "Synthetic base case of 1000.\n",
    )
    docs = list(ds.docs_iter())
    assert [d.doc_id for d in docs] == ["999/001", "999/002", "999/003", "1000/001", "1000/002"]
    assert docs[1] == ColieeParagraph(
        "999/002", "999", "002", " [2] Synthetic paragraph 2 of case 999.\n"
    )
    assert rows(ds.qrels_iter(), "query_id", "doc_id") == [
        ("999", "999/002"),
        ("1000", "1000/001"),
        ("1000", "1000/002"),
    ]
    assert rows(ds.scoreddocs_iter(), "query_id", "doc_id") == [
        ("999", "999/001"),
        ("999", "999/002"),
        ("999", "999/003"),
        ("1000", "1000/001"),
        ("1000", "1000/002"),
    ]


def test_task2_zipped_with_nested_folder(coliee_home):
    write_task2(coliee_home)
    expected = list(ir_datasets.load("coliee/task2/2026/test").docs_iter())
    zip_folder(coliee_home / "task2_test_files_2026")
    refresh()
    ds = ir_datasets.load("coliee/task2/2026/test")
    assert list(ds.docs_iter()) == expected
    assert ds.docs_store().get("1000/002") == expected[-1]


def test_submission_ids_are_mapped_onto_scoped_ids_and_back():
    from ir_coliee.table.tables import GoldIds, align, coded_run

    run = pd.DataFrame(
        {"query_id": ["999", "1000"], "doc_id": ["002", "1000/001"], "score": [2.0, 1.0]}
    )
    scoped = GoldIds({"999": {"999/002": 1}, "1000": {"1000/001": 1}})
    assert align(coded_run(run), scoped).run.frame()["doc_id"].tolist() == ["999/002", "1000/001"]
    plain = GoldIds({"999": {"002": 1}, "1000": {"001": 1}})
    assert align(coded_run(run), plain).run.frame()["doc_id"].tolist() == ["002", "001"]


def test_eval_maps_task2_runs_onto_dataset_ids(coliee_home, write, capsys):
    write_task2(coliee_home)
    run = write("task2.t", "999 002 t\n1000 001.txt t\n1000 003 t\n")
    assert main(["eval", "coliee/task2/2026/test", run]) == 0
    # tp 1 + 1 = 2 of retrieved 3 and relevant 3: P = R = F1 = 2/3
    assert without_path(capsys.readouterr().out) == [
        "run\tMicroP\tMicroR\tMicroF1",
        "t\t0.6667\t0.6667\t0.6667",
    ]


def test_missing_case_folder(coliee_home):
    with pytest.raises(ColieeDataError, match=r"task2_test_files_2025/ \(a folder\)"):
        list(ir_datasets.load("coliee/task2/2025/test").docs_iter())


@pytest.mark.parametrize(
    "zipped", [None, False, True], ids=["extracted", "zipped", "zipped-out-of-order"]
)
def test_task1_2026_training_release_as_shipped(coliee_home, capsys, write, zipped):
    """Labels ``clean_task1_train_labels_2026.json`` inside ``task1_train_files_2026/``, cases in
    ``cases/`` (COLIEE-SPEC section 2); once failed with 0 documents and the labels not found. The
    documents come sorted however the release is packaged (once in a zip's entry order)."""
    from support.caselaw_data import TASK1_2026_TRAIN, write_task1_2026_train

    write_task1_2026_train(coliee_home)
    if zipped is not None:
        zip_folder(coliee_home / "task1_train_files_2026", reverse=zipped)
    refresh()
    ds = ir_datasets.load("coliee/task1/2026/train")
    docs = list(ds.docs_iter())
    assert [d.doc_id for d in docs] == TASK1_2026_TRAIN
    assert ds.docs_count() == 4  # the files served, not the 7,708 of a complete copy
    assert ds.docs_store().get("000101") == docs[3]
    assert rows(ds.queries_iter(), "query_id") == [("000028",), ("000029",)]
    assert rows(ds.qrels_iter(), "query_id", "doc_id") == [
        ("000028", "000101"),
        ("000028", "000100"),
        ("000029", "000100"),
    ]
    assert main(["data", "check", "coliee/task1/2026/train"]) == 0
    out = capsys.readouterr().out
    label = "task1_train_files_2026/clean_task1_train_labels_2026.json"
    assert f"{label}\n" in out and "cases/000028.txt\n" in out
    assert "docs\tNOTE: 4 of 7,708 documents of a complete official copy" in out
    assert "qrels\tNOTE: 3 of 8,251 qrels of a complete official copy" in out
    run = write("task1.t", "000028 000100 t\n000028 000029 t\n000029 000100 t\n")
    # tp 2 of retrieved 3 and relevant 3: P = R = F1 = 2/3
    assert main(["eval", "coliee/task1/2026/train", run]) == 0
    assert without_path(capsys.readouterr().out) == [
        "run\tMicroP\tMicroR\tMicroF1",
        "t\t0.6667\t0.6667\t0.6667",
    ]


def test_a_split_folder_without_case_files_is_an_error_and_check_goes_on(coliee_home, capsys):
    from support.caselaw_data import write_task1_2026_train

    write_task1_2026_train(coliee_home)
    for case in (coliee_home / "task1_train_files_2026" / "cases").iterdir():
        case.rename(case.with_suffix(".doc"))  # no case file left, at any depth
    write_task1_flat(coliee_home)
    refresh()
    folder = coliee_home / "task1_train_files_2026"
    expected = f"{folder} holds no document: expected case files (NNNNNN.txt)"
    with pytest.raises(ColieeDataError, match=re.escape(expected)):
        list(ir_datasets.load("coliee/task1/2026/train").docs_iter())
    assert main(["data", "check"]) == 1  # the summary goes on to the next dataset
    lines = capsys.readouterr().out.splitlines()
    assert "coliee/task1/2026/train\tincomplete: missing docs, queries" in lines
    assert "coliee/task1/2024/train\tcomplete" in lines
    assert main(["data", "check", "coliee/task1/2026/train", "coliee/task1/2024/train"]) == 1
    out = capsys.readouterr().out
    assert f"coliee/task1/2026/train\tdocs\tMISSING: {expected}" in out
    assert "it holds 5 other files: clean_task1_train_labels_2026.json, cases/000028.doc," in out
    assert "coliee/task1/2024/train\tqrels\t" in out


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ([], "it holds no file"),  # once: not found, expected task1_train_files_2025/ (a folder)
        (["notes.md"], "it holds 1 other file: sub/notes.md"),
    ],
)
def test_a_split_folder_empty_or_without_case_files_is_named(coliee_home, capsys, held, said):
    folder = coliee_home / "task1_train_files_2025"
    (folder / "sub").mkdir(parents=True)
    for name in held:
        (folder / "sub" / name).write_text("not a case")
    (coliee_home / "task1_train_labels_2025.json").write_text('{"000001.txt": ["000010.txt"]}')
    refresh()
    expected = f"{folder} holds no document: expected case files (NNNNNN.txt)"
    with pytest.raises(ColieeDataError, match=re.escape(expected)):
        list(ir_datasets.load("coliee/task1/2025/train").docs_iter())
    assert main(["data", "check", "coliee/task1/2025/train"]) == 1
    out = capsys.readouterr().out
    # the dataset id is said once, in the first column
    assert f"coliee/task1/2025/train\tdocs\tMISSING: {expected}" in out
    assert f"directly inside or in a folder below; {said}\n" in out


@pytest.mark.parametrize("zipped", [False, True], ids=["extracted", "zipped"])
def test_task2_2026_training_release_mixes_label_shapes(coliee_home, zipped):
    from support.caselaw_data import write_task2_2026_train

    write_task2_2026_train(coliee_home)
    if zipped:
        zip_folder(coliee_home / "task2_train_files_2026")
    refresh()
    ds = ir_datasets.load("coliee/task2/2026/train")
    assert [d.doc_id for d in ds.docs_iter()] == [
        "825/001",
        "825/002",
        "826/001",
        "826/002",
        "826/003",
    ]
    assert rows(ds.queries_iter(), "query_id") == [("825",), ("826",)]
    assert rows(ds.qrels_iter(), "query_id", "doc_id") == [
        ("825", "825/002"),  # a list (2025's training labels)
        ("826", "826/001"),  # a ", "-joined string (2025's test labels)
        ("826", "826/003"),
    ]
    assert ds.docs_store().get("826/003").text == " [3] Synthetic paragraph 3 of case 826.\n"
