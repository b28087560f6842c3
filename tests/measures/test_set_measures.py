"""The official formulas on hand-computed cases, written as fractions, and the edge-case matrix."""

from __future__ import annotations

from fractions import Fraction as F

import ir_measures
import pytest
from ir_measures import Qrel, ScoredDoc
from support.cases import GOLD, RUN

import ir_coliee
from ir_coliee import AnswerAccuracy, MacroF2, MacroP, MacroR, MicroF1, MicroP, MicroR


def approx(fraction: F):
    return pytest.approx(float(fraction), abs=1e-15)


def score(measures, gold, run):
    return ir_measures.calc_aggregate(measures, gold, run)


def test_micro_on_hand_computed_case():
    # tp = 1 + 1 + 0, retrieved = 2 + 3 + 0, relevant = 2 + 1 + 1; q9 (not in gold) ignored
    r = score([MicroP, MicroR, MicroF1], GOLD, RUN)
    assert r[MicroP] == approx(F(2, 5))
    assert r[MicroR] == approx(F(2, 4))
    assert r[MicroF1] == approx(F(4, 9))  # 2·(2/5)·(1/2) / (2/5 + 1/2)


def test_macro_on_hand_computed_case():
    r = score([MacroP, MacroR, MacroF2], GOLD, RUN)
    assert r[MacroP] == approx((F(1, 2) + F(1, 3) + 0) / 3)
    assert r[MacroR] == approx((F(1, 2) + 1 + 0) / 3)
    assert r[MacroF2] == approx((F(1, 2) + F(5, 7) + 0) / 3)  # = 17/42


def test_macro_f2_is_mean_of_per_query_f2_not_f2_of_means():
    r = score([MacroP, MacroR, MacroF2], GOLD, RUN)
    p, rec = F(5, 18), F(1, 2)
    f2_of_means = 5 * p * rec / (4 * p + rec)  # = 25/58
    assert r[MacroF2] == approx(F(17, 42))
    assert abs(r[MacroF2] - float(f2_of_means)) > 0.02


def test_micro_differs_from_mean_of_per_query_values():
    per_query = [m.value for m in ir_measures.iter_calc([MicroF1], GOLD, RUN)]
    # per-query F1: q1 = 1/2, q2 = 2·(1/3)·1/(4/3) = 1/2, q3 = 0 -> mean 1/3, micro 4/9
    assert sorted(float(v) for v in per_query) == [0.0, 0.5, 0.5]
    assert score([MicroF1], GOLD, RUN)[MicroF1] == approx(F(4, 9))


def test_per_query_values_expose_counts():
    values = {m.query_id: m.value for m in ir_measures.iter_calc([MicroF1], GOLD, RUN)}
    assert set(values) == {"q1", "q2", "q3"}  # exactly the gold queries
    assert (values["q1"].tp, values["q1"].retrieved, values["q1"].relevant) == (1, 2, 2)
    assert (values["q2"].tp, values["q2"].retrieved, values["q2"].relevant) == (1, 3, 1)
    assert (values["q3"].tp, values["q3"].retrieved, values["q3"].relevant) == (0, 0, 1)


# --- the edge-case matrix -------------------------------------------------------------------------


def test_gold_query_missing_from_run_counts_its_relevant():
    gold = {"q1": {"a": 1}, "q2": {"b": 1, "c": 1}}
    run = {"q1": {"a": 1.0}}
    r = score([MicroP, MicroR, MacroP, MacroR, MacroF2], gold, run)
    assert r[MicroP] == approx(F(1, 1))
    assert r[MicroR] == approx(F(1, 3))
    assert r[MacroP] == approx((1 + F(0)) / 2)
    assert r[MacroR] == approx((1 + F(0)) / 2)
    assert r[MacroF2] == approx((1 + F(0)) / 2)


def test_run_query_absent_from_gold_is_ignored():
    gold = {"q1": {"a": 1}}
    with_extra = score(
        [MicroP, MacroP], gold, {"q1": {"a": 1.0, "b": 0.5}, "zz": {"x": 1.0, "y": 1.0}}
    )
    without = score([MicroP, MacroP], gold, {"q1": {"a": 1.0, "b": 0.5}})
    assert with_extra == without
    assert with_extra[MicroP] == approx(F(1, 2))


