"""The tort pilot: JSONL records, nulls, official scoring through the package's measures, datasets."""

from __future__ import annotations

import io
import json
from fractions import Fraction as F

import ir_datasets
import ir_measures
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.pilot_data import GOLD, SUBMISSION, blank, claim, jsonl, tort, write_pilot_root

import ir_coliee
from ir_coliee import ColieeFormatError
from ir_coliee.cli import main
from ir_coliee.formats.pilot import (
    RATIONALE_EXTRACTION,
    TORT_PREDICTION,
    parse_torts,
    read_torts,
    remaining_nulls,
    write_torts,
)
from ir_coliee.scoring.pilot import (
    claim_qrels,
    claim_run,
    decision_qrels,
    decision_run,
    score_pilot,
)


def torts(objs):
    return parse_torts(
        [(n, json.loads(t)) for n, t in enumerate(jsonl(objs).splitlines(), 1)], "mem"
    )


def approx(fraction):
    return pytest.approx(float(fraction), abs=1e-15)


def test_official_scores_hand_computed():
    row = score_pilot(torts(GOLD), torts(SUBMISSION)).table.iloc[0]
    assert row["AnswerAccuracy"] == approx(F(2, 3))  # T2's decision is wrong
    # per tort F1 of the accepted class: T1 P = R = 1/2 -> 1/2; T2 -> 1; T3 nothing accepted, nothing
    # predicted -> 0 by the stated rule
    assert row["MacroF1"] == approx((F(1, 2) + 1 + 0) / 3)
    assert row["MacroP"] == approx((F(1, 2) + 1 + 0) / 3)
    assert row["MacroR"] == approx((F(1, 2) + 1 + 0) / 3)
    # plaintiff: T1 P = 1/2, R = 1 -> F1 = 2/3; T2 and T3 have no accepted and no predicted -> 0
    assert row["MacroF1[plaintiff]"] == approx((F(2, 3) + 0 + 0) / 3)
    assert row["MacroP[plaintiff]"] == approx(F(1, 2) / 3)
    assert row["MacroR[plaintiff]"] == approx(F(1, 1) / 3)
    # defendant: T3 has no defendant claim and is not part of this average; T1 0, T2 1
    assert row["MacroF1[defendant]"] == approx(F(1, 2))


def test_same_numbers_through_ir_measures_and_pyterrier():
    gold, sub = torts(GOLD), torts(SUBMISSION)
    row = score_pilot(gold, sub).table.iloc[0]
    direct = ir_measures.calc_aggregate([ir_coliee.MacroF1], claim_qrels(gold), claim_run(sub))
    assert direct[ir_coliee.MacroF1] == row["MacroF1"]
    acc = ir_measures.calc_aggregate(
        [ir_coliee.AnswerAccuracy], decision_qrels(gold), decision_run(sub)
    )
    assert acc[ir_coliee.AnswerAccuracy] == row["AnswerAccuracy"]
    pt = pytest.importorskip("pyterrier")
    qrels = pd.DataFrame(claim_qrels(gold)).rename(
        columns={"query_id": "qid", "doc_id": "docno", "relevance": "label"}
    )
    run = pd.DataFrame(claim_run(sub)).rename(columns={"query_id": "qid", "doc_id": "docno"})
    topics = pd.DataFrame({"qid": ["T1", "T2", "T3"], "query": ["a", "b", "c"]})
    table = pt.Experiment([run], topics, qrels, eval_metrics=[ir_coliee.MacroF1, ir_coliee.MacroP])
    assert table.iloc[0]["MacroF1"] == row["MacroF1"]


def f1_true_class(gold_labels, predicted):
    tp = sum(g and p for g, p in zip(gold_labels, predicted))
    pred, rel = sum(predicted), sum(gold_labels)
    p = F(tp, pred) if pred else F(0)
    r = F(tp, rel) if rel else F(0)
    return 2 * p * r / (p + r) if p + r else F(0)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=5),
        min_size=1,
        max_size=6,
    )
)
def test_rationale_f1_against_a_per_tort_oracle(cases):
    gold = [
        tort(f"T{i}", True, [claim(j, g) for j, (g, _) in enumerate(c)], [])
        for i, c in enumerate(cases)
    ]
    sub = [
        tort(f"T{i}", True, [claim(j, p) for j, (_, p) in enumerate(c)], [])
        for i, c in enumerate(cases)
    ]
    expected = sum(f1_true_class([g for g, _ in c], [p for _, p in c]) for c in cases) / len(cases)
    assert score_pilot(torts(gold), torts(sub)).table.iloc[0]["MacroF1"] == approx(expected)


