"""The statute datasets through ir_datasets, PyTerrier and ir_coliee eval, on a synthetic data root."""

from __future__ import annotations

import shutil

import ir_datasets
import ir_measures
import pytest
from support.cases import without_path
from support.records import record_fields
from support.statute_data import EN_IDS, zip_folder

import ir_coliee
from ir_coliee.cli import main
from ir_coliee.data.datasets import REGISTERED
from ir_coliee.data.locator import refresh
from ir_coliee.data.statute_files import EXAMS, train_exams
from ir_coliee.errors import ColieeDataError

ids = record_fields


def test_task3_test_split_takes_inputs_from_its_own_package_and_gold_from_a_labelled_copy(
    statute_root,
):
    ds = ir_datasets.load("coliee/task3/2024/test")
    assert ids(ds.queries_iter(), "query_id", "text") == [
        ("R05-01-A", "A synthetic test question."),
        ("R05-01-I", "A second test question."),
    ]
    # R05-02-C is only in the 2025 copy: not asked in 2024, not scored; 213-2 is not in the code but is gold
    assert ids(ds.qrels_iter(), "query_id", "doc_id", "relevance") == [
        ("R05-01-A", "213-2", 1),
        ("R05-01-I", "3-2", 1),
        ("R05-01-I", "724-2", 1),
    ]
    assert [d.doc_id for d in ds.docs_iter()] == EN_IDS
    assert ds.queries_cls()._fields == ("query_id", "text")


def test_sources_say_which_file_each_part_comes_from(statute_root):
    sources = {s.part: s.location for s in REGISTERED["coliee/task3/2024/test"].files.sources()}
    assert "COLIEE2024statute_data-English" in sources["docs"]
    assert sources["queries R05"].endswith(
        "COLIEE2024statute_data-English/train/riteval_R05_en.xml"
    )
    assert sources["qrels R05"].endswith("COLIEE2025statute_data-English/train/riteval_R05_en.xml")


def test_full_question_records(statute_root):
    ds = ir_datasets.load("coliee/task3/2024/test")
    first = next(ds.questions_iter())
    assert (first.label, first.articles) == ("Y", ("213-2",))
    assert "Article 213-2" in first.articles_text


def test_task4_and_task5_gold_answers(statute_root):
    ds = ir_datasets.load("coliee/task4/2024/test")
    assert ids(ds.qrels_iter(), "query_id", "doc_id", "relevance") == [
        ("R05-01-A", "Y", 1),
        ("R05-01-I", "N", 1),
    ]
    assert ds.has_docs()
    assert not ir_datasets.load("coliee/task5/2021/test").has_docs()


def test_train_split_has_every_exam_before_the_test_exam(statute_root):
    ds = ir_datasets.load("coliee/task3/2024/train")
    queries = [q.query_id for q in ds.queries_iter()]
    assert train_exams(2024) == EXAMS[: EXAMS.index("R05")]
    assert queries[:2] == ["H18-1-A", "H19-1-A"]
    assert {"H30-1-A", "R01-1-A", "R1-13-A", "R03-01-E", "R04-03-G"} <= set(queries)
    qrels = ids(ds.qrels_iter(), "query_id", "doc_id")
    assert ("H30-1-A", "567") in qrels and ("R04-02-O", "459-2") in qrels


def test_per_exam_subset(statute_root):
    ds = ir_datasets.load("coliee/task3/2024/train/h30")
    assert ids(ds.qrels_iter(), "query_id", "doc_id") == [
        ("H30-1-A", "566"),
        ("H30-1-A", "567"),
        ("H30-1-I", "572"),
        ("H30-2-U", "1"),
    ]
    assert "coliee/task3/2024/train/h30" in REGISTERED
    upper = ir_datasets.load("coliee/task3/2024/train/H30")  # as the exam is written
    assert list(upper.qrels_iter()) == list(ds.qrels_iter())
    with pytest.raises(KeyError):
        ir_datasets.load("coliee/task3/2024/train/r05")  # the test exam is not a training exam


def test_japanese(statute_root):
    ds = ir_datasets.load("coliee/task3/2024/train/r04/ja")
    assert ids(ds.queries_iter(), "query_id") == [("R04-02-O",), ("R04-03-G",)]
    assert ids(ds.qrels_iter(), "query_id", "doc_id") == [
        ("R04-02-O", "459-2"),
        ("R04-02-O", "398-22"),
        ("R04-03-G", "1"),
    ]
    assert [d.doc_id for d in ds.docs_iter()] == EN_IDS
    assert ds.docs_lang() == "ja" and ds.queries_lang() == "ja"
    assert "coliee/task3/2026/test/ja" in REGISTERED and "coliee/task3/2026/test" not in REGISTERED


def test_a_later_package_serves_when_the_editions_own_is_absent(statute_root):
    shutil.rmtree(statute_root / "COLIEE2024statute_data-English")
    refresh()
    ds = ir_datasets.load("coliee/task3/2024/test")
    assert [q.query_id for q in ds.queries_iter()] == ["R05-01-A", "R05-01-I", "R05-02-C"]
    assert (
        "COLIEE2025statute_data-English"
        in dict((s.part, s.location) for s in REGISTERED["coliee/task3/2024/test"].files.sources())[
            "docs"
        ]
    )


