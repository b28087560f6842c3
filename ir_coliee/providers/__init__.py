"""Computation of the ir_coliee measures, and the evaluation pipeline that adds it to ir_measures'."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import ir_measures
from ir_measures.measures.base import Measure
from ir_measures.providers.base import CalcResults
from ir_measures.providers.fallback_provider import FallbackProvider
from ir_measures.util import TYPE_QREL, Metric

from ir_coliee.providers.coliee_provider import KINDS, ColieeEvaluator, ColieeProvider, is_micro
from ir_coliee.tables import CodedRun, gold_table, run_table

#: The one provider instance (also placed first in ``ir_measures.DefaultPipeline`` on import).
provider = ColieeProvider()


def _host_providers() -> list:
    return [p for p in ir_measures.DefaultPipeline.providers if not isinstance(p, ColieeProvider)]


#: ir_coliee's own pipeline: our provider, then everything ir_measures offers (pytrec_eval for AP,
#: Rprec, R@k, ...). It does not depend on the host-global registration in ``ir_coliee._host``.
pipeline = FallbackProvider([provider, *_host_providers()])


def calc(measures: Sequence[Measure], qrels: TYPE_QREL, run: object) -> CalcResults:
    """``pipeline.calc``, with a run as codes (:class:`ir_coliee.tables.CodedRun`) counted as codes by our
    provider and given to the others (pytrec_eval for AP, R@k, ...) as the dict of dicts they convert
    every run into, made directly from the codes for the gold queries only. The per-query values come
    measure by measure, ours first."""

    ours = [m for m in measures if provider.supports(m)]
    theirs = [m for m in measures if m not in ours]
    aggregated: dict[Measure, float] = {}
    per_query: list[Metric] = []
    for chosen, evaluating in ((ours, provider), (theirs, pipeline)):
        if chosen:
            given = run_table(run, gold_table(qrels)) if isinstance(run, CodedRun) and evaluating is pipeline else run
            result = evaluating.calc(chosen, qrels, given)
            aggregated.update(cast(dict, result.aggregated))
            per_query.extend(result.per_query)
    return CalcResults(aggregated, per_query)


__all__ = ["KINDS", "ColieeEvaluator", "ColieeProvider", "calc", "is_micro", "pipeline", "provider"]