@pytest.mark.parametrize("empty_run", [{}, [], "frame"])
def test_empty_run_scores_zero_everywhere(empty_run):
    import pandas as pd

    if empty_run == "frame":
        empty_run = pd.DataFrame({"query_id": [], "doc_id": [], "score": []})
    r = score([MicroP, MicroR, MicroF1, MacroP, MacroR, MacroF2], GOLD, empty_run)
    assert all(v == 0.0 for v in r.values()), r


@pytest.mark.filterwarnings("ignore:the run shares no query:ir_coliee.ColieeWarning")
def test_nothing_retrieved_gives_precision_zero_not_nan():
    values = list(ir_measures.iter_calc([MacroP, MicroP], {"q": {"a": 1}}, {"other": {"a": 1.0}}))
    assert [float(m.value) for m in values] == [0.0, 0.0]
    assert score([MicroP, MicroF1], {"q": {"a": 1}}, {}) == {MicroP: 0.0, MicroF1: 0.0}


def test_duplicate_pairs_count_once():
    gold = [Qrel("q", "a", 1), Qrel("q", "b", 1)]
    run = [
        ScoredDoc("q", "a", 2.0),
        ScoredDoc("q", "a", 2.0),
        ScoredDoc("q", "x", 1.0),
        ScoredDoc("q", "a", 0.5),
    ]
    r = score([MicroP, MicroR], gold, run)
    assert r[MicroP] == approx(F(1, 2))  # {a, x}, not [a, a, x, a]
    assert r[MicroR] == approx(F(1, 2))


def test_duplicate_keeps_best_score_for_the_cutoff():
    gold = {"q": {"a": 1}}
    run = [ScoredDoc("q", "a", 0.1), ScoredDoc("q", "x", 0.5), ScoredDoc("q", "a", 0.9)]
    assert score([MicroP @ 1], gold, run)[MicroP @ 1] == 1.0


def test_ties_at_the_cutoff_broken_as_trec_eval_by_doc_id_descending():
    gold = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0}}
    r = score([MicroP @ 1, ir_measures.P @ 1], gold, run)
    assert r[MicroP @ 1] == 0.0 == r[ir_measures.P @ 1]  # b ranks above a
    gold = {"q": {"b": 1}}
    r = score([MicroP @ 1, ir_measures.P @ 1], gold, run)
    assert r[MicroP @ 1] == 1.0 == r[ir_measures.P @ 1]


def test_cutoff_keeps_the_k_best_scored():
    gold = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}}
    run = {"q1": {"x": 5.0, "a": 4.0, "b": 1.0}, "q2": {"c": 0.5, "y": 0.9}}
    r = score([MicroP @ 2, MicroR @ 2, MicroF1 @ 1], gold, run)
    # @2: q1 {x, a} -> 1 hit, q2 {y, c} -> 1 hit; 2/4 and 2/3
    assert r[MicroP @ 2] == approx(F(2, 4))
    assert r[MicroR @ 2] == approx(F(2, 3))
    # @1: q1 {x}, q2 {y}: no hit
    assert r[MicroF1 @ 1] == 0.0


def test_rel_threshold_on_graded_gold():
    gold = {"q": {"a": 2, "b": 1, "c": 0}}
    run = {"q": {"a": 1.0, "b": 0.9, "c": 0.8}}
    r = score([MicroP, MicroP(rel=2), MacroR(rel=2)], gold, run)
    assert r[MicroP] == approx(F(2, 3))
    assert r[MicroP(rel=2)] == approx(F(1, 3))
    assert r[MacroR(rel=2)] == approx(F(1, 1))


def test_gold_query_with_no_relevant_document_is_still_a_gold_query():
    gold = {"q1": {"a": 1}, "q2": {"b": 0}}
    run = {"q1": {"a": 1.0}, "q2": {"b": 1.0}}
    r = score([MicroP, MicroR, MacroR], gold, run)
    assert r[MicroP] == approx(F(1, 2))
    assert r[MicroR] == approx(F(1, 1))
    assert r[MacroR] == approx((1 + F(0)) / 2)  # recall of a query with nothing relevant is 0