def test_nulls_disqualify_their_subtask_by_tort_and_claim():
    sub = json.loads(json.dumps(SUBMISSION))
    sub[1]["court_decision"] = None
    scores = score_pilot(torts(GOLD), torts(sub))
    assert scores.disqualified() == {TORT_PREDICTION}
    assert pd.isna(scores.table.iloc[0]["AnswerAccuracy"])
    assert scores.table.iloc[0]["MacroF1"] == approx(F(1, 2))  # the other sub-task is still scored
    sub[0]["defendant_claims"][1]["is_accepted"] = None
    scores = score_pilot(torts(GOLD), torts(sub))
    assert scores.disqualified() == {TORT_PREDICTION, RATIONALE_EXTRACTION}
    assert [(n.subtask, n.tort_id, n.side, n.claim_id) for n in scores.nulls] == [
        ("rationale extraction", "T1", "defendant", "d2"),
        ("tort prediction", "T2", "", None),
    ]
    assert pd.isna(scores.table.iloc[0]["MacroF1[plaintiff]"])


def test_missing_torts_and_unknown_claims():
    scores = score_pilot(
        torts(GOLD), torts([*SUBMISSION[:1], tort("T9", True, [claim("x", True)], [])])
    )
    row = scores.table.iloc[0]
    assert row["AnswerAccuracy"] == approx(F(1, 3))  # T2, T3 unanswered count as wrong; T9 ignored
    assert scores.unknown_claims == ["T9/plaintiff/x"]


def test_gold_with_nulls_is_refused():
    with pytest.raises(ir_coliee.ColieeScoringError, match="the gold has"):
        score_pilot(torts(blank(GOLD)), torts(SUBMISSION))


def test_round_trip_keeps_ids_types_and_japanese(tmp_path):
    original = torts([*GOLD, tort(7, None, [claim(1, None)], [])])
    path = write_torts(original, tmp_path / "sub.jsonl")
    assert read_torts(path) == original
    text = open(path, encoding="utf-8").read()
    assert "合成の事実" in text and '"tort_id": 7' in text
    assert len(remaining_nulls(original)) == 2


@pytest.mark.parametrize(
    "line, problem",
    [
        ("{not json", "invalid JSON"),
        ('["a"]', "a JSON list"),
        (
            '{"tort_id": "T", "undisputed_facts": [], "plaintiff_claims": [], "defendant_claims": []}',
            "has no 'court_decision'",
        ),
        (json.dumps(tort("T", "yes", [], [])), "court_decision 'yes'"),
        (json.dumps(tort("T", True, [claim("a", 1)], [])), "is_accepted 1"),
        (
            json.dumps(tort("T", True, [claim("a", True), claim("a", False)], [])),
            "two plaintiff claims with the same id",
        ),
        (
            json.dumps({**tort("T", True, [], []), "plaintiff_claims": "none"}),
            "not a list of objects",
        ),
        (json.dumps(tort(None, True, [], [])), "tort_id is None"),
    ],
)
def test_malformed_records_name_file_and_line(write, line, problem):
    path = write("sub.jsonl", jsonl(GOLD[:1]) + "\n" + line + "\n")
    with pytest.raises(ColieeFormatError) as info:
        read_torts(path)
    assert (info.value.path, info.value.line) == (path, 3)
    assert problem in str(info.value)


def test_duplicate_torts_and_empty_files(write):
    with pytest.raises(ColieeFormatError, match="again"):
        read_torts(write("a.jsonl", jsonl(GOLD[:1] * 2)))
    with pytest.raises(ColieeFormatError, match="holds no tort"):
        read_torts(write("b.jsonl", "\n"))


