"""Computation of the ir_coliee measures, and the evaluation pipeline that adds it to ir_measures'."""

from __future__ import annotations

import ir_measures
from ir_measures.providers.fallback_provider import FallbackProvider

from ir_coliee.providers.coliee_provider import KINDS, ColieeEvaluator, ColieeProvider, is_micro

#: The one provider instance (also placed first in ``ir_measures.DefaultPipeline`` on import).
provider = ColieeProvider()


def _host_providers() -> list:
    return [p for p in ir_measures.DefaultPipeline.providers if not isinstance(p, ColieeProvider)]


#: ir_coliee's own pipeline: our provider, then everything ir_measures offers (pytrec_eval for AP,
#: Rprec, R@k, ...). It does not depend on the host-global registration in ``ir_coliee._host``.
pipeline = FallbackProvider([provider, *_host_providers()])

__all__ = ["KINDS", "ColieeEvaluator", "ColieeProvider", "is_micro", "pipeline", "provider"]
