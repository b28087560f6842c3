"""Comparing runs: tests and intervals that recompute each measure (micro from counts), Holm, tuning."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import ir_measures
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.resampling import measure_of, randomization_p, swapped, taken

import ir_coliee
from ir_coliee import MacroF2, MicroF1, MicroP, apply_cutoff, compare, tune_cutoff
from ir_coliee.cli import main
from ir_coliee.measures.significance import PerQuery, correct, per_query_all, stat_of


def per_query(measure, qids, qrels, run) -> PerQuery:
    """One measure's per-query data of ``run``, in the order of ``qids``."""
    return per_query_all([measure], qids, qrels, run)[0]


def make_runs(n_queries: int, seed: int, strength: float = 0.5):
    """Gold with 2 relevant of 10 documents per query; a run retrieves each relevant one with
    probability ``strength`` and one or two others."""
    rng = random.Random(seed)
    gold = {f"q{i:02d}": {"d0": 1, "d1": 1} for i in range(n_queries)}

    def run():
        out = {}
        for q in gold:
            docs = [d for d in ("d0", "d1") if rng.random() < strength]
            docs += rng.sample([f"d{j}" for j in range(2, 10)], rng.randint(1, 2))
            out[q] = {d: rng.random() for d in docs}
        return out

    return gold, run


def test_holm_and_bonferroni_by_hand():
    # sorted 0.01, 0.03, 0.04: 3 x 0.01, max(0.03, 2 x 0.03), max(0.06, 1 x 0.04)
    assert correct([0.01, 0.04, 0.03], "holm") == pytest.approx([0.03, 0.06, 0.06])
    assert correct([0.01, 0.04, 0.03], "bonferroni") == pytest.approx([0.03, 0.12, 0.09])
    assert correct([0.5, 0.9], "none") == [0.5, 0.9]


def test_values_are_the_official_scores_and_results_are_deterministic():
    gold, run = make_runs(20, seed=1)
    runs = {"a": run(), "b": run(), "c": run()}
    measures = [MicroF1, MacroF2, ir_measures.AP]
    frame = compare(gold, runs, measures, resamples=300, seed=7)
    for name, r in runs.items():
        expected = ir_measures.calc_aggregate(measures, gold, r)
        for m in measures:
            assert frame.loc[name, str(m)] == pytest.approx(expected[m], abs=1e-12)
            assert (
                frame.loc[name, f"{m} CI low"]
                <= frame.loc[name, str(m)]
                <= frame.loc[name, f"{m} CI high"]
            )
    assert frame.equals(compare(gold, runs, measures, resamples=300, seed=7))
    assert frame.loc["a", "baseline"] and np.isnan(frame.loc["a", "MicroF1 p-value"])
    holm = correct([frame.loc["b", "MicroF1 p-value"], frame.loc["c", "MicroF1 p-value"]], "holm")
    assert [
        frame.loc["b", "MicroF1 p-value (holm)"],
        frame.loc["c", "MicroF1 p-value (holm)"],
    ] == holm


def test_identical_runs_give_p_one_and_a_much_better_run_a_small_p():
    gold, run = make_runs(30, seed=2)
    base = run()
    frame = compare(gold, [base, base], [MicroF1], resamples=500)
    assert frame.loc["run1", "MicroF1 p-value"] == 1.0
    perfect = {q: {"d0": 1.0, "d1": 0.9} for q in gold}
    assert (
        compare(gold, [base, perfect], [MicroF1], resamples=500).loc["run1", "MicroF1 p-value"]
        < 0.01
    )


def exact_permutation_p(stat, a, b):
    """All 2^n swaps enumerated: the exact p-value the randomization test estimates."""
    n = len(a.values)
    whole = np.arange(n)[None, :]
    observed = abs(measure_of(stat, taken(a, whole))[0] - measure_of(stat, taken(b, whole))[0])
    masks = np.array(list(itertools.product([False, True], repeat=n)))
    rows = np.broadcast_to(whole, masks.shape)
    a_rows, b_rows = taken(a, rows), taken(b, rows)
    diffs = np.abs(
        measure_of(stat, swapped(a_rows, b_rows, masks))
        - measure_of(stat, swapped(b_rows, a_rows, masks))
    )
    return float(np.mean(diffs >= observed - 1e-12))


