"""``data check`` on odd and incomplete copies: old riteval forms, released questions without gold,
labels without their case files."""

from __future__ import annotations

import json

import ir_datasets
import pytest
from support.pilot_data import GOLD, jsonl
from support.statute2026_data import EGOV, PACKAGE, write_2026_package
from support.statute_data import CIVIL_CODE_EN, pair, riteval, write_statute_root

from ir_coliee.cli import main
from ir_coliee.data.datasets.check import check_dataset
from ir_coliee.data.locator import refresh
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
    test_input.write_text(
        riteval(pair("R05-01-A", "q", "") + pair("R05-01-I", "q", "") + pair("R05-03-A", "q", ""))
    )
    refresh()
    ds = ir_datasets.load("coliee/task3/2024/test")
    assert [q.query_id for q in ds.queries_iter()] == ["R05-01-A", "R05-01-I"]
    assert [q.query_id for q in ds.questions_iter()] == ["R05-01-A", "R05-01-I", "R05-03-A"]
    found = notes("coliee/task3/2024/test")
    assert found[:3] == [
        (
            "counts",
            "9 documents, 2 queries, 3 qrels; counted from your files where no official size is known",
        ),
        ("docs", "9 of 768 documents of a complete official copy: incomplete or altered"),
        ("queries", "2 of 109 queries of a complete official copy: incomplete or altered"),
    ]
    ungraded = (
        f"1 released questions have no gold and are not scored (released in {test_input}): R05-03-A"
    )
    assert ("queries", ungraded) in found


def test_a_labelled_question_whose_gold_comes_out_empty_is_a_finding(coliee_home):
    write_statute_root(coliee_home)
    labelled = coliee_home / "COLIEE2025statute_data-English" / "train" / "riteval_R05_en.xml"
    labelled.write_text(
        riteval(
            pair("R05-01-A", "q", "Article 3  Text.", "Y")
            + pair("R05-01-I", "q", "text without a header", "N")
        )
    )
    refresh()
    empty = "1 labelled questions have no gold article (t1 names none): R05-01-I"
    assert ("gold", empty) in notes("coliee/task3/2024/test")


def test_task1_labels_without_case_files_are_not_found_queries(coliee_home, capsys):
    (coliee_home / "task1_train_labels_2022.json").write_text(
        json.dumps({"000001.txt": ["000002.txt"]})
    )
    refresh()
    assert main(["data", "check", "coliee/task1/2022/train"]) == 1
    out = capsys.readouterr().out
    assert (
        "coliee/task1/2022/train\tqueries\tMISSING: the query cases listed in task1_train_labels_2022.json not found: "
        "expected task1_train_files_2022/ (a folder)" in out
    )
    assert f"coliee/task1/2022/train\tqrels\t{coliee_home / 'task1_train_labels_2022.json'}" in out


def test_2019_original_test_input_holds_more_questions_than_the_labelled_copy(coliee_home):
    """The 2019 package's test/TestData_en.xml (single quotes, standalone='yes') released more H30 questions
    than the labelled H30 of later packages: the queries are those with gold."""
    package = coliee_home / "COLIEE2019statute_data-English"
    (package / "test").mkdir(parents=True)
    released = "".join(
        pair(f"H30-{n}-A", f"Synthetic H30 question {n}.", "", quote="'") for n in (1, 2, 3)
    )
    (package / "test" / "TestData_en.xml").write_text(
        riteval(released, quote="'", standalone="yes")
    )
    (package / "text").mkdir()
    (package / "text" / "civil_code_en-1to724-2.txt").write_text(CIVIL_CODE_EN, encoding="utf-8")
    later = coliee_home / "COLIEE2020statute_data-English" / "train"
    later.mkdir(parents=True)
    labelled = pair("H30-1-A", "q", "Article 1  Text.", "Y") + pair(
        "H30-3-A", "q", "Article 2  Text.", "N"
    )
    (later / "riteval_H30_en.xml").write_text(riteval(labelled))
    refresh()
    ds = ir_datasets.load("coliee/task4/2019/test")
    assert [(q.query_id, q.doc_id) for q in ds.qrels_iter()] == [("H30-1-A", "Y"), ("H30-3-A", "N")]
    assert [q.query_id for q in ds.queries_iter()] == ["H30-1-A", "H30-3-A"]
    sources = {s.part: s.location for s in check_dataset("coliee/task4/2019/test")}
    assert sources["queries H30"] == str(package / "test" / "TestData_en.xml")
    assert sources["qrels H30"] == str(later / "riteval_H30_en.xml")
    ungraded = f"1 released questions have no gold and are not scored (released in {package / 'test' / 'TestData_en.xml'}): H30-2-A"
    assert ("queries", ungraded) in notes("coliee/task4/2019/test")


