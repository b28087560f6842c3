"""``ir_coliee.Experiment``: ``pt.Experiment``'s table, with the test valid for each measure (the p-value of
``ir_coliee compare``): randomization on counts beside micro measures, on per-query values beside means."""

from __future__ import annotations

import math

import pandas as pd
import pyterrier as pt
import pytest

import ir_coliee

TOPICS = pd.DataFrame({"qid": [f"q{i}" for i in range(8)], "query": ["x"] * 8})
QRELS = pd.DataFrame(
    {
        "qid": [f"q{i}" for i in range(8) for _ in (0, 1)],
        "docno": [f"d{i + j}" for i in range(8) for j in (0, 1)],
        "label": 1,
    }
)


def _run(shift: int, k: int) -> pd.DataFrame:
    rows = [(f"q{i}", f"d{i + shift + j}", float(10 - j)) for i in range(8) for j in range(k)]
    return pt.model.add_ranks(pd.DataFrame(rows, columns=["qid", "docno", "score"]))


def test_every_p_value_is_compares_micro_measures_and_means_alike():
    a, b, c = _run(0, 2), _run(1, 3), _run(0, 1)
    systems = [a, pt.Transformer.from_df(b), c]  # a transformer is run once, on the topics
    metrics = [ir_coliee.MicroF1, "map"]
    ours = ir_coliee.Experiment(
        systems,
        TOPICS,
        QRELS,
        metrics,
        names=["a", "b", "c"],
        baseline=0,
        correction="holm",
        resamples=2000,
    )
    theirs = pt.Experiment(
        [a, b, c], TOPICS, QRELS, metrics, names=["a", "b", "c"], baseline=0, correction="holm"
    )
    runs = {
        n: r.rename(columns={"qid": "query_id", "docno": "doc_id"})[["query_id", "doc_id", "score"]]
        for n, r in zip("abc", (a, b, c))
    }
    gold = {q: {d: 1 for d in g["docno"]} for q, g in QRELS.groupby("qid")}
    compared = ir_coliee.compare(
        gold, runs, [ir_coliee.MicroF1, "AP"], resamples=2000, correction="none"
    )
    assert math.isnan(ours.loc[0, "MicroF1 p-value"])
    assert list(ours["MicroF1 p-value"][1:]) == list(compared["MicroF1 p-value"][1:])
    # b: per query 1 of 3 retrieved right against 2 of 2: P 8/24, R 8/16, F1 2/5; c: P 1, R 1/2, F1 2/3
    assert list(ours["MicroF1"]) == pytest.approx([1.0, 2 / 5, 2 / 3])
    # map (trec_eval's name of AP): compare's paired randomization on per-query AP, not PyTerrier's t-test
    assert list(ours["map p-value"][1:]) == list(compared["AP p-value"][1:])
    assert list(ours["map p-value"][1:]) != list(theirs["map p-value"][1:])
    assert ours.attrs["tests"] == {
        "MicroF1": "randomization on counts",
        "map": "randomization on values",
    }
    assert list(ours["MicroF1"]) == list(theirs["MicroF1"])
    # corrected as pt.Experiment corrects: Holm over the two systems, on the randomization p-values
    p1, p2 = compared["MicroF1 p-value"][1:]
    low, high = sorted((p1, p2))
    holm = {low: min(1.0, 2 * low), high: max(min(1.0, 2 * low), high)}
    assert list(ours["MicroF1 p-value corrected"][1:]) == pytest.approx([holm[p1], holm[p2]])


def test_without_a_baseline_the_table_is_pyterriers():
    a, b = _run(0, 2), _run(1, 3)
    ours = ir_coliee.Experiment([a, b], TOPICS, QRELS, [ir_coliee.MicroF1], names=["a", "b"])
    theirs = pt.Experiment([a, b], TOPICS, QRELS, [ir_coliee.MicroF1], names=["a", "b"])
    pd.testing.assert_frame_equal(ours, theirs)


