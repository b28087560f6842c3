"""The Python API behind every command: score submissions against gold as the organisers do.

:func:`score` takes the gold (a dataset id, a gold file of any kind, or qrels in any shape) and one or
more runs in any shape; every run comes in through one door (:mod:`ir_coliee.scoring.ingest`), which
reads it once, aligns its ids with the gold's and checks it on the very table the scorers read; one
scorer per kind of gold (:mod:`ir_coliee.scoring.score`) then returns a :class:`Report`. ``ir_coliee
eval`` and ``ir_coliee demo`` only print what it returns; ``compare``, ``tune`` and ``eval auto`` have
their modules here too.
"""

from ir_coliee.scoring.compare import Comparison, compare_runs
from ir_coliee.scoring.files import AUTO, score_files
from ir_coliee.scoring.gold import Gold, GoldLike, load_gold
from ir_coliee.scoring.ingest import RunInfo, RunLike, RunsLike
from ir_coliee.scoring.report import Report, ranked
from ir_coliee.scoring.score import Prepared, prepare, score
from ir_coliee.scoring.tune import Tuning, tune

__all__ = [
    "AUTO",
    "Comparison",
    "Gold",
    "GoldLike",
    "Prepared",
    "Report",
    "RunInfo",
    "RunLike",
    "RunsLike",
    "Tuning",
    "compare_runs",
    "load_gold",
    "prepare",
    "ranked",
    "score",
    "score_files",
    "tune",
]
