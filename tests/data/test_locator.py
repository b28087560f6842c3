"""One locator: every door (ir_datasets, score/eval, data check, validate, export) reads the same file for
each part of each dataset; nothing stale is served after the data root, a zip file or a parsed file
changed; organisers' slips are read by a documented rule and said; workflows on train/test pairs with
disjoint ids keep working."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from fractions import Fraction as F
from pathlib import Path

import ir_datasets
import pytest
from support.caselaw_data import (
    TASK1_TEST,
    write_2019,
    write_task1_2020,
    write_task1_2021_public_copy,
    write_task1_flat,
    write_task2,
)
from support.cases import without_path
from support.pilot_data import write_pilot_root
from support.statute2026_data import PACKAGE, write_2026_package
from support.statute_data import pair, riteval, write_package, write_statute_root, zip_folder

import ir_coliee
from ir_coliee.cli import main
from ir_coliee.data.catalog import catalog
from ir_coliee.data.datasets.check import listed_ids, status
from ir_coliee.data.files import DataFile
from ir_coliee.errors import ColieeWarning
from ir_coliee.inputs.gold import load_gold

#: the English R06 questions as handed out in 2025 (no labels); R06-02-U has no gold in the 2026 package
TEST_DATA_EN = riteval(
    pair("R06-01-A", "English question A.", "")
    + pair("R06-01-I", "English question I.", "")
    # a third question that the gold does not label, as 83 were handed out and 73 labelled
    + pair("R06-02-U", "English question U.", "")
)


def write_2025_english_with_2026_japanese(root: Path) -> None:
    """As on a participant's disk: the 2025 English package (test questions in test-for-task4/) beside the
    2026 Japanese one, whose simple_R06_jp.xml is the only R06 gold ever distributed."""
    package = write_package(root, 2025, "R06", None)
    (package / "test-for-task4").mkdir()
    (package / "test-for-task4" / "TestData_en.xml").write_text(TEST_DATA_EN)
    write_2026_package(root)


# --- the 2025 statute gold: every door the same file ------------------------------------------------------


@pytest.mark.parametrize("task", ["3", "4"])
def test_every_door_reads_the_r06_gold_of_the_2026_japanese_package(
    coliee_home, write, capsys, task
):
    write_2025_english_with_2026_japanese(coliee_home)
    dataset_id = f"coliee/task{task}/2025/test"
    gold_file = f"{coliee_home}/{PACKAGE}/simple/simple_R06_jp.xml"
    ds = ir_datasets.load(dataset_id)
    # the questions are the English ones that have gold; the gold is the Japanese package's
    assert [(q.query_id, q.text) for q in ds.queries_iter()] == [
        ("R06-01-A", "English question A."),
        ("R06-01-I", "English question I."),
    ]
    expected = (
        [("R06-01-A", "3-2"), ("R06-01-A", "1"), ("R06-01-I", "724-2"), ("R06-01-I", "213-2")]
        if task == "3"
        else [("R06-01-A", "N"), ("R06-01-I", "Y")]
    )
    assert [(q.query_id, q.doc_id) for q in ds.qrels_iter()] == expected
    assert status(dataset_id) == ("complete", [])
    assert main(["data", "check", dataset_id]) == 0
    out = capsys.readouterr().out
    assert f"{dataset_id}\tqrels R06\t{gold_file}\n" in out
    assert (
        f"{dataset_id}\tqueries R06\t{coliee_home}/COLIEE2025statute_data-English/test-for-task4/TestData_en.xml\n"
        in out
    )
    if task == "3":
        # R06-01-A: 3-2 and 1 retrieved, 1 right of 2 -> P 1/2, R 1/2, F2 1/2; R06-01-I: 724-2 -> P 1, R 1/2, F2 5/9
        run = write("task3.t", "R06-01-A 3-2 t\nR06-01-A 566 t\nR06-01-I 724-2 t\n")
        values = [F(3, 4), F(1, 2), (F(1, 2) + F(5, 9)) / 2]
    else:
        run = write("R06.task4.t", "R06-01-A N t\nR06-01-I N t\nR06-02-U Y t\n")  # 1 of 2 right
        values = [F(1, 2)]
    assert main(["eval", dataset_id, run, "--digits", "6"]) == 0
    out, err = capsys.readouterr()
    assert [v for v in without_path(out)[1].split("\t")[1 : 1 + len(values)]] == [
        f"{float(v):.6f}" for v in values
    ]
    assert f"the R06 gold from {gold_file}" in err
    report = ir_coliee.score(dataset_id, run)
    assert [f.rule for f in report.findings if f.rule == "gold-elsewhere"] == ["gold-elsewhere"]
    # validate checks ids against the questions handed out: nothing to warn for a complete run
    assert main(["validate", run, "--task", task, "--dataset", dataset_id]) == 0
    assert "0 errors" in capsys.readouterr().out


def test_the_2026_japanese_package_alone_scores_the_english_r06_runs(coliee_home, write, capsys):
    write_2026_package(coliee_home)
    run = write("R06.task4.t", "R06-01-A N t\nR06-01-I Y t\n")
    assert main(["eval", "coliee/task4/2025/test", run]) == 0
    assert without_path(capsys.readouterr().out) == ["run\tAnswerAccuracy", "t\t1.0000"]
    # the questions of the dataset are not here: data check says so, and what would serve
    assert status("coliee/task4/2025/test") == ("incomplete", ["missing docs, queries R06"])


def test_the_docs_list_no_english_r06_file():
    page = Path(__file__).resolve().parents[2].joinpath("docs", "data.md").read_text()
    assert "riteval_R06_en.xml" not in page and "riteval_{H18..R06}_en.xml" not in page
    assert "TestData_en.xml<br>simple_R06_jp.xml" in page


# --- the invariant over every registered dataset and part --------------------------------------------------


def _roots() -> dict[str, object]:
    def statute_zipped(root: Path) -> None:
        write_statute_root(root)
        zip_folder(root / "COLIEE2025statute_data-English")

    def caselaw(root: Path) -> None:
        for year in (2022, 2024):
            write_task1_flat(root, year, with_test_gold=True)
        write_task1_2021_public_copy(root)
        write_task1_2020(root)
        write_task2(root, 2026)

    def task1_zipped(root: Path) -> None:
        write_task1_flat(root, 2025, with_test_gold=True)
        zip_folder(root / "task1_test_files_2025")

    def made_2026(root: Path) -> None:
        write_2026_package(root, "made")

    def sample(root: Path) -> None:
        shutil.copytree(
            Path(ir_coliee.__file__).parent / "sample" / "release", root, dirs_exist_ok=True
        )

    return {
        "statute": write_statute_root,
        "statute zipped": statute_zipped,
        "2025 English + 2026 Japanese": write_2025_english_with_2026_japanese,
        "2026 made": made_2026,
        "case law": caselaw,
        "task 1 zipped": task1_zipped,
        "2019 indexes": write_2019,
        "pilot": write_pilot_root,
        "sample release": sample,
    }


class Touched:
    """The files read (or looked up in a cache) while it is on."""

    def __init__(self, monkeypatch):
        self.files: set[str] = set()
        read, version = DataFile.read_bytes, DataFile.version

        def read_bytes(f):
            self.files.add(f.describe())
            return read(f)

        def version_of(f):
            self.files.add(f.describe())
            return version(f)

        monkeypatch.setattr(DataFile, "read_bytes", read_bytes)
        monkeypatch.setattr(DataFile, "version", version_of)

    def during(self, action) -> set[str]:
        self.files = set()
        action()
        return self.files


@pytest.mark.parametrize("layout", list(_roots()))
def test_the_file_data_check_names_is_the_file_every_door_reads(coliee_home, monkeypatch, layout):
    _roots()[layout](coliee_home)  # type: ignore[operator]
    ir_coliee.data.locator.refresh()
    touched = Touched(monkeypatch)
    complete = 0
    for dataset_id in listed_ids():
        entry = catalog()[dataset_id]
        sources = entry.files.sources()
        state, wrong = status(dataset_id)
        missing_parts = [s.part for s in sources if s.location is None]  # none unreadable here
        assert wrong == ([f"missing {', '.join(missing_parts)}"] if missing_parts else []), (
            dataset_id
        )
        qrels_files = {s.location for s in sources if s.part.startswith("qrels") and s.location}
        if qrels_files and all(s.location for s in sources if s.part.startswith("qrels")):
            # the gold data check names is the gold ir_datasets and scoring read, and both give the same pairs
            ds = ir_datasets.load(dataset_id)
            by_irds = touched.during(lambda ds=ds: list(ds.qrels_iter()))
            by_score = touched.during(lambda dataset_id=dataset_id: load_gold(dataset_id))
            assert qrels_files <= by_irds, (dataset_id, qrels_files, by_irds)
            assert by_irds == by_score, dataset_id
            pairs = {(q.query_id, q.doc_id) for q in ds.qrels_iter()}
            gold = load_gold(dataset_id)
            if gold.torts is None:  # the pilot's gold is torts: its qrels are derived from them
                (table,) = gold.tables.values()
                assert pairs == {(q, d) for q, docs in table.items() for d in docs}, dataset_id
        if state != "complete":
            continue
        complete += 1
        # a dataset data check calls complete loads whole, from the files it names
        ds = ir_datasets.load(dataset_id)
        named = {s.location for s in sources}
        parts = [p for p in ("docs", "queries", "qrels") if getattr(ds, f"has_{p}")()]
        read = touched.during(
            lambda ds=ds, parts=parts: [list(getattr(ds, f"{p}_iter")()) for p in parts]
        )
        for location in named:
            assert any(r == location or r.startswith(location.rsplit("/", 1)[0]) for r in read), (
                dataset_id,
                location,
            )
    assert complete, layout


# --- caches keyed by everything they depend on ---------------------------------------------------------------


def _task1_root(root: Path, relevant: str) -> None:
    write_task1_flat(root, 2024, with_test_gold=False)
    (root / "task1_test_labels_2024.json").write_text(
        json.dumps({"000200.txt": [relevant, "000302.txt"]})
    )


def test_changing_the_data_root_in_one_process_scores_the_new_root(tmp_path, monkeypatch, write):
    first, second = tmp_path / "first", tmp_path / "second"
    _task1_root(first, "000399.txt")  # the run finds 1 of 2
    _task1_root(second, "000300.txt")  # the run finds 2 of 2
    run = write("task1.t", "000200 000300 t\n000200 000302 t\n")
    monkeypatch.setenv("COLIEE_HOME", str(first))
    assert ir_coliee.score("coliee/task1/2024/test", run).rows[0]["MicroR"] == 0.5
    assert len(list(ir_datasets.load("coliee/task1/2024/test").docs_iter())) == len(TASK1_TEST)
    monkeypatch.setenv("COLIEE_HOME", str(second))
    assert ir_coliee.score("coliee/task1/2024/test", run).rows[0]["MicroR"] == 1.0
    assert {q.doc_id for q in ir_datasets.load("coliee/task1/2024/test").qrels_iter()} == {
        "000300",
        "000302",
    }
    monkeypatch.delenv("COLIEE_HOME")
    ir_coliee.data.locator.refresh()


def test_a_zip_replaced_keeping_its_modification_time_is_read_anew(coliee_home, write):
    write_package(coliee_home, 2024, "R05", None)
    package = coliee_home / "COLIEE2025statute_data-English"
    (package / "train").mkdir(parents=True)
    labelled = riteval(pair("R05-01-A", "q", "Article 1  x", "Y"))
    (package / "train" / "riteval_R05_en.xml").write_text(labelled)
    target = zip_folder(package)
    stamp = os.stat(target).st_mtime_ns
    run = write("R05.task4.t", "R05-01-A Y t\n")
    assert ir_coliee.score("coliee/task4/2024/test", run).rows[0]["AnswerAccuracy"] == 1.0
    assert [a.doc_id for a in ir_datasets.load("coliee/task3/2024/test").qrels_iter()] == ["1"]
    # the same name, the same size and modification time (cp -p, rsync -t, unzip): another gold
    (package / "train").mkdir(parents=True)
    (package / "train" / "riteval_R05_en.xml").write_text(
        labelled.replace('label="Y"', 'label="N"').replace("Article 1 ", "Article 2 ")
    )
    replacement = zip_folder(package)
    os.utime(replacement, ns=(stamp, stamp))
    assert os.stat(replacement).st_mtime_ns == stamp
    assert ir_coliee.score("coliee/task4/2024/test", run).rows[0]["AnswerAccuracy"] == 0.0
    assert [a.doc_id for a in ir_datasets.load("coliee/task3/2024/test").qrels_iter()] == ["2"]


def test_a_civil_code_replaced_in_place_is_parsed_anew(statute_root):
    code = statute_root / "COLIEE2025statute_data-English" / "text" / "civil_code_en-1to724-2.txt"
    ds = ir_datasets.load("coliee/task3/2025/train")
    assert "Synthetic rule one." in ds.docs_store().get("1").text
    stamp = os.stat(code).st_mtime_ns
    text = code.read_text(encoding="utf-8-sig")
    code.write_text(
        "\ufeff" + text.replace("Synthetic rule one.", "Replaced rule one."), encoding="utf-8"
    )
    os.utime(code, ns=(stamp, stamp))
    assert "Replaced rule one." in ds.docs_store().get("1").text
    assert "Replaced rule one." in next(d.text for d in ds.docs_iter() if d.doc_id == "1")


FORKED = """
import multiprocessing, sys
import ir_coliee, ir_datasets

