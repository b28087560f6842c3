"""``data check`` on odd and incomplete copies: old riteval forms, released questions without gold,
labels without their case files."""

from __future__ import annotations

import json

import ir_datasets
from statute_data import pair, riteval, write_statute_root

from ir_coliee.cli import main
from ir_coliee.datasets import refresh
from ir_coliee.datasets.check import check_dataset
from ir_coliee.formats.riteval import parse_riteval


def notes(dataset_id: str) -> list[tuple[str, str]]:
    return [(s.part, s.problem) for s in check_dataset(dataset_id) if s.location == ""]


def test_riteval_article_elements_with_id_attributes_are_the_gold():
    text = riteval(
        '<pair id="H27-1-A" label="Y"><t1><article id="572"/><article id="96"/><article id="398-22"/></t1><t2>Q</t2></pair>\n'
    )
    (q,) = parse_riteval(text, "riteval_H27.xml")
    assert (q.articles, q.articles_text) == (("572", "96", "398-22"), "")


def test_released_questions_without_gold_are_not_queries_and_are_reported(coliee_home):
    write_statute_root(coliee_home)
    test_input = coliee_home / "COLIEE2024statute_data-English" / "train" / "riteval_R05_en.xml"
    test_input.write_text(riteval(pair("R05-01-A", "q", "") + pair("R05-01-I", "q", "") + pair("R05-03-A", "q", "")))
    refresh()
    ds = ir_datasets.load("coliee/task3/2024/test")
    assert [q.query_id for q in ds.queries_iter()] == ["R05-01-A", "R05-01-I"]
    assert [q.query_id for q in ds.questions_iter()] == ["R05-01-A", "R05-01-I", "R05-03-A"]
    found = notes("coliee/task3/2024/test")
    assert found[:3] == [
        ("counts", "9 documents, 2 queries, 3 qrels; counted from your files where no official size is known"),
        ("docs", "9 of 768 documents of a complete official copy: incomplete or altered"),
        ("queries", "2 of 109 queries of a complete official copy: incomplete or altered"),
    ]
    ungraded = f"1 released questions have no gold and are not scored (released in {test_input}): R05-03-A"
    assert ("queries", ungraded) in found


def test_a_labelled_question_whose_gold_comes_out_empty_is_a_finding(coliee_home):
    write_statute_root(coliee_home)
    labelled = coliee_home / "COLIEE2025statute_data-English" / "train" / "riteval_R05_en.xml"
    labelled.write_text(
        riteval(pair("R05-01-A", "q", "Article 3  Text.", "Y") + pair("R05-01-I", "q", "text without a header", "N"))
    )
    refresh()
    empty = "1 labelled questions have no gold article (t1 names none): R05-01-I"
    assert ("gold", empty) in notes("coliee/task3/2024/test")


def test_task1_labels_without_case_files_are_not_found_queries(coliee_home, capsys):
    (coliee_home / "task1_train_labels_2022.json").write_text(json.dumps({"000001.txt": ["000002.txt"]}))
    refresh()
    assert main(["data", "check", "coliee/task1/2022/train"]) == 1
    out = capsys.readouterr().out
    assert (
        "coliee/task1/2022/train\tqueries\tMISSING: the query cases listed in task1_train_labels_2022.json not found: "
        "expected task1_train_files_2022/ (a folder)" in out
    )
    assert f"coliee/task1/2022/train\tqrels\t{coliee_home / 'task1_train_labels_2022.json'}" in out
