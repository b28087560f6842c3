"""``pt.Experiment`` whose p-values are valid for every measure, micro ones included.

PyTerrier tests a difference with a paired test on per-query values (``stats.ttest_rel`` by default): it
passes plain per-query floats to the test, so the counts behind a micro score never reach it. A micro
score (COLIEE Tasks 1 and 2: ``MicroP``, ``MicroR``, ``MicroF1``) is not the mean of its per-query values:
each query's value is that query's own precision, recall or F1, and a t-test on them tests their mean,
another quantity than the score in the table (COLIEE-SPEC section 7).

:func:`Experiment` is ``pt.Experiment`` itself, called with the same arguments (batches, ``save_dir`` and
``save_mode="reuse"``, ``mrt``, ``perquery``, ``highlight``, ``plan``): each system is handed to it wrapped so
that the results PyTerrier runs (or reads back from ``save_dir``) are kept, and only the significance
columns change, each measure getting the test valid for it (:func:`ir_coliee.measures.significance.significance_test`):
beside a micro measure, the paired randomization test on the per-query counts that recomputes the micro
score on every resample; beside a mean (MacroF2, AP or ``map``, ...), the same test on per-query values;
beside answer accuracy, exact McNemar (the tests of ``ir_coliee compare`` and ``benchmark``, same
``resamples`` and ``seed``: the same p-values), corrected as ``pt.Experiment`` corrects (``correction``,
statsmodels' methods). The ``+``
and ``-`` columns still count the queries whose own value is higher or lower. With ``save_dir``, the
``aggregated.csv`` PyTerrier writes gets the same p-values, and ``significance.json`` beside it names the
test of each replaced column (``frame.attrs["tests"]`` in the table returned). The wrapping hides a
pipeline's structure, so ``precompute_prefix`` computes no shared prefix.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import pandas as pd
from ir_measures.measures.base import Measure

from ir_coliee.errors import ColieeArgumentError, ColieeError, hosted
from ir_coliee.measures.parse import parse_measures
from ir_coliee.measures.significance import resampling_arguments, significance_test
from ir_coliee.scoring.compare import compare_rows
from ir_coliee.table.tables import gold_table


def _recording(system: Any, kept: list[pd.DataFrame], name: str) -> Any:
    """``system`` as PyTerrier runs it (batches, timing, saving), keeping each batch of results it returns,
    so that the valid test scores the very run PyTerrier scored. A results DataFrame is its own results."""
    import pyterrier as pt

    if hasattr(system, "columns"):
        kept.append(system)
        return system

    class Recorded(pt.Transformer):
        def transform(self, topics: pd.DataFrame) -> pd.DataFrame:
            out = system.transform(topics) if hasattr(system, "transform") else system(topics)
            kept.append(out)
            return out

        # PyTerrier's errors name a system by it: the user's, not this wrapper
        def __repr__(self) -> str:
            return f"system {name!r} ({system!r})"

    return Recorded()


def _run_of(kept: list[pd.DataFrame], name: str, options: dict[str, Any]) -> pd.DataFrame:
    """The results PyTerrier scored for ``name``: the batches it ran, else (``save_mode="reuse"``) the file
    it read from ``save_dir`` instead of running the system, read as PyTerrier reads it. (PyTerrier's
    inspection may call a system on no topics: those empty frames are no results.)"""
    ran = [k for k in kept if len(k)]
    if ran:
        return pd.concat(ran, ignore_index=True)
    saved = _saved_results(name, options)
    if saved is not None:
        return saved
    if kept:
        return kept[0]  # a system that retrieved nothing
    raise ColieeError(f"PyTerrier returned no results of {name!r}")


def _saved_results(name: str, options: dict[str, Any]) -> Optional[pd.DataFrame]:
    """The results PyTerrier saved for ``name`` in ``save_dir``, in its ``save_format`` (trec, a module such
    as pickle, or a (reader, writer) pair), or ``None``."""
    import pyterrier as pt

    save_dir, save_format = options.get("save_dir"), options.get("save_format", "trec")
    if save_dir is None:
        return None
    extension = (
        "res.gz" if save_format == "trec" else "custom" if isinstance(save_format, tuple) else "mod"
    )
    path = os.path.join(save_dir, f"{name}.{extension}")
    if not os.path.exists(path):
        return None
    if save_format == "trec":
        return pt.io.read_results(path)
    with open(path, "rb") as f:
        return save_format[0](f) if isinstance(save_format, tuple) else save_format.load(f)


def _named(retr_systems: Any, names: Optional[Sequence[str]]) -> tuple[list[Any], list[str]]:
    if isinstance(retr_systems, Mapping):
        return list(retr_systems.values()), [str(k) for k in retr_systems]
    systems = list(retr_systems)
    if names is not None and len(names) != len(systems):
        raise ColieeArgumentError("Experiment: names should be the same length as retr_systems")
    return systems, list(names) if names is not None else [str(s) for s in systems]


def Experiment(
    retr_systems: Union[Sequence[Any], Mapping[str, Any]],
    topics: pd.DataFrame,
    qrels: pd.DataFrame,
    eval_metrics: Sequence[Any],
    names: Optional[Sequence[str]] = None,
    baseline: Optional[Union[int, str]] = None,
    correction: Optional[str] = None,
    correction_alpha: float = 0.05,
    filter_by_topics: bool = True,
    resamples: int = 10_000,
    seed: int = 42,
    **kwargs: Any,
) -> pd.DataFrame:
    """``pt.Experiment(...)`` with the p-value valid for each measure (see the module text); every other
    argument is passed to ``pt.Experiment`` as is."""
    systems, labels = _named(retr_systems, names)
    base = _checked(labels, baseline, resamples, seed, correction, correction_alpha)
    kept: list[list[pd.DataFrame]] = [[] for _ in systems]
    table = _pt_experiment(
        [_recording(s, k, n) for s, k, n in zip(systems, kept, labels)],
        topics,
        qrels,
        eval_metrics,
        names=labels,
        baseline=base,
        correction=correction,
        correction_alpha=correction_alpha,
        filter_by_topics=filter_by_topics,
        **kwargs,
    )
    save_dir = kwargs.get("save_dir")
    results = [_run_of(k, n, kwargs) for k, n in zip(kept, labels)]
    # highlight= gives a Styler over the table
    frame = table.data if hasattr(table, "data") else table
    # dataframe=False: a dict of means, no p-value; but the table saved has them, its systems first
    if not hasattr(frame, "columns") and save_dir is not None:
        frame = _saved_table(save_dir).head(len(labels))
    if base is None or not hasattr(frame, "columns"):
        return table  # no test asked for (perquery, dataframe=False): nothing to replace
    retested = {
        label: m for label, m in _retested(eval_metrics) if f"{label} p-value" in frame.columns
    }
    if not retested:
        return table
    judged = qrels[qrels["qid"].isin(topics["qid"])] if filter_by_topics else qrels
    # PyTerrier's frames as they are (qid, docno, label; the gold's ids read as the runs' are: one converter)
    gold = gold_table(judged, "the qrels")
    # the p-values do not hang on the order
    runs: dict[str, object] = {str(i): r for i, r in enumerate(results)}
    measures = list(dict.fromkeys(retested.values()))
    compared = compare_rows(
        gold, runs, measures, str(base), resamples=resamples, correction="none", seed=seed
    )
    for label, m in retested.items():
        column, theirs = f"{label} p-value", f"{m} p-value"
        frame[column] = [
            float("nan") if i == base else compared.value(str(i), theirs)
            for i in range(len(results))
        ]
        if correction is not None:
            _corrected(frame, column, base, correction, correction_alpha)
    frame.attrs["tests"] = {label: significance_test(m) for label, m in retested.items()}
    if save_dir is not None:
        _save_valid(frame, save_dir)
    return table


def _checked(
    labels: list[str],
    baseline: Optional[Union[int, str]],
    resamples: object,
    seed: object,
    correction: Optional[str],
    alpha: object,
) -> Optional[int]:
    """The index of the ``baseline`` (by name, as for a dict of systems), every argument of the tests refused
    before any system runs: PyTerrier finds an unknown ``correction`` (statsmodels' names, as
    ``pt.Experiment`` takes them) only after running them all, and a baseline out of range is a bare
    ``AssertionError``."""
    resampling_arguments(resamples, seed)
    if correction is not None:
        import statsmodels.stats.multitest

        try:
            statsmodels.stats.multitest.multipletests([0.5], method=correction)
        except ValueError as e:
            raise ColieeArgumentError(
                f"Experiment: unknown correction {correction!r}: {e}"
            ) from None
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ColieeArgumentError(
            f"Experiment: correction_alpha must be between 0 and 1, got {alpha!r}"
        )
    if isinstance(baseline, str) and baseline not in labels:
        raise ColieeArgumentError(
            f"Experiment: unknown baseline {baseline!r}; the systems are {', '.join(labels)}"
        )
    index = labels.index(baseline) if isinstance(baseline, str) else baseline
    if index is not None and index not in range(len(labels)):
        raise ColieeArgumentError(
            f"Experiment: baseline {baseline!r} is not the index of a system (0 to {len(labels) - 1})"
        )
    return index


def _pt_experiment(*args: Any, **kwargs: Any) -> Any:
    """``pt.Experiment``; a system that returned nothing is the caller's error, said as such."""
    import pyterrier as pt

    try:
        return pt.Experiment(*args, **kwargs)
    except Exception as e:
        if "no results received from" in str(e):
            raise ColieeError(f"Experiment: {e}") from None
        # PyTerrier's own error for its own arguments (or a system's): as pt.Experiment raises it
        hosted(e)
        raise


