"""The ir_measures provider that computes every ir_coliee measure.

Each measure carries what the provider needs: what its gold names (``TAKES``: documents or answers, so
which counts are gathered), its formula over the counts (``formula()``) and how
per-query values are averaged (``AVERAGING``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Iterator
from typing import Optional, cast

from ir_measures import providers
from ir_measures.measures.base import Measure
from ir_measures.util import CalcResults, Metric

from ir_coliee.errors import ColieeWarning
from ir_coliee.measures import ColieeMeasure
from ir_coliee.measures.values import CountedValue, Formula, LazyValues, MicroValue
from ir_coliee.model import ANSWERS, DOCUMENTS
from ir_coliee.table.tables import (
    CodedRun,
    CountColumns,
    GoldIds,
    Table,
    align,
    coded_gold,
    coded_run,
    gold_ids,
    gold_table,
    no_shared_query,
)


def is_micro(measure: Measure) -> bool:
    return getattr(measure, "AVERAGING", "mean") == "micro"


def aligned_run(run: object, gold: GoldIds, stacklevel: int) -> CodedRun:
    """``run`` in any shape, read once (:func:`coded_run`) with its ids in the gold's convention
    (:func:`align`), each mapping said as a :class:`ColieeWarning` (``stacklevel`` as ``warnings.warn``
    takes it, counted from the caller)."""
    aligned = align(coded_run(run), gold)
    for note in aligned.notes:
        warnings.warn(note, ColieeWarning, stacklevel=stacklevel + 1)
    return aligned.run


def formula_of(measure: Measure) -> Optional[Formula]:
    """The formula an ir_coliee measure applies to (summed or per-query) counts; ``None`` for a measure
    this provider does not compute. With :func:`is_micro`, what ``compare`` and ``tune`` recompute
    resampled or cut runs with."""
    return measure.formula() if isinstance(measure, ColieeMeasure) else None


def counts_sets(measure: Measure) -> bool:
    """Whether ``measure`` is computed from the sets of retrieved and relevant documents of every run line
    (no cutoff of its own): then one ranking yields it at every cutoff (``tune``)."""
    return (
        isinstance(measure, ColieeMeasure)
        and measure.TAKES == DOCUMENTS
        and measure.params.get("cutoff") is None
    )


def per_query_values(counted: list[tuple[Measure, CountColumns]]) -> Iterator[Metric]:
    """The per-query values of each measure, each carrying its counts."""
    for measure, counts in counted:
        formula = cast(ColieeMeasure, measure).formula()
        for qid, tp, retrieved, relevant in zip(*counts):
            if is_micro(measure):
                value: CountedValue = MicroValue(formula, tp, retrieved, relevant)
            else:
                value = CountedValue(formula(tp, retrieved, relevant), tp, retrieved, relevant)
            yield Metric(qid, measure, value)


def aggregate(measure: Measure, counts: CountColumns) -> float:
    """What ``measure.aggregator()`` makes of the per-query values, from the counts at once: the formula
    of the summed counts (micro), else the correctly rounded mean of the per-query values."""
    _, tp, retrieved, relevant = counts
    formula = cast(ColieeMeasure, measure).formula()
    if not tp:
        return math.nan
    if is_micro(measure):
        return formula(sum(tp), sum(retrieved), sum(relevant))
    return math.fsum(map(formula, tp, retrieved, relevant)) / len(tp)


class ColieeEvaluator(providers.Evaluator):
    """Holds the gold once; scores any number of runs against it."""

    def __init__(self, measures: Iterable[Measure], gold: Table):
        super().__init__(list(measures), list(gold))
        self.gold = gold
        self.ids = gold_ids(gold)

    def iter_calc(self, run: object) -> Iterator[Metric]:
        """Every (measure, gold query) value, each yielded, so the base class's bookkeeping of absent pairs
        (hashing a measure, through its repr, twice per query) is skipped."""
        return per_query_values(self._counts(run))

    def calc(self, run: object) -> CalcResults:
        """The aggregates from the counts; the per-query values made when first read (scoring a million
        queries needs none of them)."""
        counted = self._counts(run)
        aggregated = {m: aggregate(m, counts) for m, counts in counted}
        return CalcResults(aggregated, LazyValues(lambda: per_query_values(counted)))

    def calc_aggregate(self, run: object) -> dict[Measure, float]:
        return cast(dict, self.calc(run).aggregated)

    def _counts(self, run: object) -> list[tuple[Measure, CountColumns]]:
        """The counts of each measure, each kind of count taken once."""
        # every shape through the one door: read once (a generator too), ids in the gold's convention
        codes = aligned_run(run, self.ids, stacklevel=3)
        if codes.query_ids and self.gold and self.gold.keys().isdisjoint(codes.query_ids):
            # ir_measures scores a gold query the run lacks as 0 (as pytrec_eval does, and so do we here);
            # a run lacking every one is most likely an id mismatch, so its zeros do not pass unseen
            what = "the run shares no query with the qrels: every value is 0"
            message = no_shared_query(codes.query_ids, self.ids.queries, what)
            warnings.warn(message, ColieeWarning, stacklevel=3)
        keys = [
            (m["rel"], m.params.get("cutoff"), cast(ColieeMeasure, m).TAKES == ANSWERS)
            for m in self.measures
        ]
        cache = {
            key: coded_gold(self.gold, key[0]).counts(codes, *key[1:])
            for key in dict.fromkeys(keys)
        }
        return [(m, cache[key]) for m, key in zip(self.measures, keys)]


class ColieeProvider(providers.Provider):
    """Computes the official COLIEE measures (``ir_coliee.measures``)."""

    NAME = "ir_coliee"

    def supports(self, measure: Measure) -> bool:
        if not isinstance(measure, ColieeMeasure):
            return False
        measure.validate_params()
        return type(measure).formula is not ColieeMeasure.formula  # a declaration with its formula

    def _evaluator(self, measures: Iterable[Measure], qrels: object) -> ColieeEvaluator:
        return ColieeEvaluator(measures, gold_table(qrels))
