"""The Python API behind every command: score submissions against gold as the organisers do.

:func:`score` takes the gold (a dataset id, a gold file of any kind, or qrels in any shape) and one or
more runs in any shape; gold and runs come in through one door (:mod:`ir_coliee.inputs.door`), which
reads each once, aligns the runs' ids with the gold's and checks them on the very table the scorers
read; every verb asks it once and works on what it returns; one
scorer per kind of gold (:mod:`ir_coliee.scoring.score`) then returns a :class:`Report`. The other
verbs (``compare``, ``tune``, ``benchmark``, ``analyse``, ``validate``, ``report``, ``eval auto``) and
their results have a module each here; the commands only print what they return.

Each verb is imported from its own module (``ir_coliee.scoring.score``, ...): a command loads only the
verbs it runs.
"""