def test_get_results_stores_each_query_text_once_and_equals_pyterriers(monkeypatch):
    """``coliee:`` datasets give the same candidates as PyTerrier's ``irds:`` wrapper, with the topic columns
    as categoricals: PyTerrier copies a Task 1 query case into each of its ~2,000 candidate rows."""
    from ir_coliee.extras.demo import RELEASE

    monkeypatch.setenv("COLIEE_HOME", str(RELEASE))
    from ir_coliee.data.locator import refresh

    refresh()
    ours = pt.get_dataset("coliee:task1/2025/test").get_results()
    theirs = pt.get_dataset("irds:coliee/task1/2025/test").get_results()
    assert isinstance(ours["query"].dtype, pd.CategoricalDtype)
    assert len(ours["query"].cat.categories) == ours["qid"].nunique()
    pd.testing.assert_frame_equal(
        ours.astype({"query": object}), theirs.astype({"query": object}), check_dtype=False
    )
    # the query texts (the other columns are alike, and their size depends on pandas' string type)
    assert ours["query"].memory_usage(deep=True) * 10 < theirs["query"].memory_usage(deep=True)
    refresh()


def test_a_benchmark_runs_a_pyterrier_transformer_on_the_datasets_topics(monkeypatch):
    from ir_coliee.data.locator import refresh
    from ir_coliee.extras.demo import RELEASE

    monkeypatch.setenv("COLIEE_HOME", str(RELEASE))
    refresh()
    gold = ir_coliee.load_gold("coliee/task1/2025/test").tables["documents"]
    rows = [
        (q, d, 1.0) for q, docs in gold.items() for d in sorted(docs)[:1]
    ]  # one right case a query
    frame = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    wrong = frame.assign(docno="999999")
    result = ir_coliee.benchmark(
        {"coliee/task1/2025/test": {"wrong": wrong, "right": pt.Transformer.from_df(frame)}},
        resamples=100,
    )
    cell = ("coliee/task1/2025/test", "MicroP")
    assert result.value(cell, "right") == 1.0 and result.value(cell, "wrong") == 0.0
    relevant = sum(len(d) for d in gold.values())
    assert result.value(("coliee/task1/2025/test", "MicroR"), "right") == pytest.approx(
        len(gold) / relevant
    )
    refresh()


def test_highlighted_and_per_query_tables_keep_their_shape():
    a, b = _run(0, 2), _run(1, 3)
    args = ([a, b], TOPICS, QRELS, [ir_coliee.MicroF1])
    styled = ir_coliee.Experiment(
        *args, names=["a", "b"], baseline=0, highlight="bold", resamples=500
    )
    plain = ir_coliee.Experiment(*args, names=["a", "b"], baseline=0, resamples=500)
    assert (
        styled.data.loc[1, "MicroF1 p-value"] == plain.loc[1, "MicroF1 p-value"]
    )  # replaced under the style too
    per_query = ir_coliee.Experiment(*args, names=["a", "b"], perquery=True)
    pd.testing.assert_frame_equal(per_query, pt.Experiment(*args, names=["a", "b"], perquery=True))
    # systems by name, the baseline by name too
    named = ir_coliee.Experiment({"a": a, "b": b}, *args[1:], baseline="a", resamples=500)
    assert named.loc[1, "MicroF1 p-value"] == plain.loc[1, "MicroF1 p-value"]


def test_integer_topic_ids_give_the_p_values_of_string_ids():
    """PyTerrier frames with integer qids (topics read from a numbered file): the gold and the runs are read
    with one id converter, so the test sees the same queries as with string ids."""
    a, b = _run(0, 2), _run(1, 3)
    as_int = {"qid": lambda f: f["qid"].str[1:].astype(int)}
    strings = ir_coliee.Experiment(
        [a, b], TOPICS, QRELS, [ir_coliee.MicroF1], baseline=0, resamples=500
    )
    integers = ir_coliee.Experiment(
        [a.assign(**as_int), b.assign(**as_int)],
        TOPICS.assign(**as_int),
        QRELS.assign(**as_int),
        [ir_coliee.MicroF1],
        baseline=0,
        resamples=500,
    )
    assert list(integers["MicroF1"]) == pytest.approx([1.0, 2 / 5])
    assert list(integers["MicroF1 p-value"][1:]) == list(strings["MicroF1 p-value"][1:])
    assert integers["MicroF1 p-value"][1] < 1.0  # a real test on shared queries, not all ties


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@pytest.mark.parametrize("experiment", [pt.Experiment, ir_coliee.Experiment])
def test_float_topic_ids_score_as_string_ids_in_both_experiments(experiment):
    """Topics read with a missing value somewhere have float qids: PyTerrier hands our provider the run's as
    text (``'1.0'``) and the qrels' as numbers (read ``'1'``). That was a silent MicroF1 of 0.0 in plain
    ``pt.Experiment``; the ids are now one query, and the value is that of string ids."""
    a, b = _run(0, 2), _run(1, 3)
    as_float = {"qid": lambda f: f["qid"].str[1:].astype(float)}
    strings = experiment([a, b], TOPICS, QRELS, [ir_coliee.MicroF1, ir_coliee.MicroP])
    floats = experiment(
        [a.assign(**as_float), b.assign(**as_float)],
        TOPICS.assign(**as_float),
        QRELS.assign(**as_float),
        [ir_coliee.MicroF1, ir_coliee.MicroP],
    )
    # a: every line a hit; b: 1 hit of 3 lines per query, 2 relevant each: P 8/24, R 8/16, F1 2/5
    assert list(floats["MicroF1"]) == list(strings["MicroF1"]) == pytest.approx([1.0, 2 / 5])
    assert list(floats["MicroP"]) == list(strings["MicroP"]) == pytest.approx([1.0, 8 / 24])


