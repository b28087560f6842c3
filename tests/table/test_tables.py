"""A run's steps are taken in numpy (one engine), from the line reader's ``array.array`` columns or from
numpy arrays alike: the same values on every method, and counts equal to pytrec_eval's at every cutoff and
size, whatever the run (duplicates, ties, ids off the gold's convention, queries outside the gold)."""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ir_coliee
from ir_coliee.table.tables import CodedRun, GoldIds, align

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
        return CodedRun(
            query_ids,
            doc_ids,
            np.array(queries, dtype=np.int64),
            np.array(docs, dtype=np.int64),
            np.array(scores),
        )
    return CodedRun(query_ids, doc_ids, array("q", queries), array("q", docs), array("d", scores))


def every_step(run: CodedRun, gold: dict) -> tuple:
    aligned = align(run, GoldIds(gold))
    kept = [q != "q9" for q in run.query_ids]
    return (
        run.table(),
        run.lines_per_query(),
        run.docs_of_queries(kept),
        run.duplicates(lambda row: row),
        list(run),
        aligned.notes,
        aligned.run.table(),
        aligned.run.query_ids,
        aligned.run.doc_ids,
    )


@settings(max_examples=150, deadline=None)
@given(rows=lines, gold=golds)
def test_each_step_is_the_same_from_the_line_readers_columns_and_numpy(rows, gold) -> None:
    """The line reader's ``array.array`` columns become numpy arrays in the run: every step gives what it
    gives from numpy columns, and the table and line counts are those of the rows."""
    gold = {q: dict.fromkeys(docs, 1) for q, docs in gold.items()}
    steps = every_step(coded(rows, numpy=False), gold)
    assert steps == every_step(coded(rows, numpy=True), gold)
    best: dict[str, dict[str, float]] = {}
    for q, d, s in rows:
        best.setdefault(q, {})[d] = max(s, best.get(q, {}).get(d, s))
    assert steps[0] == best
    assert steps[1] == [sum(q == query for q, _, _ in rows) for query in best]


def pytrec_counts(gold: dict, rows: list, cutoff: int) -> dict[str, tuple[int, int]]:
    """Each gold query's relevant documents retrieved and documents retrieved in the top ``cutoff``, from
    pytrec_eval (an independent implementation of trec_eval's order) through ir_measures: ``P@k`` is
    relevant retrieved over ``k``."""
    import ir_measures
    from ir_measures import P, ScoredDoc

    best: dict[tuple[str, str], float] = {}
    for q, d, s in rows:
        best[q, d] = max(s, best.get((q, d), s))
    run = [ScoredDoc(q, d, s) for (q, d), s in best.items()]
    found = {m.query_id: m.value for m in ir_measures.iter_calc([P @ cutoff], gold, run)}
    return {
        q: (round(found.get(q, 0.0) * cutoff), min(cutoff, sum(qq == q for qq, _ in best)))
        for q in gold
    }


def agree_with_pytrec_eval(rows: list, gold: dict, numpy: bool) -> None:
    """ir_coliee's counts of ``rows`` against ``gold`` at cutoffs 1, 2, 3 and none: those of pytrec_eval."""
    run = coded(rows, numpy)
    for cutoff in (1, 2, 3, None):
        measures = [ir_coliee.MicroP(cutoff=cutoff) if cutoff else ir_coliee.MicroP]
        counted = {
            m.query_id: (m.value.tp, m.value.retrieved)
            for m in ir_coliee.calc(measures, gold, run).per_query
        }
        assert counted == pytrec_counts(gold, rows, cutoff or len(rows)), cutoff


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@settings(max_examples=150, deadline=None)
@given(rows=lines, gold=golds, numpy=st.booleans())
def test_counts_at_every_cutoff_are_pytrec_evals(rows, gold, numpy) -> None:
    """Duplicates, ties of score (broken by doc id, descending), ids off the gold's convention kept out of
    it (pytrec_eval reads them as written: the gold here is in one convention), queries outside the gold."""
    gold = {q: dict.fromkeys(docs, 1) for q, docs in gold.items()}
    rows = [(q, d, s) for q, d, s in rows if d in {"010", "011", "012", "013", "014"} and q != "q9"]
    agree_with_pytrec_eval(rows, gold, numpy)


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@pytest.mark.parametrize("size", [1, 100, 29_999, 30_001])
def test_counts_of_longer_runs_are_pytrec_evals(size: int) -> None:
    """The sizes around the former limit of a plain-Python path (30,000 lines), and below: one engine."""
    import random

    rng = random.Random(size)
    queries = [f"{i:03d}" for i in range(1 + size // 400)]
    gold = {q: {f"{d:04d}": 1 for d in rng.sample(range(900), 5)} for q in queries[1:]}
    rows = [
        (rng.choice(queries), f"{rng.randrange(900):04d}", float(rng.randrange(20)))
        for _ in range(size)
    ]
    for numpy in (False, True):
        agree_with_pytrec_eval(rows, gold, numpy)


def test_a_hand_case() -> None:
    """tp 1 + 1 = 2, retrieved 2 + 1 = 3 (the pair given twice counts once), relevant 2 + 1 = 3."""
    gold = {"001": {"010": 1, "011": 1}, "002": {"012": 1}}
    rows = [("001", "010", 2.0), ("001", "013", 1.0), ("001", "010", 0.5), ("002", "012", 1.0)]
    for numpy in (False, True):
        values = ir_coliee.calc_aggregate(
            [ir_coliee.MicroP, ir_coliee.MicroR], gold, coded(rows, numpy)
        )
        assert values == {ir_coliee.MicroP: 2 / 3, ir_coliee.MicroR: 2 / 3}


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