@pytest.mark.parametrize("measure", [MicroF1, MicroP, MacroF2, ir_measures.AP])
def test_randomization_p_matches_the_exact_permutation_test(measure):
    gold, run = make_runs(9, seed=3)
    a_run, b_run = run(), run()
    qids = list(gold)
    a, b = per_query(measure, qids, gold, a_run), per_query(measure, qids, gold, b_run)
    stat = stat_of(measure)
    exact = exact_permutation_p(stat, a, b)
    estimate = randomization_p(stat, a, b, resamples=20_000, rng=np.random.default_rng(0))
    assert estimate == pytest.approx(exact, abs=0.02)


@pytest.mark.parametrize("measure", [MicroF1, MacroF2, ir_measures.AP])
def test_bootstrap_sums_are_the_measure_on_the_resampled_queries(measure):
    """``W @ X`` with W counting the draws equals recomputing the measure on the drawn queries."""
    from ir_coliee.measures.significance import bootstrap_sums, side_by_side

    gold, run = make_runs(12, seed=4)
    qids = list(gold)
    data, stat = per_query(measure, qids, gold, run()), stat_of(measure)
    sums = bootstrap_sums(
        side_by_side([(stat, stat.columns(data))]), 50, np.random.default_rng(5), len(qids)
    )[0]
    drawn = np.random.default_rng(5).integers(0, len(qids), size=(50, len(qids)))
    assert sums == pytest.approx(measure_of(stat, taken(data, drawn)), abs=1e-12)


def test_micro_statistic_uses_counts_not_mean_of_per_query_values():
    gold = {"q1": {"a": 1}, "q2": {"b": 1, "c": 1, "d": 1}}
    run = {"q1": {"a": 1.0}, "q2": {"x": 1.0, "y": 1.0, "b": 0.5}}
    data = per_query(MicroP, list(gold), gold, run)
    assert data.counts.tolist() == [[1, 1, 1], [1, 3, 3]]
    whole = np.arange(2)[None, :]
    assert measure_of(stat_of(MicroP), taken(data, whole))[0] == pytest.approx(
        float(F(2, 4))
    )  # not (1 + 1/3) / 2
    assert stat_of(ir_measures.AP).formula is None


def test_calibration_two_runs_of_the_same_system_reject_about_5_percent():
    """Simulation with a fixed seed: the share of p < 0.05 between two draws of one system."""
    rejections, trials = 0, 300
    rng = np.random.default_rng(11)
    for trial in range(trials):
        gold, run = make_runs(40, seed=1000 + trial)
        qids = list(gold)
        a, b = per_query(MicroF1, qids, gold, run()), per_query(MicroF1, qids, gold, run())
        rejections += randomization_p(stat_of(MicroF1), a, b, resamples=200, rng=rng) < 0.05
    assert 0.02 <= rejections / trials <= 0.09, rejections / trials


TUNE_GOLD = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}}
TUNE_RUN = {"q1": {"a": 0.9, "x": 0.8, "b": 0.7, "y": 0.6}, "q2": {"c": 0.5, "z": 0.4}}


def test_tune_over_rank_by_hand():
    tuned = tune_cutoff(TUNE_GOLD, TUNE_RUN, MicroF1, over="rank")
    # k = 1: P = 1, R = 2/3 -> 4/5; k = 2: 4/7; k = 3: P = 3/5, R = 1 -> 3/4; k = 4: 2/3
    assert tuned.curve["MicroF1"].tolist() == pytest.approx([4 / 5, 4 / 7, 3 / 4, 2 / 3])
    assert (tuned.cutoff, tuned.value) == (1.0, pytest.approx(4 / 5))


def test_tune_over_score_and_relative_score_by_hand():
    tuned = tune_cutoff(TUNE_GOLD, TUNE_RUN, "MicroF1", over="score")
    # t = 0.5 keeps all of q1 and c of q2: P = 3/5, R = 1 -> 3/4 (t = 0.7: 2/3, t = 0.4: 2/3)
    assert (tuned.cutoff, tuned.value) == (0.5, pytest.approx(3 / 4))
    assert tuned.curve.set_index("cutoff")["MicroF1"].to_dict() == pytest.approx(
        {0.4: 2 / 3, 0.5: 3 / 4, 0.6: 4 / 7, 0.7: 2 / 3, 0.8: 2 / 5, 0.9: 1 / 2}
    )
    relative = tune_cutoff(TUNE_GOLD, TUNE_RUN, MicroF1, over="relative-score")
    # q1 relative scores a 1, x 2/3, b 1/3, y 0; q2 c 1, z 0: any r in (0, 1/3] gives 6/7
    assert (relative.cutoff, relative.value) == (0.01, pytest.approx(6 / 7))
    cut = apply_cutoff(TUNE_RUN, "relative-score", relative.cutoff)
    assert sorted(zip(cut.query_id, cut.doc_id)) == [
        ("q1", "a"),
        ("q1", "b"),
        ("q1", "x"),
        ("q2", "c"),
    ]
    assert ir_measures.calc_aggregate([MicroF1], TUNE_GOLD, cut)[MicroF1] == pytest.approx(6 / 7)
    with pytest.raises(ValueError, match="unknown cutoff kind"):
        tune_cutoff(TUNE_GOLD, TUNE_RUN, over="percent")


