"""Answer accuracy for the Y/N tasks (4, 5) and the pilot's tort prediction."""

from __future__ import annotations

from ir_coliee.measures.base import ColieeMeasure, declare
from ir_coliee.measures.values import Formula


def _correct(tp: int, retrieved: int, relevant: int) -> float:
    """A question's counts are 1 true positive when its answer is the gold answer."""
    return float(tp)


class _AnswerAccuracy(ColieeMeasure):
    """Share of gold questions whose single answer equals the gold answer (COLIEE Tasks 4, 5, pilot).

    Encoding: the gold as qrels ``(query_id, label, 1)`` and the answers as a run
    ``(query_id, label, score)``. A gold question without an answer counts as wrong; answers for
    questions outside the gold are ignored; two different answers for one question are an error.
    (``Accuracy`` is taken in ir_measures by pairwise ranking accuracy.)
    """

    __name__ = "AnswerAccuracy"
    TAKES = "answers"
    FORMULA = "Acc = |{q in gold : answer_q = gold_q}| / |gold|"

    def formula(self) -> Formula:
        return _correct


AnswerAccuracy = declare(_AnswerAccuracy())
