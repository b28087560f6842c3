"""What users of ir_datasets expect of any entry: metadata per part, a top-level entry with its
documentation, ``bibtex_ids``, one docs parent per corpus, and a quiet early stop of ``docs_iter()``."""

from __future__ import annotations

import logging

import ir_datasets
from support.caselaw_data import write_task1_2021

import ir_coliee
import ir_coliee.data.datasets
from ir_coliee.data.catalog import catalog
from ir_coliee.hosts import register as _host
from ir_coliee.model import EDITIONS, civil_code_id


def test_metadata_per_part_as_built_in_entries_answer_it():
    dataset = ir_datasets.load("coliee/task1/2025/test")
    whole = dataset.metadata()
    assert dataset.docs_metadata() == whole["docs"] and dataset.docs_metadata()["count"] > 0
    assert (
        dataset.queries_metadata() == whole["queries"]
        and dataset.qrels_metadata() == whole["qrels"]
    )
    # a dataset whose sizes are not known answers empty dicts, as built-in entries without metadata do
    assert ir_datasets.load("coliee/task1/2019/train").docs_metadata() == {}


def test_the_top_level_entry_and_the_citation_keys():
    top = ir_datasets.load("coliee").documentation()
    assert top["pretty_name"].startswith("COLIEE") and top["bibtex_ids"] == ["coliee"]
    assert "official_measures" not in top  # no task of its own
    for dataset_id in (
        "coliee/task1/2025/test",
        "coliee/task3/2024/test/ja",
        "coliee/pilot/2026/test",
    ):
        doc = ir_datasets.load(dataset_id).documentation()
        assert doc["bibtex_ids"] == ["coliee"] and doc["official_measures"], dataset_id


def test_datasets_over_one_corpus_share_their_docs_parent(statute_root):
    # train and test, Tasks 3 and 4, per-exam subsets of an edition read one Civil Code per language:
    # one parent each, one index
    english = [
        "coliee/task3/2024/test",
        "coliee/task3/2024/train",
        "coliee/task4/2024/train",
        "coliee/task3/2024",
    ]
    japanese = [
        "coliee/task3/2024/test/ja",
        "coliee/task3/2024/train/ja",
        "coliee/task4/2024/test/ja",
    ]
    english.append("coliee/task3/2024/train/r04")  # per-exam subsets, loaded through the pattern
    japanese.append("coliee/task3/2024/train/r04/ja")
    assert {ir_datasets.docs_parent_id(i) for i in english} == {"coliee/civil-code/2024"}
    assert {ir_datasets.docs_parent_id(i) for i in japanese} == {"coliee/civil-code/2024/ja"}
    # each parent is a dataset of exactly those documents (the English code: 3 articles, the Japanese: 2)
    for parent, children in (
        ("coliee/civil-code/2024", english),
        ("coliee/civil-code/2024/ja", japanese),
    ):
        articles = [d.doc_id for d in ir_datasets.load(parent).docs_iter()]
        assert articles and all(
            articles == [d.doc_id for d in ir_datasets.load(c).docs_iter()] for c in children
        )
        assert ir_datasets.docs_parent_id(parent) == parent
        assert not ir_datasets.load(parent).has_queries()
    assert ir_datasets.load("coliee/civil-code/2024").docs_lang() == "en"
    assert ir_datasets.load("coliee/civil-code/2024/ja").docs_lang() == "ja"
    # only documents are linked: queries keep ir_datasets' own answer
    assert ir_datasets.queries_parent_id("coliee/task3/2024/test") == "coliee/task3/2024/test"
    # 2021's train and test queries share one pool; 2025's train and test pools are two folders
    assert ir_datasets.docs_parent_id("coliee/task1/2021/test") == "coliee/task1/2021"
    assert ir_datasets.docs_parent_id("coliee/task1/2025/test") == "coliee/task1/2025/test"
    assert "coliee/task3/2024" not in catalog()  # a docs parent is not a dataset to score against
    assert "coliee/civil-code/2024" not in catalog()


def test_every_statute_dataset_has_the_civil_code_of_its_edition_and_language_as_docs_parent():
    parents: dict[str, set[tuple[int, str]]] = {}
    for dataset_id, entry in catalog().items():
        dataset = ir_datasets.load(dataset_id)
        if (
            not dataset.has_docs()
            or "/task1/" in dataset_id
            or "/task2/" in dataset_id
            or "/pilot/" in dataset_id
        ):
            continue
        lang = "ja" if dataset_id.endswith("/ja") else ""
        parent = ir_datasets.docs_parent_id(dataset_id)
        assert parent == civil_code_id(entry.year, lang), dataset_id
        assert ir_datasets.load(parent).docs_handler() == dataset.docs_handler(), dataset_id
        parents.setdefault(parent, set()).add((entry.year, lang))
    assert all(len(editions) == 1 for editions in parents.values())
    assert (
        "coliee/civil-code/2026/ja" in parents and "coliee/civil-code/2026" not in parents
    )  # 2026: Japanese only
    # one Civil Code per statute edition and language (2018-2025 in two languages, 2026 in Japanese)
    assert len(parents) == sum(
        len(e.statute_languages) for e in EDITIONS.values() if "3" in e.tasks
    )