def test_compare_and_tune_commands(write, capsys, tmp_path):
    gold = write(
        "gold.qrels", "".join(f"{q} 0 {d} 1\n" for q, docs in TUNE_GOLD.items() for d in docs)
    )
    a = write("task1.a", "q1 a a\nq1 x a\nq2 c a\n")
    b = write("task1.b", "q1 x b\nq2 z b\n")
    png = tmp_path / "ci.png"
    assert (
        main(["compare", gold, a, b, "--task", "1", "--resamples", "200", "--plot", str(png)]) == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("run\tbaseline\tMicroP\tMicroP CI low\tMicroP CI high\tMicroP p-value")
    assert out[1].startswith("a\tTrue\t0.6667") and out[2].startswith("b\tFalse\t0.0000")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    run = write(
        "task3-L.t",
        "".join(
            f"{q} Q0 {d} {i} {s} t\n"
            for q, docs in TUNE_RUN.items()
            for i, (d, s) in enumerate(docs.items(), 1)
        ),
    )
    written = tmp_path / "task1.tuned"
    assert main(["tune", gold, run, "--over", "score", "--write", str(written)]) == 0
    assert "best score cutoff: 0.5 (MicroF1 = 0.7500)" in capsys.readouterr().out
    assert ir_coliee.read_run(written)[["query_id", "doc_id"]].values.tolist() == [
        ["q1", "a"],
        ["q1", "x"],
        ["q1", "b"],
        ["q1", "y"],
        ["q2", "c"],
    ]


# --- accuracy: exact McNemar and Wilson intervals -------------------------------------------------------

ANSWER_GOLD = {f"R06-0{i}-A": {"Y" if i % 2 else "N": 1} for i in range(1, 7)}


def answers(right: list[bool]) -> dict:
    return {
        q: {(label if ok else ("N" if label == "Y" else "Y")): 1.0 for label in docs}
        for (q, docs), ok in zip(ANSWER_GOLD.items(), right)
    }


def test_accuracy_runs_are_compared_with_mcnemar_and_wilson():
    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.proportion import proportion_confint

    a = answers([True, True, True, True, True, False])  # 5 of 6
    b = answers([True, False, False, False, False, False])  # 1 of 6
    table = ir_coliee.compare(ANSWER_GOLD, {"a": a, "b": b}, ["AnswerAccuracy"], baseline="b")
    assert table.attrs["tests"]["AnswerAccuracy"] == "exact McNemar"
    assert table.loc["a", "AnswerAccuracy"] == pytest.approx(5 / 6)
    # discordant pairs: a right and b wrong on 4 questions, the reverse on none: p = 2 * (1/2)^4 = 1/8
    assert table.loc["a", "AnswerAccuracy p-value"] == pytest.approx(1 / 8)
    assert table.loc["a", "AnswerAccuracy p-value"] == pytest.approx(
        mcnemar([[1, 4], [0, 1]], exact=True).pvalue
    )
    low, high = proportion_confint(5, 6, alpha=0.05, method="wilson")
    assert (table.loc["a", "AnswerAccuracy CI low"], table.loc["a", "AnswerAccuracy CI high"]) == (
        pytest.approx(low, abs=1e-9),
        pytest.approx(high, abs=1e-9),
    )


def test_compare_command_marks_and_plots_the_headline(write, capsys, tmp_path):
    gold = write(
        "gold.qrels", "".join(f"{q} 0 {d} 1\n" for q, docs in TUNE_GOLD.items() for d in docs)
    )
    a = write("task1.a", "q1 a a\nq1 x a\nq2 c a\n")
    b = write("task1.b", "q1 x b\nq2 z b\n")
    png = tmp_path / "f1.png"
    assert (
        main(
            [
                "compare",
                gold,
                a,
                b,
                "--task",
                "1",
                "--resamples",
                "200",
                "--format",
                "markdown",
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| run | baseline | MicroP | MicroP CI low |")
    assert (
        out[2].startswith("| a | yes | 0.6667 |")
        # the note is Markdown text: "*" no list bullet, "<" no tag (rendered: "* p < 0.05 ...")
        and "\\* p &lt; 0.05 against the baseline (holm correction)" in out
    )
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_the_plot_is_of_the_headline_measure(write, capsys, monkeypatch, tmp_path):
    import sys

    compare_module = sys.modules[
        "ir_coliee.scoring.compare"
    ]  # the package exports the function under the same name
    plotted = []
    monkeypatch.setattr(
        compare_module,
        "plot_intervals",
        lambda frame, measure, path: plotted.append(measure) or path,
    )
    gold = write("gold.qrels", "q1 0 a 1\nq2 0 c 1\n")
    run = write("task1.a", "q1 a a\nq2 c a\n")
    assert (
        main(
            [
                "compare",
                gold,
                run,
                run,
                "--task",
                "1",
                "--resamples",
                "20",
                "--plot",
                str(tmp_path / "p.png"),
            ]
        )
        == 0
    )
    assert plotted == [
        "MicroF1"
    ]  # the official order is P, R, F1: the headline is F1, not the first column


def test_pilot_tort_predictions_are_compared_as_paired_answers(write):
    import json

    from support.pilot_data import GOLD, SUBMISSION, jsonl

    all_false = json.loads(json.dumps(SUBMISSION))
    for tort in all_false:
        tort["court_decision"] = False
    a, b = write("a.jsonl", jsonl(SUBMISSION)), write("b.jsonl", jsonl(all_false))
    result = ir_coliee.compare_runs(write("gold.jsonl", jsonl(GOLD)), [a, b], resamples=10)
    table = result.table
    # gold decisions True, False, True: a says True, True, True (2 of 3), b says False x3 (1 of 3)
    assert (table.loc["a.jsonl", "AnswerAccuracy"], table.loc["b.jsonl", "AnswerAccuracy"]) == (
        pytest.approx(2 / 3),
        pytest.approx(1 / 3),
    )
    # discordant questions: a alone right on T1, T3; b alone on T2: p = 2 * (C(3,0) + C(3,1)) / 2^3, capped at 1
    assert table.loc["b.jsonl", "AnswerAccuracy p-value"] == 1.0
    assert (
        table.attrs["tests"]["AnswerAccuracy"] == "exact McNemar"
        and result.headline == "AnswerAccuracy"
    )


def test_2026_gated_runs_are_compared_on_their_gated_outcomes(write, capsys):
    gold = write("gold.qrels", "q1 0 a 1\nq1 0 b 1\nq2 0 c 1\nq3 0 d 1\n")
    answers_gold = write("answers.gold", "q1 Y g\nq2 N g\nq3 Y g\n")
    weak, weak_answers = (
        write("task3.w", "q1 a w\nq1 b w\nq1 x w\nq2 y w\nq3 d w\n"),
        write("R07.task4.w", "q1 Y w\nq2 N w\nq3 N w\n"),
    )
    strong, strong_answers = (
        write("task3.s", "q1 a s\nq1 b s\nq2 c s\nq3 d s\n"),
        write("R07.task4.s", "q1 Y s\nq2 N s\nq3 Y s\n"),
    )
    result = ir_coliee.compare_runs(
        gold,
        [weak, strong],
        answers=[weak_answers, strong_answers],
        answers_gold=answers_gold,
        resamples=10,
    )
    table = result.table
    # weak: q1 right with both articles; q2 misses c; q3 answered wrong -> 1/3. strong: 3/3
    assert (table.loc["w", "RecallGatedAccuracy"], table.loc["s", "RecallGatedAccuracy"]) == (
        pytest.approx(1 / 3),
        1.0,
    )
    # discordant: strong alone right on q2 and q3: p = 2 * (1/2)^2 = 1/2
    assert table.loc["s", "RecallGatedAccuracy p-value"] == pytest.approx(1 / 2)
    assert result.headline == "RecallGatedAccuracy"
    argv = [
        "compare",
        gold,
        weak,
        strong,
        "--answers",
        weak_answers,
        strong_answers,
        "--answers-gold",
        answers_gold,
    ]
    assert main([*argv, "--resamples", "10"]) == 0
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .startswith("run\tbaseline\tRecallGatedAccuracy\tRecallGatedAccuracy CI low")
    )


@pytest.mark.parametrize("style, dash", [("markdown", "–"), ("latex", "--")])
def test_paper_tables_hold_no_nan_or_booleans(write, capsys, style, dash):
    """A paper's table: the baseline marked "yes", its p-values a dash, significant values starred."""
    from ir_coliee.cli import main

    gold = write("g.json", '{"001": ["010.txt"], "002": ["012.txt"], "003": ["013.txt"]}')
    a = write("a.run", "001 010 a\n002 012 a\n003 013 a\n")
    b = write("b.run", "001 099 b\n")
    assert (
        main(["compare", gold, a, b, "--task", "1", "--resamples", "200", "--format", style]) == 0
    )
    out = capsys.readouterr().out
    cells = [
        c.strip()
        for line in out.splitlines()
        for c in line.replace("\\\\", "").split("|" if style == "markdown" else "&")
    ]
    assert not {"nan", "True", "False"} & set(cells)
    assert "yes" in cells and dash in cells


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=False, width=64), min_size=1, max_size=40),
    st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99, 0.999]),
)
@example([0.0, 1.0], 0.95)  # 2.5th percentile of two values: 1/40 of the way
def test_the_confidence_bounds_are_numpys_percentiles_to_the_bit(values, level):
    """compare's interval bounds are np.percentile's, to the bit."""
    from ir_coliee.measures.significance import percentiles

    tail = (1 - level) / 2 * 100
    expected = np.percentile(np.array(values), [tail, 100 - tail]).tolist()
    got = list(percentiles(np.array(values), level))
    assert got == expected or (all(map(np.isnan, got)) and all(map(np.isnan, expected)))