def _save_valid(frame: pd.DataFrame, save_dir: str) -> None:
    """``aggregated.csv`` in ``save_dir`` with the p-values of the returned table (PyTerrier wrote its own
    test's), and ``significance.json`` naming the test behind each replaced column."""
    import json

    from ir_coliee.formats.textfile import atomic_output, parse_json

    path = os.path.join(save_dir, "aggregated.csv")
    saved = _saved_table(save_dir)
    replaced = [
        c for c in frame.columns if any(c.startswith(f"{m} ") for m in frame.attrs["tests"])
    ]
    rows = saved["name"].isin(frame["name"])
    ours = frame.set_index("name").loc[saved.loc[rows, "name"], replaced]
    saved[replaced] = saved[replaced].astype(object)  # text as read; ours go in as numbers
    saved.loc[rows, replaced] = ours.to_numpy()
    with atomic_output(path) as f:
        saved.to_csv(f, index=False)
    # merged as PyTerrier merges aggregated.csv: the columns another experiment kept keep their test's name
    tests = os.path.join(save_dir, "significance.json")
    kept: object = {}
    if os.path.exists(tests):
        with open(tests, encoding="utf-8") as f:
            kept = parse_json(f.read(), tests, '{"tests": {"MicroF1": "randomization on counts"}}')
        kept = kept.get("tests") if isinstance(kept, dict) else None
    merged = {**(kept if isinstance(kept, dict) else {}), **frame.attrs["tests"]}
    with atomic_output(tests) as f:
        json.dump({"tests": merged}, f, indent=2)