def test_f_beta_formula_for_other_betas():
    gold = {"q": {"a": 1, "b": 1, "c": 1, "d": 1}}
    run = {"q": {"a": 1.0, "x": 1.0}}  # P = 1/2, R = 1/4
    p, rec = F(1, 2), F(1, 4)
    for beta in (F(1, 2), F(1), F(2), F(3)):
        expected = (1 + beta**2) * p * rec / (beta**2 * p + rec)
        m = ir_coliee.MacroF(beta=float(beta))
        assert score([m], gold, run)[m] == approx(expected)
        m = ir_coliee.MicroF(beta=float(beta))
        assert score([m], gold, run)[m] == approx(expected)


# --- answer accuracy ------------------------------------------------------------------------------


def test_answer_accuracy():
    gold = [
        Qrel("H30-1-A", "Y", 1),
        Qrel("H30-1-I", "N", 1),
        Qrel("H30-2-U", "Y", 1),
        Qrel("H30-3-E", "N", 1),
    ]
    run = [
        ScoredDoc("H30-1-A", "Y", 1.0),  # right
        ScoredDoc("H30-1-I", "Y", 1.0),  # wrong
        ScoredDoc("H30-2-U", "Y", 1.0),  # right
        ScoredDoc("H30-2-U", "Y", 0.5),  # the same answer again: fine
        ScoredDoc("R01-9-O", "N", 1.0),  # not in the gold: ignored
    ]  # H30-3-E unanswered: wrong
    assert score([AnswerAccuracy], gold, run)[AnswerAccuracy] == approx(F(2, 4))


def test_two_different_answers_are_an_error_not_a_pick():
    gold = [Qrel("q", "Y", 1)]
    run = [ScoredDoc("q", "Y", 1.0), ScoredDoc("q", "N", 0.5)]
    with pytest.raises(ir_coliee.ColieeScoringError, match="'q' has 2 different answers"):
        score([AnswerAccuracy], gold, run)
    assert score([AnswerAccuracy @ 1], gold, run)[AnswerAccuracy @ 1] == 1.0


def test_gold_question_needs_exactly_one_answer():
    with pytest.raises(ir_coliee.ColieeScoringError, match="gold question 'q' has 2 answers"):
        score([AnswerAccuracy], {"q": {"Y": 1, "N": 1}}, {"q": {"Y": 1.0}})


# --- names ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, measure",
    [
        ("MicroP", MicroP),
        ("MicroR@10", MicroR @ 10),
        ("MicroF1@5", MicroF1 @ 5),
        ("MicroF", MicroF1),
        ("MicroF(beta=1)", MicroF1),
        ("MacroF(beta=2)", MacroF2),
        ("MacroF(beta=2.0)", MacroF2),
        ("MacroF2", MacroF2),
        ("MacroF2@3", MacroF2 @ 3),
        ("MacroF(beta=0.5)", ir_coliee.MacroF(beta=0.5)),
        ("MacroP(rel=2)", MacroP(rel=2)),
        ("AnswerAccuracy", AnswerAccuracy),
    ],
)
def test_names_parse_and_round_trip(text, measure):
    parsed = ir_measures.parse_measure(text)
    assert parsed == measure
    assert ir_measures.parse_measure(repr(parsed)) == parsed


def test_names_print_as_the_official_short_names():
    assert [
        str(m) for m in (MicroF1, MacroF2, MicroF1 @ 5, ir_coliee.MacroF(beta=2, rel=2) @ 3)
    ] == [
        "MicroF1",
        "MacroF2",
        "MicroF1@5",
        "MacroF2(rel=2)@3",
    ]
    assert str(ir_coliee.MicroF(beta=0.5)) == "MicroF(beta=0.5)"


@pytest.mark.parametrize(
    "bad",
    [
        "MicroP@0",
        "MicroP@-1",
        "MacroF(beta=0)",
        "MacroF(beta=1e200)",
        "MacroF(beta='x')",
        "MicroP(beta=2)",
    ],
)
def test_invalid_parameters_are_rejected(bad):
    with pytest.raises((ValueError, AssertionError)):
        ir_measures.calc_aggregate([ir_measures.parse_measure(bad)], GOLD, RUN)
