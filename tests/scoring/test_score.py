"""``ir_coliee.score`` and the behaviour that follows from one model of tasks and submissions: the task
decides the format, mismatches are refused, warnings are data, and every front end agrees."""

from __future__ import annotations

import math
from fractions import Fraction as F

import ir_measures
import pandas as pd
import pytest
from support.cases import GOLD, MACRO_F2, MICRO_F1, MICRO_P, MICRO_R, RUN, default_columns
from support.statute_data import R05_LABELLED, pair, riteval, write_statute_root

import ir_coliee
from ir_coliee import ColieeError, ColieeFormatError, ColieeScoringError, score
from ir_coliee.cli import main


def run_file(write, name: str, run: dict) -> str:
    """A pairs file of ``run``, best score first."""
    lines = [
        f"{q} {d} t\n"
        for q, docs in run.items()
        for d, _ in sorted(docs.items(), key=lambda i: -i[1])
    ]
    return write(name, "".join(lines))


def qrels_file(write, name: str, gold: dict) -> str:
    return write(
        name, "".join(f"{q} 0 {d} {r}\n" for q, docs in gold.items() for d, r in docs.items())
    )


def rules(report) -> list[str]:
    return [f.rule for f in report.findings]


# --- the report --------------------------------------------------------------------------------------


def test_report_of_one_file_run(write):
    report = score(
        qrels_file(write, "gold.qrels", GOLD), run_file(write, "task1.t", RUN), task=1, year=2024
    )
    (row,) = report.table.to_dict("records")
    # tp = 1 + 1 + 0 = 2, retrieved = 2 + 3 + 0 = 5 (q9 is not in the gold), relevant = 2 + 1 + 1 = 4
    assert (row["run"], row["tp"], row["retrieved"], row["relevant"], row["queries"]) == (
        "t",
        2,
        5,
        4,
        3,
    )
    assert (row["MicroP"], row["MicroR"], row["MicroF1"]) == (
        MICRO_P,
        MICRO_R,
        MICRO_F1,
    )  # 2/5, 2/4, 4/9
    assert report.measures == default_columns("1", 2024)
    assert (report.task, report.year) == ("1", 2024)
    q1 = report.per_query[
        (report.per_query.query_id == "q1") & (report.per_query.measure == "MicroP")
    ].iloc[0]
    assert (q1.run, q1.value, q1.tp, q1.retrieved, q1.relevant) == ("t", 0.5, 1, 2, 2)


def test_findings_are_data(write):
    run = write("task1.t", "q1 a t\nq1 a t\nq2 c u\nq9 a t\n")
    report = score(qrels_file(write, "gold.qrels", GOLD), run, task=1)
    by_rule = {f.rule: f.message for f in report.findings}
    assert by_rule["unknown-query"] == "1 run queries are not in the gold and are ignored: q9"
    assert (
        by_rule["absent-queries"]
        == "1 of 3 gold queries have no line in the run (scored as nothing retrieved): q3"
    )
    assert (
        by_rule["duplicate"].startswith("1 duplicate lines")
        and "line 2 (first on 1)" in by_rule["duplicate"]
    )
    assert by_rule["tags"].endswith("2 run tags in " + run + ": t, u")
    assert all(f.level == "warning" for f in report.findings)


def test_several_runs_one_row_each_and_in_memory_runs(write):
    other = pd.DataFrame(
        {"query_id": ["q1", "q1", "q3"], "doc_id": ["a", "b", "d"], "score": [1.0, 0.5, 1.0]}
    )
    report = score(GOLD, {"first": RUN, "second": other})
    assert report.table["run"].tolist() == ["first", "second"]
    # second: tp 2 + 0 + 1 = 3 of retrieved 3, relevant 4: P = 1, R = 3/4
    second = report.table.iloc[1]
    assert (second["MicroP"], second["MicroR"], second["tp"]) == (1.0, float(F(3, 4)), 3)
    assert report.table.iloc[0]["MicroF1"] == MICRO_F1
    assert score(GOLD, RUN).table.iloc[0]["run"] == "run"  # a dict of dicts is one run


def test_macro_f2_equals_trec_eval_f_with_beta_4_through_pytrec_eval(write):
    # every gold query is retrieved for, so trec_eval's mean of set_F(x=4) is the macro F2 (COLIEE-SPEC 7)
    run = {"q1": {"a": 3.0, "x": 2.0}, "q2": {"c": 3.0, "y": 2.0, "z": 1.0}, "q3": {"e": 1.0}}
    report = score(GOLD, run, task=3, measures=["MacroF2", ir_measures.SetF(beta=4.0)])
    row = report.table.iloc[0]
    # per query F2: q1 1/2, q2 5/7, q3 0
    assert row["MacroF2"] == pytest.approx(float((F(1, 2) + F(5, 7)) / 3), abs=1e-15)
    assert row["MacroF2"] == pytest.approx(row["SetF(beta=4.0)"], abs=1e-12)
    assert score(GOLD, RUN, task=3).table.iloc[0]["MacroF2"] == MACRO_F2


