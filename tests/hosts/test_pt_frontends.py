"""PyTerrier on frontends (this folder is collected only where PyTerrier is installed)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import ir_measures
import pandas as pd
import pyterrier as pt
import pytest
from ir_measures import AP
from support.cases import GOLD, MICRO_P, RUN
from support.frontends import OURS, assert_expected

from ir_coliee import AnswerAccuracy, MacroF2, MicroF1, MicroP


def topics():
    return pd.DataFrame({"qid": list(GOLD), "query": ["first", "second", "third"]})


def qrels_frame():
    return pd.DataFrame(
        [(q, d, r) for q, docs in GOLD.items() for d, r in docs.items()],
        columns=["qid", "docno", "label"],
    )


def results_frame(run=RUN):
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    frame = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    frame["rank"] = (
        frame.groupby("qid")["score"].rank(ascending=False, method="first").astype(int) - 1
    )
    return frame


WORSE_RUN = {"q1": {"x": 3.0}, "q2": {"c": 1.0}, "q3": {"d": 1.0, "e": 0.5, "f": 0.2}}


def test_pt_evaluate():
    result = pt.Evaluate(results_frame(), qrels_frame(), metrics=OURS)
    assert_expected({m: result[str(m)] for m in OURS})
    per_query = pt.Evaluate(results_frame(), qrels_frame(), metrics=[MicroP], perquery=True)
    assert per_query["q2"]["MicroP"] == pytest.approx(1 / 3)


def test_pt_experiment_table_shows_true_micro_values():
    table = pt.Experiment(
        [results_frame()], topics(), qrels_frame(), eval_metrics=OURS, names=["run"]
    )
    row = table.iloc[0]
    assert_expected({m: row[str(m)] for m in OURS})
    # what PyTerrier would print if it averaged plain per-query F1 values: 1/3, not 4/9
    assert row["MicroF1"] != pytest.approx(1 / 3)


def test_pt_experiment_with_parsed_measure_names():
    # PyTerrier reads plain strings as trec_eval names; our names go through ir_measures.parse_measure
    metrics = [ir_measures.parse_measure(name) for name in ("MicroF1", "MacroF2")] + ["map"]
    table = pt.Experiment([results_frame()], topics(), qrels_frame(), eval_metrics=metrics)
    assert table.iloc[0]["MicroF1"] == ir_measures.calc_aggregate([MicroF1], GOLD, RUN)[MicroF1]
    assert table.iloc[0]["MacroF2"] == ir_measures.calc_aggregate([MacroF2], GOLD, RUN)[MacroF2]


def test_pt_experiment_perquery_shows_per_query_values():
    table = pt.Experiment(
        [results_frame()], topics(), qrels_frame(), eval_metrics=[MicroP], perquery=True
    )
    values = dict(zip(table["qid"], table["value"]))
    assert values == {"q1": 0.5, "q2": pytest.approx(1 / 3), "q3": 0.0}


# PyTerrier's batch mode refuses a batch without results, so here every topic gets some
FULL_RUN = {**RUN, "q3": {"e": 1.0, "d": 0.5}}


def test_pt_experiment_with_batches_and_baseline():
    runs = [FULL_RUN, WORSE_RUN]
    systems = [pt.Transformer.from_df(results_frame(run)) for run in runs]
    expected = [ir_measures.calc_aggregate(OURS, GOLD, run) for run in runs]
    # micro P of FULL_RUN: tp 1 + 1 + 1 over retrieved 2 + 3 + 2
    assert expected[0][MicroP] == pytest.approx(float(F(3, 7)), abs=1e-15)
    for kwargs in (
        {"batch_size": 1},
        {"batch_size": 2},
        {"baseline": 0},
        {"batch_size": 1, "baseline": 0},
    ):
        table = pt.Experiment(
            systems, topics(), qrels_frame(), eval_metrics=OURS, names=["a", "b"], **kwargs
        )
        for row, exp in enumerate(expected):
            for m in OURS:
                assert table.iloc[row][str(m)] == exp[m], (kwargs, row, m)
        if "baseline" in kwargs:
            assert "MicroF1 p-value" in table.columns


def test_pt_experiment_topics_without_gold_make_nan_like_other_measures():
    extra_topics = pd.concat([topics(), pd.DataFrame({"qid": ["q9"], "query": ["extra"]})])
    table = pt.Experiment(
        [pt.Transformer.from_df(results_frame())],
        extra_topics,
        qrels_frame(),
        eval_metrics=[MicroP, AP],
    )
    assert table.iloc[0]["MicroP"] == pytest.approx(MICRO_P, abs=1e-15)


def test_pt_answer_accuracy():
    gold = pd.DataFrame({"qid": ["a", "b", "c"], "docno": ["Y", "N", "Y"], "label": [1, 1, 1]})
    answers = pd.DataFrame(
        {"qid": ["a", "b", "c"], "docno": ["Y", "Y", "Y"], "score": [1.0, 1.0, 1.0]}
    )
    table = pt.Experiment(
        [answers], gold[["qid"]].assign(query="q"), gold, eval_metrics=[AnswerAccuracy]
    )
    assert table.iloc[0]["AnswerAccuracy"] == pytest.approx(2 / 3, abs=1e-15)
    assert not math.isnan(table.iloc[0]["AnswerAccuracy"])


def test_an_official_file_reads_back_as_a_pyterrier_frame(tmp_path):
    import ir_coliee

    path = ir_coliee.write_run(RUN, str(tmp_path / "task3-L.t"), "trec", "t")
    frame = ir_coliee.read_run(path, columns="pyterrier")
    assert list(frame.columns) == ["qid", "docno", "score", "rank"]
    assert frame.equals(
        pt.model.add_ranks(frame[["qid", "docno", "score"]].copy())
    )  # PyTerrier's own ranks
    # an Experiment over the file as read scores as the official file does
    table = pt.Experiment(
        [pt.Transformer.from_df(frame)], topics(), qrels_frame(), [MicroP], names=["t"]
    )
    assert table["MicroP"].tolist() == [float(MICRO_P)]
    assert ir_coliee.score(qrels_frame(), path, measures=[MicroP]).table["MicroP"].tolist() == [
        float(MICRO_P)
    ]
    with pytest.raises(ir_coliee.ColieeArgumentError, match="unknown columns 'pt'"):
        ir_coliee.read_run(path, columns="pt")  # type: ignore[arg-type]
