"""The data root: the organisers' releases found on disk and the ir_datasets entries built on them.

Free of ir_datasets: finding files (:mod:`.files`), which file serves each part of a dataset
(:mod:`.layouts` for case law, :mod:`.statute_files`, :mod:`.pilot_files`), and the catalog of dataset
ids (:mod:`.catalog`). With ir_datasets: one module per family (:mod:`.caselaw`, :mod:`.statute`,
:mod:`.pilot`) and the registration (:mod:`.register`). A dataset id given as gold is read through the
catalog directly, so ``ir_coliee eval coliee/task1/2025/test RUN`` never loads ir_datasets while both
read the gold through one code path.
"""
