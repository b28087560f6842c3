"""The same numbers, to the last digit, from every way ir_measures and PyTerrier can be asked."""

from __future__ import annotations

from fractions import Fraction as F

import ir_measures
import pytest
from ir_measures import AP, R, Rprec
from support.cases import GOLD, MICRO_F1, RUN
from support.frontends import KINDS, OURS, assert_expected, gold_as, run_as

import ir_coliee
from ir_coliee import MacroF2, MicroF1, MicroP, MicroR


@pytest.mark.parametrize("gold_kind", KINDS)
@pytest.mark.parametrize("run_kind", KINDS)
def test_calc_aggregate_for_every_input_shape(gold_kind, run_kind):
    assert_expected(ir_measures.calc_aggregate(OURS, gold_as(gold_kind), run_as(run_kind)))


def test_calc_and_iter_calc_with_aggregator():
    aggregated, per_query = ir_measures.calc(OURS, GOLD, RUN)
    assert_expected(aggregated)
    assert len(per_query) == len(OURS) * len(GOLD)
    aggs = {m: m.aggregator() for m in OURS}
    for metric in ir_measures.iter_calc(OURS, GOLD, RUN):
        aggs[metric.measure].add(metric.value)
    assert_expected({m: a.result() for m, a in aggs.items()})


def test_single_measure_methods():
    assert MicroF1.calc_aggregate(GOLD, RUN) == pytest.approx(MICRO_F1, abs=1e-15)
    assert (
        MacroF2.calc(GOLD, RUN).aggregated
        == ir_measures.calc_aggregate([MacroF2], GOLD, RUN)[MacroF2]
    )


def test_evaluator_reused_over_several_runs():
    evaluator = ir_measures.evaluator(OURS, GOLD)
    assert_expected(evaluator.calc_aggregate(RUN))
    other = evaluator.calc_aggregate({"q1": {"a": 1.0, "b": 1.0}, "q3": {"d": 1.0}})
    assert other[MicroR] == pytest.approx(float(F(3, 4)), abs=1e-15)
    assert other[MicroP] == 1.0
    assert_expected(evaluator.calc_aggregate(run_as("frame")))


def test_mixed_with_pytrec_eval_measures():
    mixed = [*OURS, AP, Rprec, R @ 5, ir_measures.SetF(beta=4.0)]
    result = ir_measures.calc_aggregate(mixed, gold_as("namedtuples"), run_as("namedtuples"))
    assert_expected(result)
    alone = ir_measures.calc_aggregate([AP, Rprec, R @ 5], GOLD, RUN)
    for m in (AP, Rprec, R @ 5):
        assert result[m] == alone[m]
    assert result[ir_measures.SetF(beta=4.0)] == pytest.approx(result[MacroF2], abs=1e-12)


def test_own_pipeline_gives_the_same_numbers():
    assert_expected(ir_coliee.calc_aggregate([*OURS, AP], GOLD, RUN))
    assert ir_coliee.calc_aggregate([AP], GOLD, RUN) == ir_measures.calc_aggregate([AP], GOLD, RUN)


def test_evaluate_returns_a_dataframe():
    frame = ir_coliee.evaluate(GOLD, RUN, ["MicroF1", "MacroF2", "AP"])
    assert list(frame.columns) == ["MicroF1", "MacroF2", "AP"]
    assert frame.loc[0, "MicroF1"] == pytest.approx(MICRO_F1, abs=1e-15)
    per_query = ir_coliee.evaluate(GOLD, RUN, task=1, per_query=True)
    row = per_query[(per_query.query_id == "q2") & (per_query.measure == "MicroP")].iloc[0]
    assert (row.value, row.tp, row.retrieved, row.relevant) == (pytest.approx(1 / 3), 1, 3, 1)
    # Task 3's default: the official measures and the ranked ones "for discussion", for every shape of run
    ranked = ["AP", "Rprec", "R@5", "R@10", "R@30"]
    assert ir_coliee.evaluate(GOLD, RUN, task=3).columns.tolist() == [
        "MacroF2",
        "MacroP",
        "MacroR",
        *ranked,
    ]
