"""The counts of every gold query for a run, by the engine its length calls for: numpy's (table/coded) for a
long run without cutoff, the run as a dict for the rest (a short run loads no numpy)."""

from __future__ import annotations

from typing import Callable, Optional

from ir_coliee.table.tables import CodedRun, CountColumns, Counts, Table, count_columns, set_counts

#: How one kind of count is taken of a gold and a run (as a dict) at a cutoff and relevance level.
CountFn = Callable[[Table, Table, Optional[int], int], dict[str, Counts]]


def gold_counts(
    gold: Table, run: CodedRun, fn: CountFn, cutoff: Optional[int], rel: int, tables: list[Table]
) -> CountColumns:
    """The counts of every gold query: with numpy for a long run without cutoff, else from the run as a
    dict, made once into ``tables``."""
    if fn is set_counts and cutoff is None and not run.small:
        from ir_coliee.table.coded import coded_gold  # numpy: not for a short run

        return coded_gold(gold, rel).counts(run)
    if not tables:
        tables.append(run.table(set(gold)))
    return count_columns(fn(gold, tables[0], cutoff, rel))