def test_eval_command(write, capsys):
    gold, sub = write("gold.jsonl", jsonl(GOLD)), write("sub.jsonl", jsonl(SUBMISSION))
    assert main(["eval", gold, sub]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split("\t")[:3] == ["run", "AnswerAccuracy", "MacroF1"]
    assert row.split("\t")[:3] == ["sub.jsonl", "0.6667", "0.5000"]
    nulls = json.loads(json.dumps(SUBMISSION))
    nulls[0]["plaintiff_claims"][0]["is_accepted"] = None
    assert main(["eval", gold, write("bad.jsonl", jsonl(nulls))]) == 0
    out, err = capsys.readouterr()
    assert "rationale extraction disqualified: null at tort 'T1', plaintiff claim 'p1'" in err
    assert out.splitlines()[1].split("\t")[2] == "disqualified"


def test_a_team_folder_of_submissions_as_kept_and_one_on_standard_input(
    tmp_path, capsys, monkeypatch
):
    """Every verb skips what is no submission in a folder (a README, a log), naming it once, and reads a
    submission given on standard input once (before, eval stopped at the README, and read stdin twice)."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text(jsonl(GOLD))
    folder = tmp_path / "team"
    (folder / "notes").mkdir(parents=True)
    (folder / "sub.jsonl").write_text(jsonl(SUBMISSION))
    (folder / "README").write_text("# our runs\n")
    (folder / "notes" / "train.log").write_text("epoch 1\n")
    page = str(tmp_path / "page.html")
    for verb, *more in (("eval",), ("compare", "--resamples", "50"), ("report", "--out", page)):
        code = main([verb, str(gold), str(folder), "--task", "pilot", *more])
        err = capsys.readouterr().err
        assert code == 0, err
        for entry in ("README", "notes/train.log"):
            said = f"{folder / entry}: skipped: not a pilot run (line 1): invalid JSON"
            assert err.count(said) == 1, (verb, err)
    # eval's row: AnswerAccuracy 2/3 and MacroF1 1/2, as the file given alone scores
    assert main(["eval", str(gold), str(folder), "--task", "pilot", "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["runs"]
    assert (row["AnswerAccuracy"], row["MacroF1"]) == (pytest.approx(2 / 3), 0.5)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(jsonl(SUBMISSION).encode())))
    assert main(["eval", str(gold), "-", "--task", "pilot"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split("\t")[:3] == ["-", "0.6667", "0.5000"]


def test_pilot_submissions_keep_apart_however_named_and_a_folder_of_none_is_refused(
    tmp_path, capsys
):
    """Two streams, or two files of one name in two folders, are two runs (before, the last one given
    replaced the first without a word); a folder with no submission says what it skipped."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text(jsonl(GOLD))
    streams = [io.StringIO(jsonl(SUBMISSION)), io.StringIO(jsonl(GOLD))]
    table = ir_coliee.score(str(gold), streams, task="pilot").table
    # the submission: 2 of 3 decisions right; the gold itself: 3 of 3
    assert len(set(table["run"])) == 2 and list(table["AnswerAccuracy"]) == [approx(F(2, 3)), 1.0]
    for team, torts in (("a", SUBMISSION), ("b", GOLD)):
        (tmp_path / "season" / team).mkdir(parents=True)
        (tmp_path / "season" / team / "sub.jsonl").write_text(jsonl(torts))
    compared = ir_coliee.compare_runs(str(gold), [str(tmp_path / "season")], task="pilot")
    assert len(compared.rows.runs) == 2
    (tmp_path / "none").mkdir()
    (tmp_path / "none" / "README").write_text("# nothing yet\n")
    assert main(["eval", str(gold), str(tmp_path / "none"), "--task", "pilot"]) == 2
    said = "no run could be scored (1 skipped): "
    assert (
        said + f"{tmp_path / 'none' / 'README'}: skipped: not a pilot run"
        in capsys.readouterr().err
    )


def test_a_disqualified_run_among_others_is_ranked_last_without_a_rank(write, capsys):
    """Before, ranking several runs failed on the disqualified one's missing AnswerAccuracy."""
    nulls = json.loads(json.dumps(SUBMISSION))
    nulls[0]["court_decision"] = None
    gold, sub = write("gold.jsonl", jsonl(GOLD)), write("sub.jsonl", jsonl(SUBMISSION))
    assert main(["eval", gold, sub, write("null.jsonl", jsonl(nulls)), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    ranked = [(r["rank"], r["run"], r["AnswerAccuracy"]) for r in json.loads(out)["runs"]]
    assert ranked == [(1, "sub.jsonl", approx(F(2, 3))), (None, "null.jsonl", None)]
    assert "null.jsonl: tort prediction disqualified: null at tort 'T1'" in err


def test_the_pilot_against_other_gold_is_refused_once_by_every_verb(write, capsys):
    gold, sub = write("gold.qrels", "q1 0 d1 1\n"), write("sub.jsonl", jsonl(SUBMISSION))
    for verb, *more in (
        ("eval",),
        ("compare", "--resamples", "50"),
        ("analyse", "--by", "relevant"),
    ):
        assert main([verb, gold, sub, "--task", "pilot", *more]) == 1
        said = f"the pilot is scored against gold torts (a JSONL file or a coliee/pilot/... dataset), not {gold}"
        assert capsys.readouterr().err.count(said) == 1


@pytest.fixture
def root(coliee_home):
    write_pilot_root(coliee_home)
    return coliee_home


def test_pilot_datasets(root):
    ds = ir_datasets.load("coliee/pilot/2025/test")
    queries = list(ds.queries_iter())
    assert next((q.query_id, q.text) for q in queries) == ("T1", "合成の事実 T1-1\n合成の事実 2")
    docs = list(ds.docs_iter())
    assert [d.doc_id for d in docs][:4] == [
        "T1/plaintiff/p1",
        "T1/plaintiff/p2",
        "T1/defendant/d1",
        "T1/defendant/d2",
    ]
    assert (docs[2].tort_id, docs[2].side, docs[2].claim_id) == ("T1", "defendant", "d1")
    assert all(t.court_decision is None for t in ds.torts_iter())  # the inputs: nulls
    qrels = [(q.query_id, q.doc_id, q.relevance) for q in ds.qrels_iter()]
    assert qrels[:2] == [
        ("T1", "T1/plaintiff/p1", 1),
        ("T1", "T1/plaintiff/p2", 0),
    ]  # gold from the 2026 copy
    decisions = ir_datasets.load("coliee/pilot/2025/test/decisions")
    assert [(q.query_id, q.doc_id) for q in decisions.qrels_iter()] == [
        ("T1", "True"),
        ("T2", "False"),
        ("T3", "True"),
    ]
    train = ir_datasets.load("coliee/pilot/2025/train")
    assert len(list(train.qrels_iter())) == 8
    with pytest.raises(ir_coliee.errors.ColieeDataError, match="pilot test torts"):
        list(ir_datasets.load("coliee/pilot/2026/test").queries_iter())


def test_a_pilot_docstore_reads_the_claims_once_for_many_lookups(root, monkeypatch):
    """The claims have no index of their own: one store reads the file once, however many lookups it serves."""
    from ir_coliee.data import pilot_files

    read = []
    original = pilot_files.PilotFiles.input_torts
    monkeypatch.setattr(
        pilot_files.PilotFiles, "input_torts", lambda self: read.append(1) or original(self)
    )
    store = ir_datasets.load("coliee/pilot/2025/test").docs_store()
    got = [
        store.get(doc_id).claim_id
        for doc_id in ("T1/plaintiff/p1", "T1/defendant/d2", "T1/plaintiff/p2")
    ]
    assert got == ["p1", "d2", "p2"] and len(read) == 1


def test_eval_with_a_pilot_dataset_as_gold(root, write, capsys):
    assert main(["eval", "coliee/pilot/2025/test", write("sub.jsonl", jsonl(SUBMISSION))]) == 0
    assert capsys.readouterr().out.splitlines()[1].split("\t")[:3] == [
        "sub.jsonl",
        "0.6667",
        "0.5000",
    ]


def test_claim_pooled_f1_beside_the_official_per_tort_f1():
    row = score_pilot(torts(GOLD), torts(SUBMISSION)).table.iloc[0]
    # accepted: T1 p1, T1 d1, T2 d1; predicted True: T1 p1, T1 p2, T2 d1; pooled tp 2: P = R = 2/3, F1 = 2/3
    assert row["MicroF1"] == approx(F(2, 3))
    # plaintiff: tp 1, predicted 2, accepted 1 -> P 1/2, R 1 -> 2/3; defendant: tp 1, predicted 1, accepted 2 -> 2/3
    assert row["MicroF1[plaintiff]"] == approx(F(2, 3)) and row["MicroF1[defendant]"] == approx(
        F(2, 3)
    )
    assert list(row.index)[-3:] == ["MicroF1", "MicroF1[plaintiff]", "MicroF1[defendant]"]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=5),
        min_size=1,
        max_size=6,
    )
)
def test_pooled_f1_is_the_f1_of_all_claims_together(cases):
    gold = [
        tort(f"T{i}", True, [claim(f"c{j}", g) for j, (g, _) in enumerate(cs)], [])
        for i, cs in enumerate(cases)
    ]
    sub = [
        tort(f"T{i}", True, [claim(f"c{j}", p) for j, (_, p) in enumerate(cs)], [])
        for i, cs in enumerate(cases)
    ]
    flat = [pair for cs in cases for pair in cs]
    expected = f1_true_class([g for g, _ in flat], [p for _, p in flat])
    assert score_pilot(torts(gold), torts(sub)).table.iloc[0]["MicroF1"] == approx(expected)


def test_the_organisers_2026_file_names_are_found(coliee_home):
    dataset = coliee_home / "LJPJT-dev-template" / "dataset"
    dataset.mkdir(parents=True)
    (dataset / "LJPJT26-test001.jsonl").write_text(jsonl(blank(GOLD)), encoding="utf-8")
    (dataset / "LJPJT26-train.jsonl").write_text(jsonl(GOLD), encoding="utf-8")
    ir_coliee.data.locator.refresh()
    assert [q.query_id for q in ir_datasets.load("coliee/pilot/2026/test").queries_iter()] == [
        "T1",
        "T2",
        "T3",
    ]
    assert len(list(ir_datasets.load("coliee/pilot/2026/train/decisions").qrels_iter())) == 3
    with pytest.raises(ir_coliee.errors.ColieeDataError, match=r"LJPJT25-test001\.jsonl"):
        list(
            ir_datasets.load("coliee/pilot/2025/test").queries_iter()
        )  # LJPJT26 is the 2026 edition