# --- the task decides the format; mismatches are refused --------------------------------------------


ANSWER_GOLD = "R06-01-A Y g\nR06-01-I N g\nR06-02-U Y g\n"


@pytest.mark.parametrize("answer", ["y", "True", "yes"])
def test_task4_reads_answers_and_names_a_bad_answer(write, answer):
    run = write("R06.task4.t", f"R06-01-A Y t\nR06-01-I {answer} t\n")
    with pytest.raises(ColieeFormatError) as info:
        score(write("gold.txt", ANSWER_GOLD), run, task=4)
    assert (info.value.line, info.value.problem) == (2, f"unknown answer {answer!r}")
    _, err = run_cli_err(["eval", write("g.txt", ANSWER_GOLD), run, "--task", "4"], 2)
    assert f"R06.task4.t:2: unknown answer {answer!r}; expected Y or N in column 2" in err


def run_cli_err(argv, expect):
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    assert code == expect, err.getvalue()
    return out.getvalue(), err.getvalue()


def test_answers_against_article_gold_and_articles_against_answer_gold_are_refused(write):
    articles = write("gold.qrels", "R06-01-A 0 566 1\n")
    answers = write("R06.task4.t", "R06-01-A Y t\n")
    with pytest.raises(ColieeScoringError, match=r"holds answers lines .* but Task 3 .* takes"):
        score(articles, answers, task=3)
    _, err = run_cli_err(["eval", articles, answers, "--task", "3"], 1)
    assert "6 columns 'query_id Q0 doc_id rank score run_tag'" in err
    run = write("task3.t", "R06-01-A 566 t\n")
    _, err = run_cli_err(["eval", write("g.txt", ANSWER_GOLD), run, "--task", "4"], 1)
    assert "holds pairs lines" in err and "takes 3 columns 'query_id Y|N run_tag'" in err
    # the gold's kind decides too: a Task 1 label file is not answer gold
    with pytest.raises(ColieeScoringError, match=r"Task 4 .* answers gold, but .* holds documents"):
        score(articles, answers, task=4)


def test_a_run_that_shares_no_query_with_the_gold_is_refused(write):
    gold = qrels_file(write, "gold.qrels", GOLD)
    run = write("task1.t", "x1 a t\nx2 b t\n")
    with pytest.raises(
        ColieeScoringError, match=r"shares no query with the gold .* \(run: 2 queries, e.g. x1, x2"
    ):
        score(gold, run, task=1)
    _, err = run_cli_err(["eval", gold, run, "--task", "1"], 1)
    assert "shares no query" in err and "Traceback" not in err


def test_answer_files_without_a_tag_are_scored_with_a_warning(write):
    report = score(
        write("gold.txt", ANSWER_GOLD), write("R06.task4", "R06-01-A Y\nR06-01-I Y\n"), task=4
    )
    assert report.table.iloc[0]["AnswerAccuracy"] == pytest.approx(1 / 3, abs=1e-15)  # 1 of 3 right
    assert (report.table.iloc[0]["correct"], report.table.iloc[0]["questions"]) == (1, 3)
    assert "no-tag" in rules(report) and "absent-queries" in rules(report)
    findings = ir_coliee.validate_run(write("R06.task4.x", "R06-01-A Y\n"), task=4)
    # the validator applies the official rule: the run tag ends every line
    assert [(f.level, f.line, f.message) for f in findings] == [
        ("error", 1, "2 columns; expected 3 columns 'query_id Y|N run_tag'")
    ]


def test_two_column_answer_gold(write):
    report = score(
        write("gold.txt", "R06-01-A Y\nR06-01-I N\n"),
        write("R06.task4.t", "R06-01-A N t\nR06-01-I N t\n"),
    )
    assert (
        report.task == "4" and report.table.iloc[0]["AnswerAccuracy"] == 0.5
    )  # 1/2, the task guessed
    (guess,) = [f.message for f in report.findings if f.rule == "guess"]
    assert guess.endswith(
        "(guessed from the files); pass task= (--task on the command line) to choose"
    )


