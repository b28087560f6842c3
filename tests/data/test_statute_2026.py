"""COLIEE 2026 statute data, Japanese only: ``simple/`` files for questions and gold, the Civil Code from
``civil.xml`` or the e-Gov law XML, before and after the organisers' ``makeData.sh``."""

from __future__ import annotations

from fractions import Fraction as F

import ir_datasets
import pytest
from support.cases import without_path
from support.statute2026_data import LIVE, write_2026_package

import ir_coliee
from ir_coliee.cli import main
from ir_coliee.data.statute_files import train_exams


def load(dataset_id: str):
    return ir_datasets.load(dataset_id)


@pytest.mark.parametrize("state", ["distributed", "egov-zip", "egov-xml", "made"])
def test_questions_and_gold_come_from_simple_files_in_every_state(coliee_home, state):
    write_2026_package(coliee_home, state)
    ds = load("coliee/task3/2026/train/ja")
    questions = list(ds.queries_iter())
    assert len(questions) == len(train_exams(2026)) + 1  # one per exam, two in R06
    assert ("R06-01-A", "合成の質問 R06-01-A。") in [(q.query_id, q.text) for q in questions]
    qrels = [(q.query_id, q.doc_id) for q in ds.qrels_iter() if q.query_id.startswith("R06")]
    assert qrels == [
        ("R06-01-A", "3-2"),
        ("R06-01-A", "1"),
        ("R06-01-I", "724-2"),
        ("R06-01-I", "213-2"),
    ]
    answers = [(q.query_id, q.doc_id) for q in load("coliee/task4/2026/train/ja").qrels_iter()]
    assert ("R06-01-A", "N") in answers and ("R06-01-I", "Y") in answers


def test_as_distributed_the_civil_code_is_missing_and_says_which_files_serve(coliee_home):
    write_2026_package(coliee_home, "distributed")
    with pytest.raises(ir_coliee.errors.ColieeDataError) as info:
        list(load("coliee/task3/2026/train/ja").docs_iter())
    assert "makeData.sh" in str(info.value) and "  - civil.xml\n  - 129AC0000000089*.xml\n" in str(
        info.value
    )


@pytest.mark.parametrize(
    "state, source", [("egov-zip", "_xml.zip!/"), ("egov-xml", ".xml"), ("made", "civil.xml")]
)
def test_civil_code_from_egov_or_civil_xml(coliee_home, state, source):
    write_2026_package(coliee_home, state)
    ds = load("coliee/task3/2026/train/ja")
    docs = list(ds.docs_iter())
    assert [
        d.doc_id for d in docs
    ] == LIVE  # no 208, no 38:84, no 725 (Part IV), no supplementary provision
    first = ds.docs_store().get("1")
    assert (
        first.caption == "基本原則" and first.text == "第一条　合成の規定一。\n２　合成の第二項。"
    )
    assert ds.docs_store().get("2").caption == ""
    sources = dict(
        (s.part, s.location)
        for s in ir_coliee.data.datasets.REGISTERED["coliee/task3/2026/train/ja"].files.sources()
    )
    assert sources["docs"].endswith(source) or source in sources["docs"]
    if state != "made":  # e-Gov: items and headings are kept
        assert (
            ds.docs_store().get("3-2").text
            == "第三条の二　合成の規定三の二。\n一　合成の号一\n二　合成の号二"
        )
        assert ds.docs_store().get("3").path == "第一編　総則 > 第二章　人 > 第一節　権利能力"


def test_after_make_data_t1_text_comes_from_train_riteval(coliee_home):
    write_2026_package(coliee_home, "made")
    (q,) = [
        q
        for q in load("coliee/task3/2026/train/r06/ja").questions_iter()
        if q.query_id == "R06-01-A"
    ]
    assert q.articles == ("3-2", "1") and q.label == "N"
    assert q.articles_text.startswith("（意思能力）\n第三条の二")


def test_test_questions_and_no_english(coliee_home):
    write_2026_package(coliee_home, "made")
    test = load("coliee/task3/2026/test/ja")
    assert [q.query_id for q in test.queries_iter()] == ["R07-01-A", "R07-01-I"]
    with pytest.raises(KeyError):
        load("coliee/task3/2026/test")


def test_task3_ir_submission_validates_and_scores_with_the_gate(coliee_home, write, capsys):
    write_2026_package(coliee_home, "made")
    run = write("task3-IR.DU2", "R07-01-A Q0 7 1 1.000000 DU2\nR07-01-I Q0 3-2 1 0.5 DU2\n")
    assert [f.message for f in ir_coliee.validate_run(run, task=3, year=2026)] == [
        "article '7' is not in the Civil Code file"
    ]
    train = write(
        "task3-IR.t", "R06-01-A Q0 3-2 1 0.9 t\nR06-01-A Q0 1 2 0.8 t\nR06-01-I Q0 724-2 1 0.9 t\n"
    )
    answers = write("R06.task4.t", "R06-01-A N t\nR06-01-I Y t\n")
    assert (
        main(
            ["eval", "coliee/task3/2026/train/r06/ja", train, "--answers", answers, "--digits", "6"]
        )
        == 0
    )
    header, row = without_path(capsys.readouterr().out)
    assert header == "run\tRecallGatedAccuracy\tMacroF2\tMacroP\tMacroR"
    # R06-01-A: answer right, both articles retrieved -> correct; R06-01-I: 213-2 missed -> not
    # F2: A = 1; I: P 1, R 1/2 -> 5/9
    assert row.split("\t")[:3] == ["t", "0.500000", f"{float((1 + F(5, 9)) / 2):.6f}"]


def test_english_r06_runs_score_against_the_r06_gold_of_the_2026_package(
    coliee_home, write, capsys
):
    """2025's test exam (R06) was labelled only in the 2026 Japanese package, with the same question ids."""
    from support.statute2026_data import write_2026_package

    write_2026_package(coliee_home)
    run = write("R06.task4.t", "R06-01-A N t\nR06-01-I N t\n")  # gold: N, Y -> 1 of 2
    assert main(["eval", "coliee/task4/2025/test", run]) == 0
    out, err = capsys.readouterr()
    assert without_path(out) == ["run\tAnswerAccuracy", "t\t0.5000"]
    assert (
        f"the R06 gold from {coliee_home}/COLIEE2026statute_data-Japanese/simple/simple_R06_jp.xml"
        in err
    )


def test_without_any_r06_gold_the_error_names_the_files_that_would_serve(
    coliee_home, write, capsys
):
    run = write("R06.task4.t", "R06-01-A N t\n")
    assert main(["eval", "coliee/task4/2025/test", run]) == 2
    err = capsys.readouterr().err
    assert "a labelled copy of the R06 exam (its gold) not found" in err
    assert ":\n  - simple_R06_jp.xml\nCOLIEE data is released" in err
