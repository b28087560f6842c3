"""The one place where ir_coliee changes the globals of its hosts: ir_measures' registries, and
ir_datasets' registry (through a hook on its import).

Plain ``ir_measures.calc_aggregate`` (and PyTerrier, which calls it) only knows measures in
``ir_measures.measures.registry`` and providers in ``ir_measures.DefaultPipeline.providers``.
ir_measures has no plugin mechanism, so :func:`install` adds ours to both. It is idempotent,
reads no file, and puts our provider first because the first provider that supports a measure
wins. Our measures have no ``runtime_impl`` attribute, so ir_measures' ``runtime`` provider,
which takes any measure with one, never claims them.

ir_datasets has no plugin mechanism either, and importing it (with numpy) costs more than the rest of
``import ir_coliee`` together, while ``ir_coliee eval FILE FILE`` never needs it. So
:func:`install_datasets` registers the COLIEE datasets at once if ir_datasets is already imported,
and otherwise the moment it is: a finder on ``sys.meta_path`` wraps the loader of the module
``ir_datasets`` and runs :func:`ir_coliee.data.datasets.register_all` right after it executes. Either way,
``import ir_coliee, ir_datasets`` (in any order) gives a registry with every COLIEE id.

``ir_datasets.parent_id`` (behind ``docs_parent_id``) finds a corpus only by walking up the dataset id,
so ``coliee/task3/2024/test/ja`` and ``.../train/ja``, or Task 3 and Task 4 of one edition, which read
one Civil Code, cannot share a parent by their ids. Its docstring announces explicit links; until
ir_datasets has them, the registration wraps ``ir_datasets.parent_id`` once: the walk's answer
stands, except that a dataset whose docs handler equals a linked one gets the linked id. Datasets of
other packages never match (our handlers compare equal only to our own), so their answers are
ir_datasets' own. The links are data of the datasets layer (``ir_coliee.data.datasets.common.DOCS_LINKS``),
read when ``parent_id`` is called.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Optional, cast

import ir_measures

from ir_coliee.measures import REGISTRY
from ir_coliee.measures.pipeline import provider

if TYPE_CHECKING:
    import importlib.abc
    import importlib.machinery


def install() -> None:
    """Register the measure names and the provider with ir_measures (safe to call repeatedly)."""
    ir_measures.measures.registry.update(REGISTRY)
    ir_measures.providers.registry[provider.NAME] = provider
    pipeline_providers = ir_measures.DefaultPipeline.providers
    if provider not in pipeline_providers:
        pipeline_providers.insert(0, provider)


class _RegisterOnImport:
    """Finds nothing itself: it lends ``ir_datasets`` a loader that registers the COLIEE datasets. (A finder
    and a loader are what they do: importing ``importlib.abc`` for their base classes would load
    ``importlib.resources``, a tenth of ``import ir_coliee``.)"""

    def find_spec(self, name: str, path: object = None, target: Optional[ModuleType] = None):
        if name != "ir_datasets":
            return None
        # the other finders find ir_datasets; this hook is done after one use
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = cast("importlib.abc.Loader", _Registering(spec.loader))
        return spec


class _Registering:
    """ir_datasets' own loader (which also serves its package data), registering when it has run."""

    def __init__(self, loader: importlib.abc.Loader):
        self.loader = loader

    def __getattr__(self, name: str) -> object:
        return getattr(self.loader, name)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        _register_datasets()


def _register_datasets() -> None:
    import ir_datasets

    # wrap ``ir_datasets.parent_id`` once (ir_datasets is imported: only the registration gets here)
    if not hasattr(ir_datasets.parent_id, "walk"):
        ir_datasets.parent_id = _linked(ir_datasets.parent_id)
    package = sys.modules.get("ir_coliee.data.datasets")
    if package is not None and not hasattr(package, "register_all"):
        return  # ir_coliee.data.datasets is what imports ir_datasets: it registers once it has loaded
    from ir_coliee.data.datasets import register_all

    register_all()


def install_datasets() -> None:
    """Register the COLIEE datasets with ir_datasets now if it is imported, else when it is (idempotent)."""
    if "ir_datasets" in sys.modules:
        _register_datasets()
    elif not any(isinstance(f, _RegisterOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport())


def _linked(walk: Callable[..., str]) -> Callable[..., str]:
    """ir_datasets' ``parent_id`` with the links of the registered docs parents
    (``ir_coliee.data.datasets.common.DOCS_LINKS``) in front of its answer."""
    import ir_datasets

    def parent_id(dataset_id: str, entity_type: object) -> str:
        found = walk(dataset_id, entity_type)
        if ir_datasets.EntityType(entity_type) is not ir_datasets.EntityType.docs:
            return found
        dataset = ir_datasets.load(found)
        if not dataset.has_docs():
            return found
        from ir_coliee.data.datasets.common import DOCS_LINKS

        handler = dataset.docs_handler()
        return next((linked for docs, linked in DOCS_LINKS if docs == handler), found)

    parent_id.__doc__ = walk.__doc__
    parent_id.walk = walk  # type: ignore[attr-defined]  # ir_datasets' own, and the mark of one wrapping
    return parent_id