def _saved_table(save_dir: str) -> pd.DataFrame:
    """``aggregated.csv`` of ``save_dir``: every cell as PyTerrier wrote it, as text ("NA" a name)."""
    return pd.read_csv(os.path.join(save_dir, "aggregated.csv"), dtype=str, keep_default_na=False)


def _retested(eval_metrics: Sequence[Any]) -> list[tuple[str, Measure]]:
    """Each measure among ``eval_metrics`` (an ir_measures name or object, or a trec_eval name such as ``map``)
    with the column PyTerrier names it by: every one gets the test valid for it; ``mrt`` is no measure."""
    found = []
    for m in eval_metrics:
        try:
            measures = parse_measures([m])
        except ValueError:  # mrt
            continue
        # PyTerrier names a column by the name asked, but each of a family's (trec_eval's "P") by the measure
        found += [(m if isinstance(m, str) and len(measures) == 1 else str(x), x) for x in measures]
    return found


def _corrected(table: pd.DataFrame, column: str, base: int, method: str, alpha: float) -> None:
    """The ``reject`` and ``corrected`` columns of ``column``, as ``pt.Experiment`` makes them."""
    import numpy as np
    import statsmodels.stats.multitest

    others = table[column].drop(table.index[base])
    reject, corrected, _, _ = statsmodels.stats.multitest.multipletests(
        others, alpha=alpha, method=method
    )
    table[column.replace("p-value", "reject")] = np.insert(reject, base, False)
    table[f"{column} corrected"] = np.insert(corrected, base, np.nan)
