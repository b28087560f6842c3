"""Property tests: random gold and runs against a brute-force oracle in exact fractions, and against
pytrec_eval (an independent implementation) through ir_measures."""

from __future__ import annotations

from fractions import Fraction as F

import ir_measures
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ir_measures import NumRelRet, NumRet, ScoredDoc, SetF, SetP, SetR

from ir_coliee import MacroF, MacroP, MacroR, MicroF, MicroP, MicroR
from ir_coliee.table.runs import parse_run

# random runs often share no query with random gold: scored 0 as pytrec_eval does, with a warning
pytestmark = pytest.mark.filterwarnings("ignore:the run shares no query:ir_coliee.ColieeWarning")

QIDS = ["q1", "q2", "q3", "q4"]
DOCS = ["a", "b", "c", "d", "e", "f"]

golds = st.dictionaries(
    st.sampled_from(QIDS),
    st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2), min_size=1),
    min_size=1,
)
runs = st.lists(
    st.tuples(st.sampled_from([*QIDS, "zz"]), st.sampled_from(DOCS), st.integers(0, 5).map(float)),
    max_size=30,
)


def oracle_sets(gold, run, cutoff, rel):
    """Per gold query (tp, retrieved, relevant), the slow obvious way."""
    best = {}
    for q, d, s in run:
        best[(q, d)] = max(s, best.get((q, d), s))
    out = {}
    for q, judged in gold.items():
        ranked = sorted(((s, d) for (qq, d), s in best.items() if qq == q), reverse=True)
        if cutoff is not None:
            ranked = ranked[:cutoff]
        retrieved = {d for _, d in ranked}
        relevant = {d for d, r in judged.items() if r >= rel}
        out[q] = (len(retrieved & relevant), len(retrieved), len(relevant))
    return out


def p(tp, ret, rel):
    return F(tp, ret) if ret else F(0)


def r(tp, ret, rel):
    return F(tp, rel) if rel else F(0)


def f(beta, pr, rc):
    b2 = F(beta) ** 2
    return (1 + b2) * pr * rc / (b2 * pr + rc) if pr + rc else F(0)


def as_run(run):
    return [ScoredDoc(q, d, s) for q, d, s in run]


def shaped(run, shape, tmp_path):
    """The run in one of the shapes users give: namedtuples and dicts (counted as dicts), a DataFrame and
    a run file as read (counted as integer codes with numpy)."""
    if shape == "namedtuples":
        return as_run(run)
    if shape == "dict":
        table = {}
        for q, d, s in run:
            table.setdefault(q, {})[d] = max(s, table.get(q, {}).get(d, s))
        return table
    if shape == "frame":
        return pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    path = tmp_path / "task3-L.run"
    path.write_text("".join(f"{q} Q0 {d} {i} {s} t\n" for i, (q, d, s) in enumerate(run, 1)))
    return parse_run(str(path)).coded


SHAPES = ["namedtuples", "dict", "frame", "file"]


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    golds,
    runs,
    st.sampled_from([None, 1, 2, 3]),
    st.sampled_from([1, 2]),
    st.sampled_from([1, 2, 0.5]),
    st.sampled_from(SHAPES),
)
def test_against_brute_force_oracle(tmp_path, gold, run, cutoff, rel, beta, shape):
    counts = oracle_sets(gold, run, cutoff, rel)
    tp, ret, relevant = (sum(c[i] for c in counts.values()) for i in range(3))
    micro_p, micro_r = p(tp, ret, relevant), r(tp, ret, relevant)
    expected = {
        MicroP: micro_p,
        MicroR: micro_r,
        MicroF(beta=beta): f(beta, micro_p, micro_r),
        MacroP: sum(p(*c) for c in counts.values()) / len(counts),
        MacroR: sum(r(*c) for c in counts.values()) / len(counts),
        MacroF(beta=beta): sum(f(beta, p(*c), r(*c)) for c in counts.values()) / len(counts),
    }
    measures = [m(rel=rel, cutoff=cutoff) if cutoff else m(rel=rel) for m in expected]
    if shape == "file" and not run:
        return  # a run file holds at least one line
    result = ir_measures.calc_aggregate(measures, gold, shaped(run, shape, tmp_path))
    for m, exp in zip(measures, expected.values()):
        assert result[m] == pytest.approx(float(exp), abs=1e-12), m


unique_runs = runs.map(lambda rows: {(q, d): s for q, d, s in rows}).map(
    lambda pairs: [ScoredDoc(q, d, s) for (q, d), s in pairs.items()]
)


