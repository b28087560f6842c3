"""2026 Task 3: recall-gated accuracy with macro F2 as tie-breaker, hand-computed."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from support.cases import without_path

from ir_coliee import score_recall_gated
from ir_coliee.cli import main

ARTICLES_GOLD = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"d": 1}}
ANSWERS_GOLD = {"q1": {"Y": 1}, "q2": {"N": 1}, "q3": {"Y": 1}}
ARTICLES_RUN = {"q1": {"a": 3.0, "b": 2.0, "x": 1.0}, "q2": {"y": 1.0}, "q3": {"d": 1.0}}
ANSWERS_RUN = {"q1": {"Y": 1.0}, "q2": {"N": 1.0}, "q3": {"N": 1.0}}


def test_recall_gated_accuracy_and_tie_breakers():
    row = score_recall_gated(ARTICLES_GOLD, ARTICLES_RUN, ANSWERS_GOLD, ANSWERS_RUN).iloc[0]
    # q1: right answer, recall 1 -> correct; q2: right answer, recall 0 -> wrong; q3: wrong answer
    assert row["RecallGatedAccuracy"] == pytest.approx(float(F(1, 3)), abs=1e-15)
    # F2: q1 P = 2/3, R = 1 -> (10/3)/(11/3) = 10/11; q2 0; q3 1
    assert row["MacroF2"] == pytest.approx(float((F(10, 11) + 0 + 1) / 3), abs=1e-15)
    assert row["MacroR"] == pytest.approx(float(F(2, 3)), abs=1e-15)


def test_per_question_values_and_unanswered_questions():
    frame = score_recall_gated(
        ARTICLES_GOLD, ARTICLES_RUN, ANSWERS_GOLD, {"q1": {"Y": 1.0}}, per_query=True
    )
    rows = {r.query_id: (r.value, r.tp, r.retrieved, r.relevant) for r in frame.itertuples()}
    assert rows == {"q1": (1.0, 1, 3, 2), "q2": (0.0, 0, 1, 1), "q3": (0.0, 0, 1, 1)}


def test_per_question_values_score_no_tie_breakers(monkeypatch):
    """The per-question values (what compare's tests read) need no macro F2: it is not computed for them."""
    from ir_coliee.scoring import gated

    monkeypatch.setattr(
        gated.pipeline, "calc_aggregate", lambda *a: pytest.fail("tie breakers scored")
    )
    frame = score_recall_gated(
        ARTICLES_GOLD, ARTICLES_RUN, ANSWERS_GOLD, ANSWERS_RUN, per_query=True
    )
    assert frame["value"].tolist() == [1.0, 0.0, 0.0]


def test_iterators_are_read_once_safely():
    from ir_measures import Qrel, ScoredDoc

    gold = iter([Qrel(q, d, r) for q, docs in ARTICLES_GOLD.items() for d, r in docs.items()])
    run = iter([ScoredDoc(q, d, s) for q, docs in ARTICLES_RUN.items() for d, s in docs.items()])
    row = score_recall_gated(gold, run, ANSWERS_GOLD, ANSWERS_RUN).iloc[0]
    assert row["MacroF2"] == pytest.approx(float(F(7, 11)), abs=1e-15)


def test_eval_command_with_answers(write, capsys):
    gold = write("gold.qrels", "q1 0 a 1\nq1 0 b 1\nq2 0 c 1\nq3 0 d 1\n")
    run = write("task3.t", "q1 a t\nq1 b t\nq1 x t\nq2 y t\nq3 d t\n")
    answers = write("R07.task4.t", "q1 Y t\nq2 N t\nq3 N t\n")
    answers_gold = write("answers.gold", "q1 Y g\nq2 N g\nq3 Y g\n")
    assert (
        main(
            [
                "eval",
                gold,
                run,
                "--answers",
                answers,
                "--answers-gold",
                answers_gold,
                "--digits",
                "6",
            ]
        )
        == 0
    )
    assert without_path(capsys.readouterr().out) == [
        "run\tRecallGatedAccuracy\tMacroF2\tMacroP\tMacroR",
        "t\t0.333333\t0.636364\t0.555556\t0.666667",  # 1/3, 7/11, (2/3 + 0 + 1)/3, 2/3
    ]
    assert main(["eval", gold, run, "--answers", answers]) == 2
    assert "--answers-gold" in capsys.readouterr().err


def test_eval_with_one_answer_file_and_two_runs_says_it_goes_with_one_run(write, capsys):
    """eval's --answers takes one file: two runs are told to be scored apart, not to give more files."""
    gold = write("gold.qrels", "q1 0 a 1\nq2 0 c 1\n")
    runs = [write("task3.t", "q1 a t\nq2 c t\n"), write("task3.u", "q1 a u\nq2 x u\n")]
    answers = write("R07.task4.t", "q1 Y t\nq2 N t\n")
    answers_gold = write("answers.gold", "q1 Y g\nq2 N g\n")
    assert main(["eval", gold, *runs, "--answers", answers, "--answers-gold", answers_gold]) == 2
    assert "--answers goes with one run; score each run with its answer file" in (
        capsys.readouterr().err
    )
