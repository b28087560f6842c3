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
from ir_coliee.table import tables
from ir_coliee.table.shapes import GoldIds, align
from ir_coliee.table.tables import CodedRun

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
    st.tuples(st.sampled_from(QUERIES), st.sampled_from(DOCS), st.integers(0, 5).map(float)),
    min_size=1,
    max_size=40,
)
golds = st.dictionaries(
    st.sampled_from(QUERIES[:3]),
    st.sets(st.sampled_from(["010", "011", "012", "013"]), min_size=1),
    min_size=1,
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
        values = ir_coliee.calc_aggregate(
            [ir_coliee.MicroP, ir_coliee.MicroR], gold, coded(rows, numpy)
        )
        assert values == {ir_coliee.MicroP: 2 / 3, ir_coliee.MicroR: 2 / 3}


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@settings(max_examples=150, deadline=None)
@given(rows=lines, gold=golds, max_rank=st.integers(1, 12))
def test_tuning_a_short_run_gives_the_curve_of_the_numpy_ranking(rows, gold, max_rank) -> None:
    """Rank cutoffs of a short run are tuned in plain Python: every point of every curve equals the numpy
    ranking's, to the last digit (ties of score broken by doc id, pairs given twice, macro and micro)."""
    from ir_coliee.scoring.tune import tune_cutoff

    gold = {q: dict.fromkeys(docs, 1) for q, docs in gold.items()}
    for measure in MEASURES:
        short = tune_cutoff(gold, coded(rows, numpy=False), measure, max_rank=max_rank)
        long = tune_cutoff(gold, coded(rows, numpy=True), measure, max_rank=max_rank)
        assert short.points == long.points and (short.cutoff, short.value) == (
            long.cutoff,
            long.value,
        )


def test_a_short_run_is_tuned_by_hand() -> None:
    """q1 ranks 013 (relevant), 020, 010 (relevant; 010 and 020 tie at 1.0, 020 first: doc id descending);
    q2 ranks 011 (relevant). Top 1: tp 2 of 2 retrieved, 3 relevant -> MicroF1 = 2 (1 x 2/3) / (1 + 2/3) = 4/5;
    top 2: tp 2 of 3 -> P 2/3, R 2/3, F1 2/3; top 3: tp 3 of 4 -> P 3/4, R 1, F1 6/7."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom array import array\nfrom ir_coliee.table.tables import CodedRun\nfrom ir_coliee.scoring.tune import tune_cutoff\n"
        "run = CodedRun(['q1', 'q2'], ['013', '010', '020', '011'], array('q', [0, 0, 0, 1]), array('q', [0, 1, 2, 3]),"
        " array('d', [2.0, 1.0, 1.0, 5.0]))\n"
        "gold = {'q1': {'013': 1, '010': 1}, 'q2': {'011': 1}}\n"
        "t = tune_cutoff(gold, run, 'MicroF1')\nprint(t.points)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    points = eval(out[0])
    assert points == [
        (1.0, pytest.approx(4 / 5)),
        (2.0, pytest.approx(2 / 3)),
        (3.0, pytest.approx(6 / 7)),
    ]
