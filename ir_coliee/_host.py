"""The one place where ir_coliee changes ir_measures' globals.

Plain ``ir_measures.calc_aggregate`` (and PyTerrier, which calls it) only knows measures in
``ir_measures.measures.registry`` and providers in ``ir_measures.DefaultPipeline.providers``.
ir_measures has no plugin mechanism, so :func:`install` adds ours to both. It is idempotent,
reads no file, and puts our provider first because the first provider that supports a measure
wins. Our measures have no ``runtime_impl`` attribute, so ir_measures' ``runtime`` provider,
which takes any measure with one, never claims them.
"""

from __future__ import annotations

import ir_measures

from ir_coliee.measures import REGISTRY
from ir_coliee.providers import provider


def install() -> None:
    """Register the measure names and the provider with ir_measures (safe to call repeatedly)."""
    registry = ir_measures.measures.registry
    for name, measure in REGISTRY.items():
        registry[name] = measure
    ir_measures.providers.registry[provider.NAME] = provider
    pipeline_providers = ir_measures.DefaultPipeline.providers
    if provider not in pipeline_providers:
        pipeline_providers.insert(0, provider)


def installed() -> bool:
    """Whether :func:`install` is in effect."""
    return provider in ir_measures.DefaultPipeline.providers and all(
        ir_measures.measures.registry.get(name) is m for name, m in REGISTRY.items()
    )
