"""Gold in every host shape scores as the plain table does: PyTerrier's qrels frame (qid, docno, label),
ir_measures' (query_id, doc_id, relevance), dicts, rows; ids of any dtype."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ir_coliee
from ir_coliee.errors import ColieeScoringError
from ir_coliee.table.tables import gold_table

GOLD = st.dictionaries(
    st.integers(1, 5), st.sets(st.integers(10, 16), min_size=1, max_size=4), min_size=1, max_size=4
)
RUN = st.lists(st.tuples(st.integers(1, 6), st.integers(10, 18)), min_size=1, max_size=15)


def _frames(gold: dict[int, set[int]], pyterrier: bool, as_int: bool) -> pd.DataFrame:
    rows = [(q, d, 1) for q, docs in sorted(gold.items()) for d in sorted(docs)]
    frame = pd.DataFrame(
        rows,
        columns=["qid", "docno", "label"] if pyterrier else ["query_id", "doc_id", "relevance"],
    )
    return frame if as_int else frame.astype({frame.columns[0]: str, frame.columns[1]: str})


@given(gold=GOLD, run=RUN, pyterrier=st.booleans(), as_int=st.booleans())
def test_a_qrels_frame_of_either_host_scores_as_the_dict(gold, run, pyterrier, as_int):
    plain = {str(q): {str(d): 1 for d in docs} for q, docs in gold.items()}
    frame = _frames(gold, pyterrier, as_int)
    run = [(min(gold), 10), *run]  # a run sharing no query is refused by score (tested elsewhere)
    assert gold_table(frame) == plain
    scored = pd.DataFrame(
        [(str(q), str(d), float(-i)) for i, (q, d) in enumerate(run)],
        columns=["qid", "docno", "score"],
    )
    measures = [ir_coliee.MicroP, ir_coliee.MicroR, ir_coliee.MacroF2]
    expected = ir_coliee.calc_aggregate(measures, plain, scored)
    assert ir_coliee.calc_aggregate(measures, frame, scored) == expected
    assert ir_coliee.evaluate(frame, scored, measures).iloc[0].to_dict() == {
        str(m): v for m, v in expected.items()
    }
    assert ir_coliee.score(frame, scored, measures=measures).table.iloc[0][
        [str(m) for m in measures]
    ].tolist() == [expected[m] for m in measures]


def test_a_frame_without_the_gold_columns_is_refused_naming_both_conventions():
    with pytest.raises(
        ColieeScoringError,
        match=r"expected query_id, doc_id, relevance \(or PyTerrier's qid, docno, label\)",
    ):
        gold_table(pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": [1.0]}))


def test_the_measures_come_back_in_the_order_asked():
    gold, run = {"q": {"a": 1, "b": 1}}, {"q": {"a": 1.0, "c": 0.5}}
    import ir_measures

    asked = [ir_measures.AP, ir_coliee.MicroR, ir_coliee.MicroP]
    assert list(ir_coliee.calc_aggregate(asked, gold, run)) == asked
    assert list(ir_coliee.evaluate(gold, run, ["MicroR", "AP", "MicroP"]).columns) == [
        "MicroR",
        "AP",
        "MicroP",
    ]


@settings(deadline=None)  # ranx compiles with numba on first use
@given(gold=GOLD, run=RUN)
def test_ranx_qrels_and_run_score_as_the_dicts_they_hold(gold, run):
    from ranx import Qrels, Run

    plain = {str(q): {str(d): 1 for d in docs} for q, docs in gold.items()}
    scored: dict[str, dict[str, float]] = {str(min(gold)): {"10": 100.0}}
    for i, (q, d) in enumerate(run):
        scored.setdefault(str(q), {}).setdefault(str(d), float(-i))
    measures = [ir_coliee.MicroP, ir_coliee.MicroF1, ir_coliee.MacroF2]
    expected = ir_coliee.calc_aggregate(measures, plain, scored)
    assert ir_coliee.calc_aggregate(measures, Qrels(plain), Run(scored)) == expected
    values = ir_coliee.score(Qrels(plain), Run(scored), measures=measures).table.iloc[0]
    assert [values[str(m)] for m in measures] == [expected[m] for m in measures]
    several = ir_coliee.score(
        Qrels(plain), {"a": Run(scored), "b": Run(scored)}, measures=measures
    ).table
    assert several["run"].tolist() == [
        "a",
        "b",
    ]  # ranx runs by name are several runs, each scored alike
    assert (
        several[[str(m) for m in measures]].values.tolist() == [[expected[m] for m in measures]] * 2
    )


def test_measures_given_as_a_generator_are_read_once_and_all_scored():
    import ir_measures

    gold, run = {"q": {"d": 1}}, {"q": {"d": 1.0, "e": 0.5}}
    expected = {ir_coliee.MicroF1: 2 / 3, ir_measures.AP: 1.0}
    assert ir_coliee.calc_aggregate((m for m in expected), gold, run) == expected
    assert {(m.measure, m.value) for m in ir_coliee.iter_calc(iter(expected), gold, run)} == {
        (ir_coliee.MicroF1, 2 / 3),
        (ir_measures.AP, 1.0),
    }