@settings(max_examples=200, deadline=None)
@given(golds, unique_runs)
def test_against_pytrec_eval(gold, run):
    run_queries = {sd.query_id for sd in run}
    ours = ir_measures.calc_aggregate([MacroP, MacroR, MacroF(beta=2), MicroP, MicroR], gold, run)
    # trec_eval's set_F with beta=4 is (1+4)PR/(R+4P): F2; it skips gold queries missing from the
    # run, which score 0 in COLIEE, so its means are rescaled to all gold queries.
    theirs = ir_measures.calc([SetP, SetR, SetF(beta=4.0), NumRet, NumRelRet], gold, run)
    per_query = {(m.query_id, str(m.measure)): m.value for m in theirs.per_query}
    covered = [q for q in gold if q in run_queries]
    n = len(gold)
    for ours_m, theirs_m in ((MacroP, SetP), (MacroR, SetR), (MacroF(beta=2), SetF(beta=4.0))):
        total = sum(per_query.get((q, str(theirs_m)), 0.0) for q in covered)
        assert ours[ours_m] == pytest.approx(total / n, abs=1e-12), ours_m
    rel_ret = sum(per_query.get((q, str(NumRelRet)), 0) for q in covered)
    ret = sum(per_query.get((q, str(NumRet)), 0) for q in covered)
    relevant = sum(1 for docs in gold.values() for rel in docs.values() if rel >= 1)
    assert ours[MicroP] == pytest.approx(rel_ret / ret if ret else 0.0, abs=1e-12)
    assert ours[MicroR] == pytest.approx(rel_ret / relevant if relevant else 0.0, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(golds, runs)
def test_every_front_end_agrees_to_the_last_digit(gold, run):
    measures = [MicroP, MicroR, MicroF(beta=1), MacroF(beta=2), MacroP]
    a = ir_measures.calc_aggregate(measures, gold, as_run(run))
    aggs = {m: m.aggregator() for m in measures}
    for metric in reversed(list(ir_measures.iter_calc(measures, gold, as_run(run)))):
        aggs[metric.measure].add(metric.value)
    values = {}
    for metric in ir_measures.iter_calc(measures, gold, as_run(run)):
        values.setdefault(metric.measure, []).append(metric.value)
    for m in measures:
        assert aggs[m].result() == a[m]
        # what pt.Experiment does: 0.0 + v1 + v2 + ... then / n
        total = 0.0
        for v in reversed(values[m]):
            total = total + v
        assert total / len(values[m]) == a[m]


@settings(max_examples=300, deadline=None)
@given(
    golds,
    runs,
    st.sampled_from(["rank", "score", "relative-score"]),
    st.sampled_from([MicroF(beta=1), MicroP, MacroF(beta=2), MacroR, MicroR(rel=2)]),
)
def test_tuning_curve_is_the_measure_at_each_cutoff(gold, run, over, measure):
    """The numpy curve (one ranking, running counts) against evaluating the cut run at every cutoff."""
    from ir_coliee.measures.pipeline import pipeline
    from ir_coliee.scoring.tune import _candidates, cut, tune_cutoff
    from ir_coliee.table.tables import coded_run, run_table

    tuned = tune_cutoff(gold, as_run(run), measure, over=over, max_rank=5, steps=7)
    table = run_table(as_run(run))
    candidates = _candidates(coded_run(table), over, 5, 7)
    evaluator = pipeline.evaluator([measure], gold)
    expected = [float(evaluator.calc_aggregate(cut(table, over, c))[measure]) for c in candidates]
    assert tuned.curve["cutoff"].tolist() == candidates
    assert tuned.curve[str(measure)].tolist() == expected  # to the last digit


def test_numbers_as_ids_are_the_ids_they_spell_and_scores_must_be_numbers():
    """An int 5 is the document "5" (pandas reads ``005``-like ids as numbers: issue "One door in"), in every
    shape; a score that is not a number is refused with its row, never counted as something else."""
    from collections import namedtuple

    from ir_coliee.errors import ColieeScoringError

    Row = namedtuple("Row", "query_id doc_id score")
    gold = {"q1": {"5": 1, "a": 1}}
    for run in (
        [Row("q1", 5, 1.0), Row("q1", "a", 0.5)],
        pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": [5, "a"], "score": [1.0, 0.5]}),
        {"q1": {5: 1.0, "a": 0.5}},
    ):
        assert ir_measures.calc_aggregate([MicroR], gold, run)[MicroR] == 2 / 2
    with pytest.raises(ColieeScoringError, match="score"):
        ir_measures.calc_aggregate([MicroR], gold, [Row("q1", "5", None), Row("q1", "a", None)])