def test_accuracy_on_answers_names_answer_accuracy(write):
    gold, run = write("gold.txt", ANSWER_GOLD), write("R06.task4.t", "R06-01-A Y t\n")
    with pytest.raises(ColieeScoringError, match="AnswerAccuracy"):
        score(gold, run, measures=["Accuracy"])
    _, err = run_cli_err(["eval", gold, run, "Accuracy"], 1)
    assert (
        "pairwise ranking accuracy" in err and "AnswerAccuracy" in err and "ZeroDivision" not in err
    )
    with pytest.raises(ColieeScoringError, match="AnswerAccuracy scores Y/N answers"):
        score(GOLD, RUN, task=1, measures=["AnswerAccuracy"])
    with pytest.raises(ColieeScoringError, match="AP scores retrieved documents"):
        score(gold, run, measures=["AP"])


def test_forced_run_format(write):
    gold = write("gold.qrels", "q 0 N 1\nq 0 a 1\n")  # a case named N, among others
    run = write("r", "q N t\n")  # read as an answer unless told otherwise
    with pytest.raises(ColieeScoringError, match="holds answers lines"):
        score(gold, run, task=1)
    row = score(gold, run, task=1, run_format="pairs").table.iloc[0]
    assert (row["MicroP"], row["MicroR"]) == (1.0, 0.5)  # 1/1, 1/2
    with pytest.raises(ColieeFormatError, match="unknown answer 'a'"):
        score(write("g.txt", "q Y\n"), write("s", "q a t\n"), task=4, run_format="answers")


# --- gold of every kind ------------------------------------------------------------------------------


def test_labelled_riteval_xml_is_gold_for_task3_and_task4(write):
    gold = write("riteval_R05_en.xml", R05_LABELLED)
    articles = write("task3.t", "R05-01-A 213-2 t\nR05-01-I 3-2 t\nR05-01-I 1 t\nR05-02-C 1 t\n")
    row = score(gold, articles, task=3).table.iloc[0]
    # per question P: 1/1, 1/2, 1/1; R: 1/1, 1/2, 1/1; F2: 1, 1/2, 1
    assert row["MacroF2"] == pytest.approx(float((1 + F(1, 2) + 1) / 3), abs=1e-15)
    answers = write("R05.task4.t", "R05-01-A Y t\nR05-01-I Y t\nR05-02-C Y t\n")
    assert score(gold, answers).table.iloc[0]["AnswerAccuracy"] == pytest.approx(
        2 / 3, abs=1e-15
    )  # N, Y, Y gold


def test_unlabelled_riteval_is_not_gold(write):
    gold = write("TestData_en.xml", riteval(pair("R05-01-A", "q", "")))
    with pytest.raises(ColieeFormatError, match="no question has a label"):
        score(gold, write("R05.task4.t", "R05-01-A Y t\n"))


def test_dataset_gold_and_task_contradicting_it(coliee_home, write):
    write_statute_root(coliee_home)
    run = write("task3.t", "R05-01-A 213-2 t\nR05-01-I 3-2 t\n")
    report = score("coliee/task3/2024/test", run)
    assert (report.task, report.year) == ("3", 2024)
    # R05-01-A: 1/1; R05-01-I: P 1/1, R 1/2, F2 = 5/9 * ... : (5 * 1 * 1/2) / (4 * 1 + 1/2) = 5/9
    assert report.table.iloc[0]["MacroF2"] == pytest.approx(float((1 + F(5, 9)) / 2), abs=1e-15)
    with pytest.raises(
        ColieeError, match="--task 4 contradicts the dataset coliee/task3/2024/test"
    ):
        score("coliee/task3/2024/test", run, task=4)
    _, err = run_cli_err(["eval", "coliee/task3/2024/test", run, "--task", "1"], 2)
    assert "contradicts" in err


# --- tune, compare, validate -------------------------------------------------------------------------

T3_GOLD = {"R05-01-A": {"1": 1, "2": 1}, "R05-01-I": {"3": 1}}
T3_RUN = {"R05-01-A": {"1": 0.9, "9": 0.8, "2": 0.7}, "R05-01-I": {"3": 0.9, "8": 0.5, "7": 0.4}}


def trec_file(write, name: str, run: dict) -> str:
    lines = []
    for q, docs in run.items():
        for rank, (d, s) in enumerate(sorted(docs.items(), key=lambda i: -i[1]), 1):
            lines.append(f"{q} Q0 {d} {rank} {s} t\n")
    return write(name, "".join(lines))