def test_zipped_packages_with_nested_folders_give_the_same_records(statute_root):
    extracted = ir_datasets.load("coliee/task3/2024/test")
    expected = (
        list(extracted.queries_iter()),
        list(extracted.qrels_iter()),
        list(extracted.docs_iter()),
    )
    zip_folder(statute_root / "COLIEE2024statute_data-English")
    zip_folder(statute_root / "COLIEE2025statute_data-English", nested=False)
    refresh()
    zipped = ir_datasets.load("coliee/task3/2024/test")
    assert (
        list(zipped.queries_iter()),
        list(zipped.qrels_iter()),
        list(zipped.docs_iter()),
    ) == expected
    location = dict(
        (s.part, s.location) for s in REGISTERED["coliee/task3/2024/test"].files.sources()
    )["queries R05"]
    assert ".zip!/COLIEE2024statute_data-English/train/riteval_R05_en.xml" in location


def test_docs_store_lookups_and_counts(statute_root):
    ds = ir_datasets.load("coliee/task3/2024/test")
    store = ds.docs_store()
    assert store.get("3-2").caption == "Capacity of Foreigners"
    assert set(store.get_many(["1", "724-2", "213-2"])) == {
        "1",
        "724-2",
    }  # 213-2 is gold but not in the code
    with pytest.raises(KeyError):
        store.get("208")  # deleted
    assert ds.docs_metadata() == {"count": 768}  # a complete official copy (COLIEE-SPEC section 8)
    assert ds.docs_count() == ds.files_count("docs") == len(EN_IDS)  # what the files here serve
    assert ds.metadata() == {
        "docs": {"count": 768},
        "queries": {"count": 109},
        "qrels": {},
    }  # qrels size unknown


def test_known_sizes_answer_without_reading_a_file(coliee_home):
    ds = ir_datasets.load("coliee/task3/2026/train/ja")  # the data root is empty
    assert ds.metadata() == {
        "docs": {"count": 787},
        "queries": {"count": 1223},
        "qrels": {"count": 1540},
    }
    assert ir_datasets.load("coliee/task4/2025/train/h30").queries_metadata() == {"count": 70}
    with pytest.raises(ColieeDataError):  # a count is of the files served, which are missing
        ds.docs_count()


def test_missing_data_names_the_files_and_the_root(tmp_path, monkeypatch):
    monkeypatch.setenv("COLIEE_HOME", str(tmp_path / "nothing-here"))
    refresh()
    ds = ir_datasets.load("coliee/task3/2023/test")  # loading reads nothing
    with pytest.raises(ColieeDataError) as info:
        list(ds.queries_iter())
    message = str(info.value)
    assert "coliee/task3/2023/test" in message and "riteval_R04_en.xml" in message
    assert str(tmp_path / "nothing-here") in message and "COLIEE_HOME" in message
    with pytest.raises(ColieeDataError, match="civil_code_en"):
        list(ds.docs_iter())
    refresh()


def test_data_check_command(statute_root, capsys):
    assert main(["data", "check", "coliee/task3/2024/test"]) == 0
    out = capsys.readouterr().out
    assert f"data root: {statute_root}" in out
    assert "coliee/task3/2024/test\tqrels R05\t" in out and "COLIEE2025statute_data-English" in out
    assert (
        "coliee/task3/2024/test\tgold\tNOTE: 1 gold document ids not in the documents: 213-2" in out
    )
    assert "coliee/task3/2024/test\tcounts\tNOTE: 9 documents, 2 queries, 3 qrels" in out
    # 2023's test exam (R04) is served by the 2024 package; nothing holds the 2026 Japanese exam R07
    assert main(["data", "check", "coliee/task3/2023/test"]) == 0
    assert "COLIEE2024statute_data-English/train/riteval_R04_en.xml" in capsys.readouterr().out
    assert main(["data", "check", "coliee/task3/2024/train/h30"]) == 0
    assert "coliee/task3/2024/train/h30\tqrels H30\t" in capsys.readouterr().out
    assert main(["data", "check", "coliee/task9/2024/test"]) == 2
    assert main(["data", "check", "coliee/task3/2026/test/ja"]) == 1
    assert (
        "queries R07\tMISSING: the R07 exam questions not found: expected simple_R07_jp.xml or riteval_R07_jp.xml"
        in capsys.readouterr().out
    )


def test_eval_takes_a_dataset_id_as_gold(statute_root, write, capsys):
    run = write(
        "task3.univABC", "R05-01-A 213-2 univABC\nR05-01-I 3-2 univABC\nR05-01-I 1 univABC\n"
    )
    assert main(["eval", "coliee/task3/2024/test", run]) == 0
    out = without_path(capsys.readouterr().out)
    # per question P: 1, 1/2; R: 1, 1/2; F2: 1, 1/2 -> 3/4 each; the 2024 measures without a --task, with the
    # ranked ones "for discussion" that every run gets (line order ranks a file without scores)
    assert out[0] == "run\tMacroP\tMacroR\tMacroF2\tAP\tRprec\tR@5\tR@10\tR@30"
    assert out[1].split("\t")[:4] == ["univABC", "0.7500", "0.7500", "0.7500"] and len(out) == 2


def test_scoring_a_run_against_dataset_qrels(statute_root):
    ds = ir_datasets.load("coliee/task3/2024/test")
    run = {"R05-01-A": {"213-2": 1.0}, "R05-01-I": {"3-2": 1.0, "1": 0.5}}
    result = ir_measures.calc_aggregate([ir_coliee.MacroF2, ir_measures.AP], ds.qrels_iter(), run)
    assert result[ir_coliee.MacroF2] == pytest.approx(3 / 4, abs=1e-15)
