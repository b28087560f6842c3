"""COLIEE legal retrieval and entailment benchmarks in the ir_datasets / ir_measures / PyTerrier ecosystem.

Importing the package registers the official COLIEE measures with ir_measures (see ``ir_coliee._host``)
and reads no file.
"""

from ir_coliee import _host
from ir_coliee.compare import compare
from ir_coliee.datasets import register_all
from ir_coliee.errors import ColieeError, ColieeFormatError, ColieeScoringError
from ir_coliee.evaluation import evaluate
from ir_coliee.gated import score_recall_gated
from ir_coliee.gold import read_label_json, read_qrels
from ir_coliee.measures import (
    AnswerAccuracy,
    MacroF,
    MacroF1,
    MacroF2,
    MacroP,
    MacroR,
    MicroF,
    MicroF1,
    MicroF2,
    MicroP,
    MicroR,
)
from ir_coliee.model import TASKS, official_measures, task_of
from ir_coliee.providers import pipeline
from ir_coliee.runs import parse_run, read_run, write_run
from ir_coliee.scoring import Report, compare_runs, load_gold, prepare, score, tune
from ir_coliee.tuning import apply_cutoff, tune_cutoff
from ir_coliee.validate import Finding, validate_run
from ir_coliee.values import CountedValue

__version__ = "0.1.0"

_host.install()
register_all()

#: ir_coliee's own evaluation pipeline (same API as ``ir_measures``): our provider first, then ir_measures'.
evaluator = pipeline.evaluator
iter_calc = pipeline.iter_calc
calc_aggregate = pipeline.calc_aggregate
calc = pipeline.calc

__all__ = [
    "TASKS",
    "AnswerAccuracy",
    "ColieeError",
    "ColieeFormatError",
    "ColieeScoringError",
    "CountedValue",
    "Finding",
    "MacroF",
    "MacroF1",
    "MacroF2",
    "MacroP",
    "MacroR",
    "MicroF",
    "MicroF1",
    "MicroF2",
    "MicroP",
    "MicroR",
    "Report",
    "__version__",
    "apply_cutoff",
    "calc",
    "calc_aggregate",
    "compare",
    "compare_runs",
    "evaluate",
    "evaluator",
    "iter_calc",
    "load_gold",
    "official_measures",
    "parse_run",
    "pipeline",
    "prepare",
    "read_label_json",
    "read_qrels",
    "read_run",
    "score",
    "score_recall_gated",
    "task_of",
    "tune",
    "tune_cutoff",
    "validate_run",
    "write_run",
]
