"""Computation of the ir_coliee measures, and the evaluation pipeline that adds it to ir_measures'."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

import ir_measures
from ir_measures.measures.base import Measure
from ir_measures.providers.base import CalcResults
from ir_measures.providers.fallback_provider import FallbackProvider
from ir_measures.util import TYPE_QREL, Metric

from ir_coliee.measures.provider import ColieeProvider, aligned_run
from ir_coliee.measures.values import LazyValues
from ir_coliee.table.tables import gold_ids, gold_table

#: The one provider instance (also placed first in ``ir_measures.DefaultPipeline`` on import).
provider = ColieeProvider()


#: ir_coliee's own pipeline: our provider, then everything ir_measures offers (pytrec_eval for AP,
#: Rprec, R@k, ...). It does not depend on the host-global registration in ``ir_coliee.hosts.register``.
_hosts = [p for p in ir_measures.DefaultPipeline.providers if not isinstance(p, ColieeProvider)]
pipeline = FallbackProvider([provider, *_hosts])


def calc(
    measures: Sequence[Measure], qrels: TYPE_QREL, run: object, aggregate: bool = True
) -> CalcResults:
    """``pipeline.calc`` with gold and run in any shape read once (:mod:`ir_coliee.table.tables`: a generator is
    consumed once, ids become strings in the gold's convention), so that every provider sees the same
    run: ours counts the codes, the others (pytrec_eval for AP, R@k, ...) get the dict of dicts they
    convert every run into, made directly from the codes for the gold queries only. The per-query values
    come measure by measure, ours first; ``aggregate=False`` leaves the aggregates out (``iter_calc``,
    and ``compare``, which resamples the per-query values)."""
    measures = list(measures)  # a generator of measures is read once, like the run
    gold = gold_table(qrels)
    coded = aligned_run(run, gold_ids(gold), stacklevel=2)
    ours = [m for m in measures if provider.supports(m)]
    theirs = [m for m in measures if m not in ours]
    aggregated: dict[Measure, float] = {}
    parts: list[Sequence[Metric]] = []  # ours made when first read (LazyValues)
    for chosen, evaluating in ((ours, provider), (theirs, pipeline)):
        if chosen:
            given = coded if evaluating is provider else coded.table(set(gold))
            evaluator = evaluating.evaluator(chosen, gold)
            if not aggregate:
                parts.append(list(evaluator.iter_calc(given)))
                continue
            result = evaluator.calc(given)
            aggregated.update(cast(dict, result.aggregated))
            parts.append(result.per_query)
    per_query = (
        parts[0] if len(parts) == 1 else LazyValues(lambda: [m for part in parts for m in part])
    )
    in_order = {m: aggregated[m] for m in measures if m in aggregated}  # in the order asked
    return CalcResults(in_order, cast(list, per_query))


def calc_aggregate(
    measures: Sequence[Measure], qrels: TYPE_QREL, run: object
) -> dict[Measure, float]:
    """``ir_measures.calc_aggregate`` through :func:`calc`: any run shape, read once."""
    return cast(dict, calc(measures, qrels, run).aggregated)


def iter_calc(measures: Sequence[Measure], qrels: TYPE_QREL, run: object) -> Iterator[Metric]:
    """``ir_measures.iter_calc`` through :func:`calc`: any run shape, read once."""
    return iter(calc(measures, qrels, run, aggregate=False).per_query)


__all__ = ["calc", "calc_aggregate", "iter_calc", "pipeline", "provider"]
