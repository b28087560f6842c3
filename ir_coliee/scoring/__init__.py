"""The Python API behind every command: score submissions against gold as the organisers do.

:func:`score` takes the gold (a dataset id, a gold file of any kind, or qrels in any shape) and one or
more runs in any shape; every run comes in through one door (:mod:`ir_coliee.scoring.ingest`), which
reads it once, aligns its ids with the gold's and checks it on the very table the scorers read; one
scorer per kind of gold (:mod:`ir_coliee.scoring.score`) then returns a :class:`Report`. ``ir_coliee
eval`` and ``ir_coliee demo`` only print what it returns; ``compare``, ``tune`` and ``eval auto`` have
their modules here too.

Each verb is imported from its own module (``ir_coliee.scoring.score``, ...): a command loads only the
verbs it runs.
"""