def test_answer_accuracy_gets_exact_mcnemar_as_in_compare():
    """Y/N answers as PyTerrier frames (docno: the answer): the p-value beside AnswerAccuracy is compare's
    exact McNemar, not a t-test on 0/1 outcomes."""
    topics = pd.DataFrame({"qid": [f"q{i}" for i in range(12)], "query": ["x"] * 12})
    gold = pd.DataFrame({"qid": topics["qid"], "docno": ["Y"] * 12, "label": 1})

    def answers(right: int) -> pd.DataFrame:
        frame = pd.DataFrame(
            {"qid": topics["qid"], "docno": ["Y"] * right + ["N"] * (12 - right), "score": 1.0}
        )
        return pt.model.add_ranks(frame)

    a, b = (
        answers(11),
        answers(4),
    )  # b is wrong on 7 questions a gets right, right on none a gets wrong
    ours = ir_coliee.Experiment(
        [a, b], topics, gold, [ir_coliee.AnswerAccuracy], names=["a", "b"], baseline=0
    )
    compared = ir_coliee.compare(
        gold, {"a": a, "b": b}, [ir_coliee.AnswerAccuracy], correction="none"
    )
    assert compared.attrs["tests"]["AnswerAccuracy"].startswith("exact McNemar")
    assert (
        ours.loc[1, "AnswerAccuracy p-value"]
        == compared.loc["b", "AnswerAccuracy p-value"]
        == 2 * 0.5**7
    )
    assert list(ours["AnswerAccuracy"]) == pytest.approx([11 / 12, 4 / 12])


def test_it_is_pt_experiment_with_reuse_batches_timing_and_saved_valid_p_values(tmp_path):
    import json

    calls: list[int] = []

    class Counting(pt.Transformer):
        def __init__(self, frame: pd.DataFrame):
            self.frame = frame

        def transform(self, topics: pd.DataFrame) -> pd.DataFrame:
            calls.append(len(topics))
            return self.frame[self.frame["qid"].isin(topics["qid"])]

    a, b = _run(0, 2), _run(1, 3)
    systems = [Counting(a), Counting(b)]
    options = dict(
        names=["a", "b"], baseline=0, resamples=2000, save_dir=str(tmp_path), save_mode="reuse"
    )
    first = ir_coliee.Experiment(
        systems, TOPICS, QRELS, [ir_coliee.MicroF1, "mrt"], batch_size=3, **options
    )
    assert [n for n in calls if n] == [
        3,
        3,
        2,
        3,
        3,
        2,
    ]  # PyTerrier ran each system, in batches of 3 topics
    assert (first["mrt"] > 0).all()  # and timed it
    gold = {q: {d: 1 for d in g["docno"]} for q, g in QRELS.groupby("qid")}
    runs = {
        n: r.rename(columns={"qid": "query_id", "docno": "doc_id"}) for n, r in (("a", a), ("b", b))
    }
    compared = ir_coliee.compare(
        gold, runs, [ir_coliee.MicroF1, "AP"], resamples=2000, correction="none"
    )
    valid = compared.loc["b", "MicroF1 p-value"]
    assert first.loc[1, "MicroF1 p-value"] == valid and first.attrs["tests"] == {
        "MicroF1": "randomization on counts"
    }
    # the saved table carries the p-value the returned one does, and the file beside it names the test
    assert (
        float(
            pd.read_csv(tmp_path / "aggregated.csv", dtype=str)
            .set_index("name")
            .loc["b", "MicroF1 p-value"]
        )
        == valid
    )
    assert json.loads((tmp_path / "significance.json").read_text())["tests"] == {
        "MicroF1": "randomization on counts"
    }
    calls.clear()
    again = ir_coliee.Experiment(systems, TOPICS, QRELS, [ir_coliee.MicroF1], **options)
    assert [
        n for n in calls if n
    ] == []  # reused: PyTerrier read the saved runs, no system ran again
    assert again.loc[1, "MicroF1 p-value"] == valid  # from the runs PyTerrier read back


