"""Scoring the tort pilot with the package's own measures on the pilot's encoding.

* Tort prediction: ``AnswerAccuracy`` with gold ``(tort, "True"|"False", 1)`` and answers
  ``(tort, "True"|"False", 1.0)``.
* Rationale extraction: per tort, F1 of the True class of ``is_accepted`` over its claims, averaged
  over torts: that is ``MacroF1`` with the claims as documents (``{tort}/{side}/{claim}``), gold
  accepted claims relevant (others relevance 0) and the claims predicted True as the run. ``MacroP``
  and ``MacroR`` stand beside it; the same again on plaintiff and defendant claims separately.

Rule for a tort with no True claim in the gold or in the prediction (the organisers do not say; this
is scikit-learn's ``f1_score`` with its default ``zero_division``): P = 0 when nothing is predicted
True, R = 0 when nothing is accepted, F1 = 0 when P + R = 0, so such a tort scores 0, even when
both are empty. A tort with no claim on one side is not part of that side's average.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional, cast

import pandas as pd
from ir_measures.measures.base import Measure

from ir_coliee.errors import ColieeScoringError
from ir_coliee.formats.pilot import (
    RATIONALE_EXTRACTION,
    SIDES,
    TORT_PREDICTION,
    ColieeTort,
    Null,
    claim_qrels,
    claim_run,
    decision_qrels,
    decision_run,
    remaining_nulls,
)
from ir_coliee.measures import AnswerAccuracy, MacroF1, MacroP, MacroR, MicroF1
from ir_coliee.measures.parse import per_query_frame
from ir_coliee.measures.pipeline import pipeline

RE_MEASURES: tuple[Measure, ...] = (MacroF1, MacroP, MacroR)
#: The claim-pooled F1 beside the official per-tort one: true positives, predicted and accepted claims
#: summed over torts first (``binary_all_f1``, ``binary_p_f1``, ``binary_d_f1`` of the organisers' client).
POOLED: tuple[Measure, ...] = (MicroF1,)
#: the column groups of the organisers' report: all claims, then each side
GROUPS: tuple[Optional[str], ...] = (None, *SIDES)


class PilotScores(NamedTuple):
    """The pilot table and what a submission got wrong in form."""

    table: pd.DataFrame
    """One row: ``AnswerAccuracy``, then ``MacroF1``/``P``/``R`` for all claims, ``[plaintiff]``, ``[defendant]``,
    then the claim-pooled ``MicroF1`` of each group; NaN for a disqualified sub-task."""
    per_query: pd.DataFrame
    """Per tort values with their counts (``query_id, measure, value, tp, retrieved, relevant``)."""
    nulls: list[Null]
    """Values the submission left ``null``; each disqualifies its sub-task."""
    unknown_claims: list[str]
    """Claims of the submission that the gold does not have (ignored)."""

    def disqualified(self) -> set[str]:
        return {n.subtask for n in self.nulls}


def _column(measure: Measure, side: Optional[str]) -> str:
    return str(measure) if side is None else f"{measure}[{side}]"


def score_pilot(gold: list[ColieeTort], submission: list[ColieeTort]) -> PilotScores:
    """Score a pilot submission against the gold torts, as the organisers' report does."""
    if gold_nulls := remaining_nulls(gold):
        first = gold_nulls[0]
        raise ColieeScoringError(
            f"the gold has {len(gold_nulls)} null values (first: {first.subtask}, tort {first.tort_id!r})"
        )
    nulls = remaining_nulls(submission)
    disqualified = {n.subtask for n in nulls}
    row: dict[str, float] = {str(AnswerAccuracy): math.nan}
    per_query = []
    if TORT_PREDICTION not in disqualified:
        result = pipeline.calc([AnswerAccuracy], decision_qrels(gold), decision_run(submission))
        row[str(AnswerAccuracy)] = float(cast(dict, result.aggregated)[AnswerAccuracy])
        per_query.append(per_query_frame(result.per_query))
    known = {q.doc_id for q in claim_qrels(gold)}
    unknown = [sd.doc_id for sd in claim_run(submission) if sd.doc_id not in known]
    pooled: dict[str, float] = {}
    for side in GROUPS:
        # a disqualified sub-task: NaN
        aggregated = dict.fromkeys((*RE_MEASURES, *POOLED), math.nan)
        if RATIONALE_EXTRACTION not in disqualified:
            run = [sd for sd in claim_run(submission, side) if sd.doc_id in known]
            result = pipeline.calc([*RE_MEASURES, *POOLED], claim_qrels(gold, side), run)
            aggregated = cast(dict, result.aggregated)
            frame = per_query_frame(result.per_query)
            if side is not None:
                frame["measure"] = frame["measure"] + f"[{side}]"
            per_query.append(frame)
        row.update({_column(m, side): float(aggregated[m]) for m in RE_MEASURES})
        pooled.update({_column(m, side): float(aggregated[m]) for m in POOLED})
    per_query_all = pd.concat(per_query, ignore_index=True) if per_query else per_query_frame([])
    return PilotScores(pd.DataFrame([{**row, **pooled}]), per_query_all, nulls, unknown)


__all__ = ["claim_qrels", "claim_run", "decision_qrels", "decision_run", "score_pilot"]
