"""The organisers' releases under the data root, free of ir_datasets: finding files (:mod:`.files`),
which file serves each part of a dataset (:mod:`.layouts` for case law, :mod:`.statute`,
:mod:`.pilot`), and the catalog of dataset ids (:mod:`.catalog`).

The ir_datasets entries (:mod:`ir_coliee.datasets`) are built on these records, and a dataset id given
as gold is read through them directly, so ``ir_coliee eval coliee/task1/2025/test RUN`` never loads
ir_datasets while both read the gold through one code path.
"""