@pytest.mark.parametrize("save_format", ["trec", "pickle"])
def test_reuse_reads_back_each_save_format_and_the_saved_table_keeps_every_name(
    tmp_path, save_format
):
    import pickle

    fmt = pickle if save_format == "pickle" else "trec"
    a, b = _run(0, 2), _run(1, 3)
    systems = [pt.Transformer.from_df(a), pt.Transformer.from_df(b)]
    names = ["1", "NA"]  # a name that reads as a number, and one that reads as missing
    options = dict(
        names=names,
        baseline=0,
        resamples=2000,
        save_dir=str(tmp_path),
        save_mode="reuse",
        save_format=fmt,
    )
    first = ir_coliee.Experiment(systems, TOPICS, QRELS, [ir_coliee.MicroF1], **options)
    saved = pd.read_csv(tmp_path / "aggregated.csv", dtype={"name": str}, keep_default_na=False)
    assert saved["name"].tolist() == names
    assert (
        float(saved.set_index("name").loc["NA", "MicroF1 p-value"])
        == first.loc[1, "MicroF1 p-value"]
    )
    # (a second call: PyTerrier itself re-reads such names as 1.0 and NaN and keeps them as other runs' rows)
    again = ir_coliee.Experiment(systems, TOPICS, QRELS, [ir_coliee.MicroF1], **options)
    assert again.loc[1, "MicroF1 p-value"] == first.loc[1, "MicroF1 p-value"] < 0.05


def test_a_system_that_returns_nothing_is_named_not_called_a_bug():
    empty = pt.apply.generic(lambda topics: pd.DataFrame(columns=["qid", "docno", "score", "rank"]))
    with pytest.raises(ir_coliee.ColieeError) as refused:
        ir_coliee.Experiment(
            [_run(0, 2), empty],
            TOPICS,
            QRELS,
            [ir_coliee.MicroF1],
            names=["a", "empty"],
            baseline=0,
        )
    assert (
        str(refused.value)
        == "Experiment: 8 topics, but no results received from system 'empty' (pt.apply.generic())"
    )


def test_an_unknown_correction_is_the_callers_error():
    """PyTerrier's corrections are statsmodels' (``fdr_bh`` too); a name it does not know is said as such."""
    args = ([_run(0, 2), _run(1, 3)], TOPICS, QRELS, [ir_coliee.MicroF1])
    taken = ir_coliee.Experiment(
        *args, names=["a", "b"], baseline=0, correction="fdr_bh", resamples=100
    )
    assert "MicroF1 p-value corrected" in taken.columns
    with pytest.raises(ir_coliee.ColieeArgumentError) as refused:
        ir_coliee.Experiment(
            *args, names=["a", "b"], baseline=0, correction="nosuch", resamples=100
        )
    assert str(refused.value) == "Experiment: unknown correction 'nosuch': method not recognized"