def test_the_confidence_bounds_by_hand():
    from ir_coliee.measures.significance import percentiles

    # 0, 1/4, ..., 1 (n = 5): the 2.5th percentile sits at index 4 * 0.025 = 1/10, the 97.5th at 39/10
    low, high = percentiles(np.array([1.0, 0.25, 0.75, 0.0, 0.5]), 0.95)
    assert low == pytest.approx(1 / 10 * 1 / 4, abs=1e-15)
    assert high == pytest.approx(3 / 4 + 9 / 10 * 1 / 4, abs=1e-15)


def test_compare_takes_files_and_dataset_ids_as_score_does(tmp_path):
    """The one verb for both halves: files in, the table compare_runs gives; the same values as the dicts."""
    gold_file = tmp_path / "task1_test_labels_2024.json"
    gold_file.write_text(
        '{"000001.txt": ["000010.txt", "000011.txt"], "000002.txt": ["000012.txt"]}'
    )
    (tmp_path / "a.run").write_text("000001 000010 A\n000001 000011 A\n000002 000013 A\n")
    (tmp_path / "b.run").write_text("000001 000010 B\n000002 000099 B\n")
    files = {"a": str(tmp_path / "a.run"), "b": str(tmp_path / "b.run")}
    with pytest.warns(ir_coliee.ColieeWarning, match="guessed from the files"):
        from_files = ir_coliee.compare(str(gold_file), files, resamples=200)
    gold = {"000001": {"000010": 1, "000011": 1}, "000002": {"000012": 1}}
    runs = {
        "a": {"000001": {"000010": 3.0, "000011": 2.0}, "000002": {"000013": 1.0}},
        "b": {"000001": {"000010": 2.0}, "000002": {"000099": 1.0}},
    }
    in_memory = ir_coliee.compare(gold, runs, task=1, resamples=200)
    # a: tp 2 of 3 retrieved, 3 relevant; b: tp 1 of 2
    assert from_files["MicroP"].tolist() == in_memory["MicroP"].tolist() == [2 / 3, 1 / 2]
    assert from_files["MicroR"].tolist() == [2 / 3, 1 / 3]
    assert list(from_files.index) == ["a", "b"]
    assert from_files.loc["b", "MicroF1 p-value"] == in_memory.loc["b", "MicroF1 p-value"]


def test_a_baseline_that_is_no_run_is_refused_by_name():
    """An index past the runs is refused by name, never an IndexError."""
    from ir_coliee import ColieeArgumentError

    with pytest.raises(
        ColieeArgumentError, match=r"baseline 3 is not the index of a run \(0 to 0\)"
    ):
        ir_coliee.compare({"q": {"d": 1}}, [{"q": {"d": 1.0}}], baseline=3)
