"""The Python API behind every command: score submissions against gold as the organisers do.

:func:`score` takes the gold (a dataset id, a gold file of any kind, or qrels in any shape) and one or
more runs in any shape; every run comes in through one door (:mod:`ir_coliee.inputs.ingest`), which
reads it once, aligns its ids with the gold's and checks it on the very table the scorers read; one
scorer per kind of gold (:mod:`ir_coliee.scoring.score`) then returns a :class:`Report`. The other
verbs (``compare``, ``tune``, ``benchmark``, ``analyse``, ``validate``, ``report``, ``eval auto``) and
their results have a module each here; the commands only print what they return.

Each verb is imported from its own module (``ir_coliee.scoring.score``, ...): a command loads only the
verbs it runs.
"""