def texts(dataset_id):
    return [d.text[:20] for d in ir_datasets.load(dataset_id).docs_iter()]

expected = texts("coliee/task1/2025/test")  # the parent holds the zip open
with multiprocessing.get_context("fork").Pool(3) as pool:
    results = pool.map(texts, ["coliee/task1/2025/test"] * 6)
print(len(expected), results == [expected] * 6)
"""


def test_zipped_documents_read_in_forked_workers(coliee_home):
    write_task1_flat(coliee_home, 2025, with_test_gold=True)
    zip_folder(coliee_home / "task1_test_files_2025")
    # in a process of its own: a fork of the test process (threads of other libraries) could hang in the child
    done = subprocess.run(
        [sys.executable, "-c", FORKED],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(TASK1_TEST)), "True"]


# --- organisers' slips: read by a documented rule, and said ---------------------------------------------------


REPEATED = '{"000028.txt": ["000100.txt"],\n "000029.txt": ["000102.txt"],\n "000028.txt": ["000101.txt", "000100.txt"]}'


def test_a_label_file_that_repeats_a_query_key_is_read_as_json_reads_it(coliee_home, write, capsys):
    write_task1_flat(coliee_home, 2022)
    (coliee_home / "task1_train_labels_2022.json").write_text(REPEATED)
    with pytest.warns(
        ColieeWarning,
        match=r"000028 \('000028.txt' line 1, '000028.txt' line 3\); .* the last list of each .* add 0 pairs",
    ):
        gold = ir_coliee.read_qrels(str(coliee_home / "task1_train_labels_2022.json"))
    assert sorted(map(tuple, gold[["query_id", "doc_id"]].values.tolist())) == [
        ("000028", "000100"),
        ("000028", "000101"),
        ("000029", "000102"),
    ]
    with pytest.warns(ColieeWarning, match="given more than once"):
        qrels = [
            (q.query_id, q.doc_id) for q in ir_datasets.load("coliee/task1/2022/train").qrels_iter()
        ]
    assert qrels == [("000028", "000101"), ("000028", "000100"), ("000029", "000102")]
    assert status("coliee/task1/2022/train") == ("complete", [])
    # 000028: 000101 right; 000029: 000100 wrong -> P 1/2, R 1/3
    run = write("task1.t", "000028 000101 t\n000029 000100 t\n")
    assert main(["eval", "coliee/task1/2022/train", run, "--digits", "6"]) == 0
    out, err = capsys.readouterr()
    assert without_path(out)[1].split("\t")[1:3] == [f"{1 / 2:.6f}", f"{1 / 3:.6f}"]
    assert (
        "ir_coliee: warning: " in err
        and "1 query given more than once: 000028 ('000028.txt' line 1, '000028.txt' line 3)" in err
    )
    assert err.count("given more than once") == 1  # said once, however many doors read the file
    report = ir_coliee.score("coliee/task1/2022/train", run)
    assert [f.rule for f in report.findings].count("gold-quirk") == 1


def test_the_union_of_repeated_lists_is_counted_in_the_warning(write):
    text = '{"1": ["a", "b"], "2": ["c"], "1": ["b"], "1": ["d"]}'
    with pytest.warns(
        ColieeWarning, match=r"1 \('1' line 1, '1' line 1, '1' line 1\); .* would add 2 pairs"
    ):
        labels = ir_coliee.read_qrels(write("labels.json", text))
    assert labels.values.tolist() == [["1", "d", 1], ["2", "c", 1]]


def test_two_spellings_of_one_query_are_one_repeated_query(write):
    """``"000028.txt"`` and ``"000028"`` (or with a space) name one query: the last list, never their union."""
    text = '{"000028.txt": ["000100.txt"],\n "000029.txt": ["000102.txt"],\n " 000028": ["000101.txt"]}'
    with pytest.warns(
        ColieeWarning,
        match=r"000028 \('000028.txt' line 1, ' 000028' line 3\); .* would add 1 pairs",
    ):
        labels = ir_coliee.read_qrels(write("labels.json", text))
    assert labels.values.tolist() == [["000028", "000101", 1], ["000029", "000102", 1]]
    reordered = '{" 000028": ["000101.txt"],\n "000028.txt": ["000100.txt"]}'
    with pytest.warns(ColieeWarning):
        labels = ir_coliee.read_qrels(write("labels2.json", reordered))
    assert labels.values.tolist() == [["000028", "000100", 1]]  # the last in the file


def test_a_riteval_file_that_gives_a_question_twice_keeps_its_last_pair(write):
    from ir_coliee.formats.riteval import parse_riteval

    text = riteval(
        pair("R05-01-A", "q", "Article 1  x", "Y")
        + pair("R05-01-I", "q", "Article 3  x", "N")
        + pair("R05-01-A", "q", "Article 2  x", "N")
    )
    with pytest.warns(
        ColieeWarning,
        match=r"1 questions given more than once \(1 with another label.*\): R05-01-A; each read as its last",
    ):
        questions = parse_riteval(text, "exam.xml")
    assert [(q.query_id, q.label, q.articles) for q in questions] == [
        ("R05-01-A", "N", ("2",)),
        ("R05-01-I", "N", ("3",)),
    ]
    gold = write("gold.xml", text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ColieeWarning)
        report = ir_coliee.score(gold, write("R05.task4.t", "R05-01-A N t\nR05-01-I N t\n"), task=4)
    assert report.rows[0]["AnswerAccuracy"] == 1.0  # the last pair's N, never both labels
    assert "R05-01-A" in " ".join(f.message for f in report.findings if f.rule == "gold-quirk")


# --- files that are not there, or not readable ---------------------------------------------------------------


def test_a_listed_query_without_its_case_file_is_a_missing_part_not_a_traceback(
    coliee_home, write, capsys
):
    write_task1_flat(coliee_home, 2024)
    labels = coliee_home / "task1_train_labels_2024.json"
    listed = json.loads(labels.read_text())
    listed["000999.txt"] = ["000100.txt"]
    labels.write_text(json.dumps(listed))
    assert status("coliee/task1/2024/train") == ("incomplete", ["missing queries"])
    assert main(["data", "check", "coliee/task1/2024/train"]) == 1
    out = capsys.readouterr().out
    assert (
        f"queries\tMISSING: the case files of 1 query cases listed in {labels} (000999.txt) not found"
        in out
    )
    assert main(["datasets", "export", "coliee/task1/2024/train", "queries"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("ir_coliee: error: coliee/task1/2024/train: the case files of 1 query cases")
        and "Traceback" not in err
    )
    # the gold alone still scores
    run = write("task1.t", "000028 000100 t\n000999 000100 t\n")
    assert ir_coliee.score("coliee/task1/2024/train", run).rows[0]["MicroR"] == F(2, 4)


def test_a_truncated_zip_is_named_where_its_files_are_missing(coliee_home, capsys):
    write_task1_flat(coliee_home, 2024, with_test_gold=True)
    target = zip_folder(coliee_home / "task1_test_files_2024")
    with open(target, "r+b") as f:
        f.truncate(os.path.getsize(target) - 30)
    assert main(["data", "check", "coliee/task1/2024/test"]) == 1
    out = capsys.readouterr().out
    assert (
        f"docs\tMISSING: the case files not found: expected task1_test_files_2024/ (a folder); not read: {target}: not a readable zip file"
        in out
    )
    with pytest.raises(
        ir_coliee.errors.ColieeDataError, match=f"Under the data root, not read: {target}"
    ):
        list(ir_datasets.load("coliee/task1/2024/test").docs_iter())


# --- workflows on train and test with disjoint ids -------------------------------------------------------------


def test_tune_on_training_gold_applies_to_a_test_run_with_other_query_ids(
    coliee_home, write, capsys
):
    write_task1_flat(coliee_home, 2024, with_test_gold=True)
    # training: 000028 -> 000100, 000101; 000029 -> 000102. Rank 1 keeps 2 right of 2 retrieved, 3 relevant
    train = write(
        "task1.train",
        "000028 Q0 000100 1 0.9 t\n000028 Q0 000105 2 0.8 t\n000029 Q0 000102 1 0.7 t\n000029 Q0 000104 2 0.1 t\n",
    )
    test = write(
        "task1.test",
        "000200 Q0 000300 1 0.9 t\n000200 Q0 000301 2 0.5 t\n000201 Q0 000301 1 0.4 t\n",
    )
    cut = Path(write("task1.cut", ""))
    assert (
        main(
            [
                "tune",
                "coliee/task1/2024/train",
                train,
                "--apply",
                test,
                "--write",
                str(cut),
                "--tag",
                "cut1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "best rank cutoff: 1 (MicroF1 = 0.8000)" in out  # P 1, R 2/3 -> F1 4/5
    assert cut.read_text() == "000200 000300 cut1\n000201 000301 cut1\n"
    # and the cut test run scores against the test gold: 000200 -> 000300, 000201 -> 000301
    assert ir_coliee.score("coliee/task1/2024/test", str(cut)).rows[0]["MicroF1"] == 1.0


def test_the_data_check_overview_carries_on_past_unreadable_labels(coliee_home, capsys):
    write_task1_flat(coliee_home, 2024, with_test_gold=True)
    write_task1_2020(coliee_home)
    (coliee_home / "task1_train_labels_2024.json").write_text('{"000028.txt": ["000100.txt"')
    assert main(["data", "check"]) == 1
    out = capsys.readouterr().out
    assert (
        "coliee/task1/2020/train\tcomplete\n" in out and "coliee/task1/2024/test\tcomplete\n" in out
    )
    # the labels are the query list and the gold: both parts say the file cannot be read
    assert "coliee/task1/2024/train\tincomplete: cannot read queries, qrels\n" in out
    assert main(["data", "check", "coliee/task1/2024/train"]) == 1
    out = capsys.readouterr().out
    for part in ("queries", "qrels"):
        said = f"coliee/task1/2024/train\t{part}\tUNREADABLE: {coliee_home}/task1_train_labels_2024.json:1:"
        assert f"{said} invalid JSON" in out


def test_a_package_added_inside_a_folder_of_the_root_is_seen(coliee_home, tmp_path_factory, write):
    folder = coliee_home / "statute"
    write_2025_english_with_2026_japanese(folder)
    aside = tmp_path_factory.mktemp("elsewhere") / PACKAGE
    (folder / PACKAGE).rename(aside)
    run = write("R06.task4.t", "R06-01-A N t\nR06-01-I N t\n")
    with pytest.raises(ir_coliee.errors.ColieeDataError, match=r"simple_R06_jp\.xml"):
        ir_coliee.score("coliee/task4/2025/test", run)
    aside.rename(folder / PACKAGE)  # into statute/, not the root itself
    assert ir_coliee.score("coliee/task4/2025/test", run).rows[0]["AnswerAccuracy"] == 0.5
    assert status("coliee/task4/2025/test") == ("complete", [])


def test_a_file_removed_since_the_scan_is_said_to_be_gone(coliee_home, write):
    write_2025_english_with_2026_japanese(coliee_home)
    run = write("R06.task4.t", "R06-01-A N t\nR06-01-I N t\n")
    assert ir_coliee.score("coliee/task4/2025/test", run).rows[0]["AnswerAccuracy"] == 0.5
    (coliee_home / PACKAGE / "simple" / "simple_R06_jp.xml").unlink()
    with pytest.raises(ir_coliee.errors.ColieeDataError) as info:
        ir_coliee.score("coliee/task4/2025/test", run)
    assert "simple_R06_jp.xml" in str(info.value)
    from ir_coliee.data.locator import LOCATOR

    gone = [p for p in LOCATOR.problems if "simple_R06_jp.xml" in p]
    assert all("no longer there" in p for p in gone)


def test_validate_takes_a_case_returned_by_its_own_number_where_candidates_are_scoped(
    coliee_home, write, capsys
):
    write_task1_2020(coliee_home)
    run = write(
        "task1.t", "001 001 T\n002 002 T\n"
    )  # candidate 001 of query 001 is another case than query 001
    assert main(["validate", run, "--task", "1", "--dataset", "coliee/task1/2020/train"]) == 0
    assert "returns itself" not in capsys.readouterr().out
    flat = write("task1.f", "000028 000028 T\n")
    write_task1_flat(coliee_home, 2024)
    assert main(["validate", flat, "--task", "1", "--dataset", "coliee/task1/2024/train"]) == 1
    assert "query '000028' returns itself" in capsys.readouterr().out


def test_a_released_test_query_without_gold_is_warned_about_not_refused(coliee_home, write, capsys):
    """Every door reads the released list (test_no_labels) as the statute sets read the questions handed out."""
    write_task1_flat(coliee_home, 2024)
    (coliee_home / "task1_test_labels_2024.json").write_text('{"000200.txt": ["000300.txt"]}')
    run = write("task1.t", "000200 000300 T\n000201 000301 T\n")
    assert main(["validate", run, "--task", "1", "--year", "2024"]) == 0
    out = capsys.readouterr().out
    assert (
        "query '000201' was released but has no gold: it is not scored" in out and "0 errors" in out
    )
    assert main(["data", "check", "coliee/task1/2024/test"]) == 0
    assert "1 released questions have no gold and are not scored" in capsys.readouterr().out
    assert (
        ir_coliee.score("coliee/task1/2024/test", run).rows[0]["MicroP"] == 1.0
    )  # the gold defines |Q|