def test_the_docs_links_leave_other_datasets_to_ir_datasets_and_wrap_once():
    walk = ir_datasets.parent_id.walk  # type: ignore[attr-defined]
    assert not hasattr(walk, "walk")  # one wrapping, however often datasets register
    ir_datasets.load(
        "coliee/task4/2023/train/h29"
    )  # a subset ir_datasets registered through the pattern
    ir_coliee.data.datasets.register_all()  # and registering again is still idempotent
    _host.install_datasets()
    assert ir_datasets.parent_id.walk is walk  # type: ignore[attr-defined]
    for dataset_id in (
        "vaswani",
        "msmarco-passage/trec-dl-2019/judged",
        "wikir/en1k/test",
        "antique/test",
    ):
        for kind in ("docs", "queries", "qrels"):
            assert ir_datasets.parent_id(dataset_id, kind) == walk(dataset_id, kind), (
                dataset_id,
                kind,
            )
    assert ir_datasets.docs_parent_id("msmarco-passage/trec-dl-2019/judged") == "msmarco-passage"


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


def test_a_civil_code_id_given_as_gold_names_the_datasets_over_it(tmp_path, capsys):
    from ir_coliee.cli import main

    run = tmp_path / "task3-L.run"
    run.write_text("R05-01-A Q0 1 1 0.5 t\n")
    assert main(["eval", "coliee/civil-code/2024/ja", str(run)]) == 2
    err = capsys.readouterr().err
    assert "'coliee/civil-code/2024/ja' holds documents only (no queries, no gold)" in err
    assert (
        "coliee/task3/2024/train/ja, coliee/task3/2024/test/ja, coliee/task4/2024/train/ja" in err
    )
    assert "Traceback" not in err


def test_candidates_are_counted_as_built_in_entries_count_scoreddocs(coliee_home):
    from support.caselaw_data import write_task1_flat

    write_task1_flat(coliee_home)
    dataset = ir_datasets.load("coliee/task1/2024/train")
    counted = sum(1 for _ in dataset.scoreddocs_iter())
    assert (
        counted > 0 and dataset.scoreddocs_count() == counted
    )  # no official size known: the files counted
    # no size known: empty metadata, its part listed in metadata() as ir_datasets lists every part a dataset has
    assert dataset.scoreddocs_metadata() == dataset.metadata()["scoreddocs"] == {}
    # a complete official copy's size, known without reading a file: each query against every other case
    official = ir_datasets.load("coliee/task1/2025/test")
    assert (
        official.scoreddocs_metadata()
        == official.metadata()["scoreddocs"]
        == {"count": 400 * (2159 - 1)}
    )
    # Task 2: each paragraph is a candidate of its own case's query only, count and metadata alike
    task2 = ir_datasets.load("coliee/task2/2025/test")
    assert task2.scoreddocs_metadata()["count"] == task2.metadata()["scoreddocs"]["count"]
    assert task2.scoreddocs_metadata() == task2.docs_metadata() == {"count": 3283}
    # Task 3 has no candidates: none offered, as a built-in entry without scoreddocs offers none
    task3 = ir_datasets.load("coliee/task3/2025/test")
    assert not task3.has_scoreddocs() and "scoreddocs" not in task3.metadata()
    assert not hasattr(task3, "scoreddocs_count") and not hasattr(task3, "scoreddocs_metadata")
    builtin = ir_datasets.load("antique/test")  # (its metadata ships with ir_datasets: no download)
    assert not hasattr(builtin, "scoreddocs_count") and not hasattr(builtin, "scoreddocs_metadata")


def test_counts_describe_the_files_served():
    """The sample release serves 83 cases where a complete 2025 test copy has 2,159: ``docs_count()``
    said 2,159; the complete copy's size stays in the metadata."""
    from ir_coliee.extras.demo import sample_release

    with sample_release():
        ds = ir_datasets.load("coliee/task1/2025/test")
        counts = (ds.docs_count(), ds.queries_count(), ds.qrels_count(), ds.scoreddocs_count())
        assert counts == (83, 20, 40, 20 * (83 - 1))
        assert counts[0] == sum(1 for _ in ds.docs_iter())
        assert ds.docs_metadata() == {"count": 2159}
