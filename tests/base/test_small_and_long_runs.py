"""A run's per-line steps run in plain Python below ``SMALL_RUN`` lines and in numpy above it: the two must
give the same values on every method and every score, whatever the run (duplicates, ids off the gold's
convention, queries outside the gold)."""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ir_coliee
from ir_coliee import tables
from ir_coliee.shapes import GoldIds, align
from ir_coliee.tables import CodedRun

QUERIES = ["001", "002", "003", "q9"]
DOCS = ["010", "011", "012", "013", "10", "11.txt", "014"]
MEASURES = [
    ir_coliee.MicroP,
    ir_coliee.MicroR,
    ir_coliee.MicroF1,
    ir_coliee.MacroP,
    ir_coliee.MacroF2,
    ir_coliee.MicroF1 @ 2,
]

lines = st.lists(
    st.tuples(st.sampled_from(QUERIES), st.sampled_from(DOCS), st.integers(0, 5).map(float)), min_size=1, max_size=40
)
golds = st.dictionaries(
    st.sampled_from(QUERIES[:3]), st.sets(st.sampled_from(["010", "011", "012", "013"]), min_size=1), min_size=1
)


def coded(rows: list[tuple[str, str, float]], numpy: bool) -> CodedRun:
    """The same rows as codes in ``array.array`` (the line reader's) or in numpy arrays."""
    query_ids = list(dict.fromkeys(q for q, _, _ in rows))
    doc_ids = list(dict.fromkeys(d for _, d, _ in rows))
    queries = [query_ids.index(q) for q, _, _ in rows]
    docs = [doc_ids.index(d) for _, d, _ in rows]
    scores = [s for _, _, s in rows]
    if numpy:
        return CodedRun(query_ids, doc_ids, np.array(queries), np.array(docs), np.array(scores))
    return CodedRun(query_ids, doc_ids, array("q", queries), array("q", docs), array("d", scores))


def every_step(run: CodedRun, gold: dict) -> tuple:
    aligned = align(run, GoldIds(gold))
    kept = [q != "q9" for q in run.query_ids]
    return (
        run.table(),
        run.lines_per_query(),
        run.query_set(),
        run.docs_of_queries(kept),
        run.repeated(),
        list(run),
        aligned.notes,
        aligned.run.table(),
        aligned.run.query_ids,
        aligned.run.doc_ids,
    )


@settings(max_examples=150, deadline=None)
@given(rows=lines, gold=golds, numpy=st.booleans())
def test_each_step_is_the_same_in_python_and_numpy(rows, gold, numpy) -> None:
    gold = {q: dict.fromkeys(docs, 1) for q, docs in gold.items()}
    small = every_step(coded(rows, numpy), gold)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables, "SMALL_RUN", 0)
        assert coded(rows, numpy).small is False
        long = every_step(coded(rows, numpy), gold)
    assert small == long


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@settings(max_examples=150, deadline=None)
@given(rows=lines, gold=golds)
def test_scores_are_the_same_in_python_and_numpy(rows, gold) -> None:
    gold = {q: dict.fromkeys(docs, 1) for q, docs in gold.items()}
    if not {q for q, _, _ in rows} & set(gold):
        return
    small = ir_coliee.calc(MEASURES, gold, coded(rows, numpy=False))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables, "SMALL_RUN", 0)
        long = ir_coliee.calc(MEASURES, gold, coded(rows, numpy=False))
    assert small.aggregated == long.aggregated
    assert [(m.query_id, str(m.measure), m.value) for m in small.per_query] == [
        (m.query_id, str(m.measure), m.value) for m in long.per_query
    ]


@pytest.mark.parametrize("small_run", [10**9, 0])
def test_a_hand_case_on_both_paths(small_run: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """tp 1 + 1 = 2, retrieved 2 + 1 = 3 (the pair given twice counts once), relevant 2 + 1 = 3."""
    monkeypatch.setattr(tables, "SMALL_RUN", small_run)
    gold = {"001": {"010": 1, "011": 1}, "002": {"012": 1}}
    rows = [("001", "010", 2.0), ("001", "013", 1.0), ("001", "010", 0.5), ("002", "012", 1.0)]
    for numpy in (False, True):
        values = ir_coliee.calc_aggregate([ir_coliee.MicroP, ir_coliee.MicroR], gold, coded(rows, numpy))
        assert values == {ir_coliee.MicroP: 2 / 3, ir_coliee.MicroR: 2 / 3}
