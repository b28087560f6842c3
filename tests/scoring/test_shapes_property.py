"""Every verb takes every host shape alike (issue 33): ``score``, ``evaluate``, ``compare``, ``tune``,
``benchmark`` and ``write_run`` fed one run as a file, a dict, a PyTerrier result frame (qid as text or
as integers), a ranx Run, a list of ir_measures ScoredDoc and a generator of them, against one gold as a
file, a dict, a PyTerrier qrels frame, a ranx Qrels (and the sample release's dataset id), give the same
numbers: the official micro measures of the pairs, computed independently (``micro_reference``)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ir_measures import ScoredDoc
from support.cases import micro_reference

import ir_coliee

MEASURES = ["MicroP", "MicroR", "MicroF1"]

ids = st.integers(1, 9).map(lambda i: f"{i:06d}")
golds = st.dictionaries(ids, st.sets(ids, min_size=1, max_size=3), min_size=1, max_size=3)
pair_lists = st.lists(st.tuples(ids, ids), min_size=1, max_size=12, unique=True)


def _pyterrier(rows: list[tuple[str, str, float]], int_qids: bool) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    frame["rank"] = frame.groupby("qid").cumcount()
    return frame.astype({"qid": "int64"}) if int_qids else frame


def _plain(rows: list[tuple[str, str, float]]) -> dict[str, dict[str, float]]:
    plain: dict[str, dict[str, float]] = {}
    for q, d, s in rows:
        plain.setdefault(q, {})[d] = s
    return plain


def _ranx_run(rows: list[tuple[str, str, float]]) -> object:
    from ranx import Run

    return Run(_plain(rows))


#: The same run in every shape, made from its rows (and its official file) anew for each use: a generator
#: is read once.
RUN_SHAPES = {
    "file": lambda rows, path: str(path),
    "dict": lambda rows, path: _plain(rows),
    "PyTerrier frame, text qid": lambda rows, path: _pyterrier(rows, False),
    "PyTerrier frame, integer qid": lambda rows, path: _pyterrier(rows, True),
    "ranx Run": lambda rows, path: _ranx_run(rows),
    "ScoredDoc list": lambda rows, path: [ScoredDoc(*r) for r in rows],
    "ScoredDoc generator": lambda rows, path: (ScoredDoc(*r) for r in rows),
}


def _gold_shapes(gold: dict[str, set[str]], named: str) -> dict[str, object]:
    """The gold as named (a file or a dataset id), a dict, a PyTerrier qrels frame, a ranx Qrels."""
    from ranx import Qrels

    plain = {q: {d: 1 for d in sorted(docs)} for q, docs in gold.items()}
    frame = pd.DataFrame(
        [(q, d, 1) for q, docs in plain.items() for d in docs], columns=["qid", "docno", "label"]
    )
    return {
        "file or id": named,
        "dict": plain,
        "PyTerrier qrels frame": frame,
        "ranx Qrels": Qrels(plain),
    }


def _values(table: pd.DataFrame, row: int = 0) -> list[float]:
    return [float(table.iloc[row][m]) for m in MEASURES]


def _with_gold(gold: object, fresh) -> dict[str, list[float]]:
    """The micro measures of the run (``fresh()`` makes it anew: a generator is read once) through every
    verb that takes the gold in any shape; ``tune``: its best MicroF1 and the cutoff (rank) it is found at."""
    tuned = ir_coliee.tune(gold, fresh(), task=1, measure="MicroF1", max_rank=5).tuned
    return {
        "score": _values(ir_coliee.score(gold, fresh(), task=1).table),
        "evaluate": _values(ir_coliee.evaluate(gold, fresh(), MEASURES, task=1)),
        "compare": _values(
            ir_coliee.compare(gold, {"a": fresh(), "b": fresh()}, MEASURES, task=1, resamples=20), 1
        ),
        "tune": [tuned.value, tuned.cutoff],
    }


def _named_gold(benchmark_gold: str, fresh, folder: Path) -> dict[str, list[float]]:
    """The verbs whose gold is named (a file or a dataset id): ``benchmark``, and ``write_run``'s file scored."""
    result = ir_coliee.benchmark({benchmark_gold: {"a": fresh()}}, measures=MEASURES, resamples=20)
    written = ir_coliee.write_run(fresh(), folder / "written", format="trec", tag="w")
    return {
        "benchmark": [result.value((benchmark_gold, m), "a") for m in MEASURES],
        "write_run": _values(ir_coliee.score(benchmark_gold, written, task=1).table),
    }