def test_tune_uses_the_official_measure_and_writes_the_official_format(write, tmp_path):
    gold, train = (
        qrels_file(write, "gold.qrels", T3_GOLD),
        trec_file(write, "task3-L.train", T3_RUN),
    )
    result = ir_coliee.tune(gold, train, over="rank")
    assert result.tuned.measure == ir_coliee.MacroF2 and result.write_format == "trec"
    # F2 = 5PR / (4P + R) per question, mean of A and I:
    # rank 1: A P 1 R 1/2 -> 5/9, I -> 1; rank 2: A P 1/2 R 1/2 -> 1/2, I P 1/2 R 1 -> 5/6;
    # rank 3: A P 2/3 R 1 -> 10/11, I P 1/3 R 1 -> 5/7
    expected = [(F(5, 9) + 1) / 2, (F(1, 2) + F(5, 6)) / 2, (F(10, 11) + F(5, 7)) / 2]
    assert result.tuned.curve["MacroF2"].tolist() == pytest.approx(
        [float(v) for v in expected], abs=1e-15
    )
    assert result.tuned.cutoff == 3.0
    test = trec_file(write, "task3-L.test", {"R05-01-A": {"4": 3.0, "5": 2.0, "6": 1.0, "7": 0.5}})
    written = tmp_path / "task3.cut"
    assert main(["tune", gold, train, "--apply", test, "--write", str(written)]) == 0
    assert written.read_text().splitlines() == [
        "R05-01-A Q0 4 1 3.0 tuned",
        "R05-01-A Q0 5 2 2.0 tuned",
        "R05-01-A Q0 6 3 1.0 tuned",
    ]


def test_tune_refuses_score_cutoffs_on_a_file_without_scores(write):
    gold, run = (
        qrels_file(write, "gold.qrels", T3_GOLD),
        write("task3.t", "R05-01-A 1 t\nR05-01-A 9 t\n"),
    )
    with pytest.raises(ColieeScoringError, match="has no scores"):
        ir_coliee.tune(gold, run, over="score")
    _, err = run_cli_err(["tune", gold, run, "--over", "relative-score"], 1)
    assert "has no scores (pairs format" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--max-rank", "0"], "--max-rank must be at least 1"),
        (["--digits", "-1"], "--digits must be at least 0"),
    ],
)
def test_tune_bad_arguments(write, argv, message):
    gold, run = qrels_file(write, "gold.qrels", T3_GOLD), trec_file(write, "task3-L.t", T3_RUN)
    _, err = run_cli_err(["tune", gold, run, *argv], 2)
    assert message in err


def test_compare_warns_about_absent_gold_queries(write):
    gold = qrels_file(write, "gold.qrels", GOLD)
    a, b = run_file(write, "task1.a", RUN), write("task1.b", "q1 a b\nq2 c b\nq3 d b\n")
    result = ir_coliee.compare_runs(gold, [a, b], task=1, resamples=50)
    assert (
        result.table.index.tolist() == ["t", "b"] and result.table.loc["t", "MicroF1"] == MICRO_F1
    )
    assert [f.message for f in result.findings if f.rule == "absent-queries"] == [
        "1 of 3 gold queries have no line in the run (scored as nothing retrieved): q3"
    ]
    _, err = run_cli_err(["compare", gold, a, b, "--task", "1", "--resamples", "0"], 2)
    assert "--resamples must be at least 1" in err
    _, err = run_cli_err(["compare", gold, a, b, "--task", "1", "--baseline", "2"], 2)
    assert "baseline 2 is not the index of a run" in err


def test_validate_unknown_dataset_or_year_is_an_error(write):
    run = write("task1.t", "000001 000002 t\n")
    with pytest.raises(ColieeError, match="not a COLIEE dataset id"):
        ir_coliee.validate_run(run, task=1, dataset="coliee/task1/2099/test")
    with pytest.raises(ColieeError, match="Task 5 has no 2024 edition"):
        ir_coliee.validate_run(run, task=5, year=2024)
    _, err = run_cli_err(["validate", run, "--task", "1", "--year", "2017"], 2)
    assert "Task 1 has no 2017 edition" in err