@pytest.mark.parametrize(
    "state, docs",
    [
        ("egov-zip", f"{PACKAGE}/{EGOV}_xml.zip!/{EGOV}/{EGOV}.xml"),
        ("egov-xml", f"{PACKAGE}/{EGOV}.xml"),
        ("made", f"{PACKAGE}/civil.xml"),
    ],
)
def test_data_check_on_the_2026_japanese_layouts(coliee_home, capsys, state, docs):
    write_2026_package(coliee_home, state)
    refresh()
    assert main(["data", "check", "coliee/task3/2026/train/ja"]) == 0
    out = capsys.readouterr().out
    assert f"coliee/task3/2026/train/ja\tdocs\t{coliee_home}/{docs}" in out
    assert (
        f"coliee/task3/2026/train/ja\tqueries R06\t{coliee_home}/{PACKAGE}/simple/simple_R06_jp.xml"
        in out
    )
    assert (
        f"coliee/task3/2026/train/ja\tqrels H18\t{coliee_home}/{PACKAGE}/simple/simple_H18_jp.xml"
        in out
    )
    # the synthetic copy is small: each part differs from the complete official copy, and says so
    assert "NOTE: 7 of 787 documents of a complete official copy" in out
    assert "NOTE: 20 of 1,223 queries" in out and "NOTE: 22 of 1,540 qrels" in out


def test_data_check_on_the_pilot_template_layout(coliee_home, capsys):
    dataset = coliee_home / "LJPJT-dev-template" / "dataset"
    dataset.mkdir(parents=True)
    (dataset / "LJPJT26-test001.jsonl").write_text(jsonl(GOLD), encoding="utf-8")
    refresh()
    assert main(["data", "check", "coliee/pilot/2026/test"]) == 0
    out = capsys.readouterr().out
    assert f"coliee/pilot/2026/test\tqueries\t{dataset / 'LJPJT26-test001.jsonl'}" in out
    assert (
        "counts\tNOTE: 8 documents, 3 queries, 8 qrels; counted from your files where no official size is known"
        in out
    )


def test_data_check_without_ids_is_a_summary(coliee_home, capsys):
    from support.caselaw_data import write_task1_flat

    write_task1_flat(coliee_home)  # 2024: train complete; test without its labels
    refresh()
    assert main(["data", "check"]) == 1  # a dataset is here but incomplete
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"data root: {coliee_home}"
    assert "coliee/task1/2024/train\tcomplete" in lines
    assert "coliee/task1/2024/test\tincomplete: missing qrels" in lines
    assert lines[-1].startswith("absent\t") and lines[-1].endswith(
        "datasets have none of their files here (--all lists them)"
    )
    assert len(lines) == 4  # one line per dataset that is here, not one per file of every dataset
    assert main(["data", "check", "--all"]) == 1
    assert "coliee/task3/2024/test\tdocs\tMISSING:" in capsys.readouterr().out


def test_datasets_available_lists_the_complete_ones(coliee_home, capsys):
    from support.caselaw_data import write_task1_flat

    write_task1_flat(coliee_home, with_test_gold=True)
    refresh()
    assert main(["datasets", "--available"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "coliee/task1/2024/test",
        "coliee/task1/2024/train",
    ]


def test_a_data_root_that_does_not_exist_is_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COLIEE_HOME", str(tmp_path / "nowhere"))
    refresh()
    assert main(["data", "check"]) == 2
    assert f"the data root {tmp_path / 'nowhere'} does not exist" in capsys.readouterr().err
    refresh()
