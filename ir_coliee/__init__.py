"""COLIEE legal retrieval and entailment benchmarks in the ir_datasets / ir_measures / PyTerrier ecosystem.

Importing the package registers the official COLIEE measures with ir_measures, and the COLIEE datasets
with ir_datasets once that is imported (see ``ir_coliee.hosts.register``); it reads no file and loads neither
pandas, numpy, pyarrow nor ir_datasets: the functions that need them import them on first use.
"""

from typing import TYPE_CHECKING, Any

from ir_coliee.errors import (
    ColieeArgumentError,
    ColieeError,
    ColieeFormatError,
    ColieeScoringError,
    ColieeWarning,
    guarded,
)
from ir_coliee.formats.textfile import paused_gc

# these imports (ir_measures' among them) make tens of thousands of objects and no garbage: the collector's
# twenty-odd passes over them took a tenth of their time, a twentieth of a small run's eval
with paused_gc():
    from ir_coliee.hosts import register as _host
    from ir_coliee.measures import REGISTRY as _MEASURES
    from ir_coliee.measures.pipeline import calc as _calc
    from ir_coliee.measures.pipeline import calc_aggregate as _calc_aggregate
    from ir_coliee.measures.pipeline import iter_calc, pipeline
    from ir_coliee.measures.values import CountedValue
    from ir_coliee.model import TASKS, official_measures, task_of

__version__ = "0.1.0"

_host.install()
_host.install_datasets()

#: Every declared measure under its name: a measure declared in ``ir_coliee/measures/`` is exported with no
#: edit here (the names below ``TYPE_CHECKING`` only tell static type checkers).
globals().update(_MEASURES)

#: ir_coliee's own evaluation pipeline (same API as ``ir_measures``): our provider first, then ir_measures';
#: ``calc``, ``calc_aggregate`` and ``iter_calc`` read a run in any shape once (see ``ir_coliee.table.tables``).
evaluator = pipeline.evaluator

#: The public verbs each go through one error boundary (:func:`ir_coliee.errors.guarded`).
calc = guarded(_calc)
calc_aggregate = guarded(_calc_aggregate)

#: The rest of the API by module (names apart by spaces), imported on first use (PEP 562): pandas, numpy and pyarrow load with the
#: functions that need them, not with ``import ir_coliee``.
_LAZY = {
    "ir_coliee.data.datasets": "register_all",
    "ir_coliee.formats.gold": "read_label_json read_qrels",
    "ir_coliee.hosts.experiment": "Experiment",
    "ir_coliee.scoring.analyse": "Analysis analyse",
    "ir_coliee.scoring.benchmark": "BenchmarkResult benchmark",
    "ir_coliee.scoring.compare": "compare compare_runs",
    "ir_coliee.scoring.gated": "score_recall_gated",
    "ir_coliee.inputs.gold": "load_gold",
    "ir_coliee.inputs.door": "prepare",
    "ir_coliee.scoring.page": "ResultsPage report",
    "ir_coliee.scoring.report": "Report",
    "ir_coliee.scoring.score": "evaluate score",
    "ir_coliee.scoring.tune": "apply_cutoff tune tune_cutoff",
    "ir_coliee.scoring.validate": "Finding validate_run",
    "ir_coliee.table.runs": "parse_run read_run write_run",
}
_MODULE_OF = {name: module for module, names in _LAZY.items() for name in names.split()}

if TYPE_CHECKING:
    from ir_coliee.data.datasets import register_all
    from ir_coliee.formats.gold import read_label_json, read_qrels
    from ir_coliee.hosts.experiment import Experiment
    from ir_coliee.inputs.door import prepare
    from ir_coliee.inputs.gold import load_gold
    from ir_coliee.measures import *  # noqa: F403  (exported at run time from _MEASURES)
    from ir_coliee.scoring.analyse import Analysis, analyse
    from ir_coliee.scoring.benchmark import BenchmarkResult, benchmark
    from ir_coliee.scoring.compare import compare, compare_runs
    from ir_coliee.scoring.gated import score_recall_gated
    from ir_coliee.scoring.page import ResultsPage, report
    from ir_coliee.scoring.report import Report
    from ir_coliee.scoring.score import evaluate, score
    from ir_coliee.scoring.tune import apply_cutoff, tune, tune_cutoff
    from ir_coliee.scoring.validate import Finding, validate_run
    from ir_coliee.table.runs import parse_run, read_run, write_run


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'ir_coliee' has no attribute {name!r}")
    import importlib
    import types

    value = getattr(importlib.import_module(_MODULE_OF[name]), name)
    if isinstance(value, types.FunctionType):
        value = guarded(value)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF])


__all__ = [
    *_MEASURES,
    *_MODULE_OF,
    "TASKS",
    "ColieeArgumentError",
    "ColieeError",
    "ColieeFormatError",
    "ColieeScoringError",
    "ColieeWarning",
    "CountedValue",
    "__version__",
    "calc",
    "calc_aggregate",
    "evaluator",
    "iter_calc",
    "official_measures",
    "pipeline",
    "task_of",
]