def test_validate_groups_findings_of_one_rule(write, capsys):
    run = write(
        "task1.t", "".join(f"{q:06d} 000001 t\n" for q in range(2, 40)) + "000002 000001 t\n"
    )
    assert main(["validate", run, "--task", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    duplicates = [line for line in out if "duplicate" in line]
    assert duplicates == [
        f"{run}:39: warning: duplicate of line 1: counted once"
    ]  # 38 lines, then the copy
    run = write("task1.u", "".join(f"{q:06d} {q:06d} t\n" for q in range(1, 40)))
    assert main(["validate", run, "--task", "1"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert sum("returns itself" in line for line in out) == 5
    assert f"{run}: error: ... and 34 more like these (39 in all)" in out
    assert out[-1].endswith("not valid as a COLIEE Task 1 submission: 39 errors, 0 warnings")


def test_validate_released_question_without_gold_is_a_warning(coliee_home, write):
    write_statute_root(coliee_home)
    unlabelled = coliee_home / "COLIEE2024statute_data-English" / "train" / "riteval_R05_en.xml"
    unlabelled.write_text(
        riteval(
            pair("R05-01-A", "q", "", quote="'")
            + pair("R05-01-I", "q", "")
            + pair("R05-03-A", "q", "")
        )
    )
    ir_coliee.data.locator.refresh()
    findings = ir_coliee.validate_run(
        write("R05.task4.t", "R05-01-A Y t\nR05-03-A N t\n"), task=4, year=2024
    )
    assert [(f.level, f.line, f.message) for f in findings] == [
        ("warning", None, "1 questions unanswered (scored as wrong): R05-01-I"),
        ("warning", 2, "query 'R05-03-A' was released but has no gold: it is not scored"),
    ]


def test_counts_are_the_same_whichever_measures_are_asked_for():
    counts = ["tp", "retrieved", "relevant", "queries"]
    official = score(GOLD, RUN, task=1).table[counts].iloc[0].tolist()
    assert official == [2, 5, 4, 3]  # from the per-query values of MicroP
    assert (
        score(GOLD, RUN, task=1, measures=["AP"]).table[counts].iloc[0].tolist() == official
    )  # counted afresh
    assert (
        score(GOLD, RUN, task=1, measures=["MicroP@1", "AP"]).table[counts].iloc[0].tolist()
        == official
    )


@pytest.mark.parametrize(
    "run", [{}, {" 1 ": {"a": 1.0}}, pd.DataFrame(columns=["qid", "docno", "score"])]
)
def test_evaluate_and_compare_refuse_a_run_sharing_no_query_as_score_does(run):
    """An empty run, or ids with whitespace: score refuses them; so do evaluate and compare, never a silent 0."""
    gold = {"1": {"a": 1}, "2": {"b": 1}}
    with pytest.raises(ColieeScoringError) as scored:
        ir_coliee.score(gold, run, task=1)
    assert str(scored.value).startswith("run shares no query with the gold <qrels> (run: ")
    with pytest.raises(ColieeScoringError) as evaluated:
        ir_coliee.evaluate(gold, run, ["MicroF1"], task=1)
    assert str(evaluated.value) == str(scored.value)
    with pytest.raises(
        ColieeScoringError, match=r"^b shares no query with the gold <qrels> \(run: "
    ):
        ir_coliee.compare(gold, {"a": {"1": {"a": 1.0}}, "b": run}, ["MicroF1"], resamples=10)


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
def test_trec_eval_names_as_pyterrier_takes_them_score_in_every_verb(tmp_path):
    """``ndcg_cut_10``, ``P_1``, ``recall_5``, ``map`` (PyTerrier's ``eval_metrics``) are ir_measures' nDCG@10,
    P@1, R@5 and AP, in every verb: q1 ranks its one relevant d1 first, q2 its d3 second."""
    qrels = tmp_path / "toy.qrels"
    qrels.write_text("q1 0 d1 1\nq2 0 d3 1\n")
    runs = {
        "a": {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d4": 2.0, "d3": 1.0}},
        "b": {"q1": {"d2": 1.0}, "q2": {}},
    }
    trec, named = ["ndcg_cut_10", "P_1", "recall_5", "map"], ["nDCG@10", "P@1", "R@5", "AP"]
    evaluated = ir_coliee.evaluate(str(qrels), runs["a"], trec)
    assert list(evaluated.columns) == named
    # AP (1 + 1/2) / 2, P@1 1/2, R@5 1, nDCG@10 (1 + 1/log2(3)) / 2
    assert list(evaluated.iloc[0]) == pytest.approx([(1 + 1 / math.log2(3)) / 2, 1 / 2, 1, 3 / 4])
    pd.testing.assert_frame_equal(evaluated, ir_coliee.evaluate(str(qrels), runs["a"], named))
    compared = ir_coliee.compare(str(qrels), runs, trec, resamples=100)
    pd.testing.assert_frame_equal(
        compared, ir_coliee.compare(str(qrels), runs, named, resamples=100)
    )
    bench = ir_coliee.benchmark({str(qrels): runs}, measures=trec, resamples=100, baseline="a")
    assert bench.value((str(qrels), "AP"), "a") == 3 / 4
    scored = ir_coliee.score(str(qrels), runs["a"], measures=trec).table
    assert list(scored.loc[0, named]) == list(evaluated.iloc[0])