def _every_verb_alike(
    golds: dict[str, object], named: str, rows, run_file, expected, folder: Path
) -> None:
    """Every verb, every gold shape, every run shape: the expected micro measures (``tune``: one answer)."""
    tuned = None
    for run_name, make in RUN_SHAPES.items():
        fresh = lambda make=make: make(rows, run_file)  # noqa: E731
        seen = {
            f"{verb}, gold as {name}": v
            for name, gold in golds.items()
            for verb, v in _with_gold(gold, fresh).items()
        }
        seen.update(_named_gold(named, fresh, folder))
        for verb, values in seen.items():
            if verb.startswith("tune"):
                tuned = tuned or values
                assert values == pytest.approx(tuned, abs=1e-12), (run_name, verb)
            else:
                assert values == pytest.approx(expected, abs=1e-12), (run_name, verb)


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@settings(max_examples=6, deadline=None)
@given(gold=golds, pairs=pair_lists)
def test_every_verb_gives_every_shape_the_same_numbers(tmp_path_factory, gold, pairs):
    folder = tmp_path_factory.mktemp("shapes")
    first = min(gold)
    pairs = [
        (first, min(gold[first])),
        *(p for p in pairs if p[0] != first),
    ]  # shares a query with the gold
    rows = [(q, d, float(len(pairs) - i)) for i, (q, d) in enumerate(pairs)]
    gold_file = folder / "task1_gold.json"
    gold_file.write_text(
        json.dumps({f"{q}.txt": sorted(f"{d}.txt" for d in ds) for q, ds in gold.items()})
    )
    run_file = folder / "task1.t"
    run_file.write_text("".join(f"{q} {d} t\n" for q, d, _ in rows))
    expected = [float(v) for v in micro_reference(gold, set(pairs))]
    _every_verb_alike(
        _gold_shapes(gold, str(gold_file)), str(gold_file), rows, run_file, expected, folder
    )


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
def test_the_sample_release_by_its_dataset_id_in_every_shape(tmp_path, monkeypatch):
    """The gold named by its dataset id too, with the sample's BM25 run of Task 1 2025 in every shape."""
    import ir_datasets

    from ir_coliee.extras.baseline import task1_run
    from ir_coliee.extras.demo import RELEASE

    monkeypatch.setenv("COLIEE_HOME", str(RELEASE))
    dataset = "coliee/task1/2025/test"
    plain = task1_run(ir_datasets.load(dataset))
    rows = [
        (q, d, s) for q, docs in plain.items() for d, s in sorted(docs.items(), key=lambda x: -x[1])
    ]
    run_file = tmp_path / "task1.bm25"
    ir_coliee.write_run(plain, run_file, format="pairs", tag="bm25")
    expected = _values(ir_coliee.score(dataset, plain).table)
    # BM25 top 5 of the sample: 8 of 25 retrieved are relevant, 8 of 10 relevant found
    assert expected == pytest.approx([8 / 25, 8 / 10, 2 * (8 / 25) * (8 / 10) / (8 / 25 + 8 / 10)])
    gold: dict[str, set[str]] = {}
    for q in ir_datasets.load(dataset).qrels_iter():
        gold.setdefault(q.query_id, set()).add(q.doc_id)
    _every_verb_alike(_gold_shapes(gold, dataset), dataset, rows, run_file, expected, tmp_path)


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
def test_task3_default_measures_are_one_set_for_every_shape_and_verb(tmp_path, monkeypatch):
    """No measures named: Task 3's official ones and its ranked ones "for discussion", whatever the run's
    shape (a scored TREC file, a pairs file ranked by line order, a dict, frames, ranx, ScoredDocs)."""
    import ir_datasets

    from ir_coliee.extras.baseline import task3_run
    from ir_coliee.extras.demo import RELEASE

    monkeypatch.setenv("COLIEE_HOME", str(RELEASE))
    dataset = "coliee/task3/2025/test"
    gold: dict[str, dict[str, int]] = {}
    for q in ir_datasets.load(dataset).qrels_iter():
        gold.setdefault(q.query_id, {})[q.doc_id] = q.relevance
    plain = task3_run(ir_datasets.load(dataset), 10)
    rows = [
        (q, d, s) for q, docs in plain.items() for d, s in sorted(docs.items(), key=lambda x: -x[1])
    ]
    shapes = {**RUN_SHAPES, "pairs file": lambda rows, path: str(tmp_path / "task3.pairs")}
    del shapes["PyTerrier frame, integer qid"]  # Task 3's question ids are no integers
    ir_coliee.write_run(plain, tmp_path / "task3.trec", format="trec", tag="bm25")
    ir_coliee.write_run(plain, tmp_path / "task3.pairs", format="pairs", tag="bm25")
    reference = ir_coliee.score(dataset, plain)
    measures = ["MacroP", "MacroR", "MacroF2", "AP", "Rprec", "R@5", "R@10", "R@30"]
    assert reference.measures == measures
    expected = [reference.rows[0][m] for m in measures]
    for name, make in shapes.items():
        run = lambda make=make: make(rows, tmp_path / "task3.trec")  # noqa: E731
        seen = {
            "score": ir_coliee.score(dataset, run()).table,
            "evaluate": ir_coliee.evaluate(dataset, run()),
            "evaluate, gold as a dict": ir_coliee.evaluate(gold, run(), task=3, year=2025),
            "compare": ir_coliee.compare(dataset, {"a": run(), "b": run()}, resamples=10).iloc[[1]],
        }
        for verb, table in seen.items():
            assert [c for c in table.columns if c in measures] == measures, (name, verb)
            assert _values_of(table, measures) == pytest.approx(expected, abs=1e-12), (name, verb)
        result = ir_coliee.benchmark({dataset: {"a": run()}}, resamples=10)
        assert [result.value((dataset, m), "a") for m in measures] == pytest.approx(
            expected, abs=1e-12
        ), name


def _values_of(table: pd.DataFrame, measures: list[str]) -> list[float]:
    return [float(table.iloc[0][m]) for m in measures]