def test_dict_and_tuple_results_are_pyterriers_and_the_saved_table_gets_the_valid_p_values(
    tmp_path,
):
    """``dataframe=False`` gives PyTerrier's dict of means (no p-value in it; the ``aggregated.csv`` it saves
    has them: the valid ones, as with a table), ``perquery="both"`` its (averages, per query) tuple."""
    a, b = _run(0, 2), _run(1, 3)
    args = ([a, b], TOPICS, QRELS, [ir_coliee.MicroF1, "map"])
    theirs = pt.Experiment(*args, names=["a", "b"], baseline=0, dataframe=False)
    ours = ir_coliee.Experiment(
        *args, names=["a", "b"], baseline=0, dataframe=False, save_dir=str(tmp_path), resamples=500
    )
    assert ours == theirs and ours["b"]["MicroF1"] == pytest.approx(2 / 5)
    table = ir_coliee.Experiment(*args, names=["a", "b"], baseline=0, resamples=500)
    # the text as written, read by float(): pandas before 3.0 reads a float to within one unit in its last digit
    saved = pd.read_csv(tmp_path / "aggregated.csv", dtype=str)
    theirs_table = pt.Experiment(*args, names=["a", "b"], baseline=0)  # its t-test
    assert float(saved.loc[1, "MicroF1 p-value"]) == table.loc[1, "MicroF1 p-value"]
    assert (
        float(saved.loc[1, "map p-value"])
        == table.loc[1, "map p-value"]
        != theirs_table.loc[1, "map p-value"]
    )
    assert ir_coliee.Experiment(*args, names=["a", "b"], dataframe=False) == pt.Experiment(
        *args, names=["a", "b"], dataframe=False
    )
    both = ir_coliee.Experiment(*args, names=["a", "b"], perquery="both")
    expected = pt.Experiment(*args, names=["a", "b"], perquery="both")
    pd.testing.assert_frame_equal(both.averages, expected.averages)
    pd.testing.assert_frame_equal(both.perquery, expected.perquery)


def test_pyterriers_own_refusals_of_its_arguments_pass_through_unchanged():
    args = ([_run(0, 2), _run(1, 3)], TOPICS, QRELS)
    with pytest.raises(
        AssertionError
    ) as refused:  # PyTerrier gives no per-query table with a baseline
        ir_coliee.Experiment(
            *args, [ir_coliee.MicroF1], names=["a", "b"], perquery=True, baseline=0
        )
    assert type(refused.value) is AssertionError
    with pytest.raises(Exception) as unknown:
        pt.Experiment(*args, ["nosuch"], names=["a", "b"])
    with pytest.raises(type(unknown.value)) as ours:
        ir_coliee.Experiment(*args, ["nosuch"], names=["a", "b"])
    assert str(ours.value) == str(unknown.value) and "bug" not in str(ours.value)
    with pytest.raises(ir_coliee.ColieeArgumentError) as named:
        ir_coliee.Experiment(*args, [ir_coliee.MicroF1], names=["a", "b"], baseline="nope")
    assert str(named.value) == "Experiment: unknown baseline 'nope'; the systems are a, b"


@pytest.mark.parametrize(
    "bad",
    [
        {"resamples": 0},
        {"resamples": 1.5},
        {"seed": -1},
        {"correction": "nosuch"},
        {"correction_alpha": 2.0},
        {"baseline": 2},
        {"baseline": -1},
    ],
)
def test_arguments_are_refused_before_any_system_runs(tmp_path, bad):
    ran = []

    class Counting(pt.Transformer):
        def transform(self, topics: pd.DataFrame) -> pd.DataFrame:
            ran.append(len(topics))
            return _run(0, 2)

    with pytest.raises(ir_coliee.ColieeArgumentError, match=next(iter(bad))):
        ir_coliee.Experiment(
            [Counting(), Counting()],
            TOPICS,
            QRELS,
            [ir_coliee.MicroF1],
            **{"baseline": 0, "save_dir": str(tmp_path), **bad},
        )
    assert ran == [] and list(tmp_path.iterdir()) == []


def test_two_experiments_in_one_save_dir_keep_every_columns_test(tmp_path):
    import json

    args = (TOPICS, QRELS)
    options = dict(baseline=0, resamples=200, save_dir=str(tmp_path))
    ir_coliee.Experiment([_run(0, 2), _run(1, 3)], *args, ["map"], names=["a", "b"], **options)
    second = ir_coliee.Experiment(
        [_run(0, 1), _run(1, 2)], *args, [ir_coliee.MicroF1], names=["c", "d"], **options
    )
    saved = pd.read_csv(tmp_path / "aggregated.csv", float_precision="round_trip").set_index("name")
    assert saved.loc["d", "MicroF1 p-value"] == second.loc[1, "MicroF1 p-value"]
    assert not math.isnan(saved.loc["b", "map p-value"])  # the first experiment's row, kept
    assert json.loads((tmp_path / "significance.json").read_text()) == {
        "tests": {"map": "randomization on values", "MicroF1": "randomization on counts"}
    }
