"""``pt.Experiment`` whose p-values are valid for micro measures.

PyTerrier tests a difference with a paired test on per-query values (``stats.ttest_rel`` by default): it
passes plain per-query floats to the test, so the counts behind a micro score never reach it. A micro
score (COLIEE Tasks 1 and 2: ``MicroP``, ``MicroR``, ``MicroF1``) is not the mean of its per-query values:
each query's value is that query's own precision, recall or F1, and a t-test on them tests their mean,
another quantity than the score in the table (COLIEE-SPEC section 7).

:func:`Experiment` takes ``pt.Experiment``'s arguments and returns its table, with one change: beside a
micro measure, the p-value is the paired randomization test on the per-query counts that recomputes
the micro score on every resample (the test of ``ir_coliee compare``, same ``resamples`` and ``seed``:
the same p-value), corrected as ``pt.Experiment`` corrects (``correction``, statsmodels' methods). The
``+`` and ``-`` columns of a micro measure still count the queries whose own value is higher or lower.
Means (MacroF2, AP, ...) keep PyTerrier's test, which is valid for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

from ir_measures.measures.base import Measure

from ir_coliee.measures.significance import significance_test
from ir_coliee.scoring.compare import compare_rows
from ir_coliee.scoring.evaluate import parse_measures
from ir_coliee.table.shapes import gold_table

if TYPE_CHECKING:
    import pandas as pd


def _results(system: Any, topics: pd.DataFrame) -> pd.DataFrame:
    """A system's results on ``topics`` (a results DataFrame is its own results): computed once, so that
    PyTerrier and the randomization test score the very same run."""
    if hasattr(system, "columns"):
        return system
    return system.transform(topics) if hasattr(system, "transform") else system(topics)


def _named(retr_systems: Any, names: Optional[Sequence[str]]) -> tuple[list[Any], list[str]]:
    if isinstance(retr_systems, Mapping):
        return list(retr_systems.values()), [str(k) for k in retr_systems]
    systems = list(retr_systems)
    if names is not None and len(names) != len(systems):
        raise ValueError("names should be the same length as retr_systems")
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
    """``pt.Experiment(...)`` with valid p-values beside micro measures (see the module text); every other
    argument is passed to ``pt.Experiment`` as is."""
    import pyterrier as pt

    systems, labels = _named(retr_systems, names)
    results = [_results(s, topics) for s in systems]
    base = labels.index(baseline) if isinstance(baseline, str) else baseline  # by name, as for a dict of systems
    table = pt.Experiment(
        results,
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
    micro = _micro(eval_metrics)
    frame = table.data if hasattr(table, "data") else table  # highlight= gives a Styler over the table
    if base is None or not hasattr(frame, "columns") or not any(f"{m} p-value" in frame for m in micro):
        return table  # no test asked for: nothing to replace
    kept = qrels[qrels["qid"].isin(topics["qid"])] if filter_by_topics else qrels
    # the gold's ids read as the runs' are (one converter: integer or whole-float ids as decimal text)
    gold = gold_table(kept.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"}), "the qrels")
    runs = {
        str(i): r[["qid", "docno", "score"]].rename(columns={"qid": "query_id", "docno": "doc_id"})
        for i, r in enumerate(results)
    }
    ordered: dict[str, object] = {k: runs[k] for k in [str(base), *(k for k in runs if k != str(base))]}
    compared = compare_rows(gold, ordered, micro, str(base), resamples=resamples, correction="none", seed=seed)
    for m in micro:
        column = f"{m} p-value"
        frame[column] = [float("nan") if i == base else compared.value(str(i), column) for i in range(len(results))]
        if correction is not None:
            _corrected(frame, column, base, correction, correction_alpha)
    return table


def _micro(eval_metrics: Sequence[Any]) -> list[Measure]:
    """The measures among ``eval_metrics`` whose valid test is not PyTerrier's test of per-query means: micro
    measures and answer accuracy (names PyTerrier reads itself, ``map`` or ``mrt``, aside)."""
    found = []
    for m in eval_metrics:
        try:
            (measure,) = parse_measures([m])
        except ValueError:
            continue
        if significance_test(measure) != "randomization on values":
            found.append(measure)
    return found


def _corrected(table: pd.DataFrame, column: str, base: int, method: str, alpha: float) -> None:
    """The ``reject`` and ``corrected`` columns of ``column``, as ``pt.Experiment`` makes them."""
    import numpy as np
    import statsmodels.stats.multitest

    others = table[column].drop(table.index[base])
    reject, corrected, _, _ = statsmodels.stats.multitest.multipletests(others, alpha=alpha, method=method)
    table[column.replace("p-value", "reject")] = np.insert(reject, base, False)
    table[f"{column} corrected"] = np.insert(corrected, base, np.nan)
