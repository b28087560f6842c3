"""Answer accuracy for the Y/N tasks (4, 5) and the pilot's tort prediction."""

from __future__ import annotations

from ir_coliee.measures.base import ColieeMeasure, declare


class _AnswerAccuracy(ColieeMeasure):
    """Share of gold questions whose single answer equals the gold answer (COLIEE Tasks 4, 5, pilot).

    Encoding: the gold as qrels ``(query_id, label, 1)`` and the answers as a run
    ``(query_id, label, score)``. A gold question without an answer counts as wrong; answers for
    questions outside the gold are ignored; two different answers for one question are an error.
    (``Accuracy`` is taken in ir_measures by pairwise ranking accuracy.)
    """

    __name__ = "AnswerAccuracy"
    NAME = __name__
    PRETTY_NAME = "Answer Accuracy"
    SHORT_DESC = "Correct answers over gold questions; an unanswered question is wrong."
    TAKES = "answers"
    FORMULA = "Acc = |{q in gold : answer_q = gold_q}| / |gold|"


AnswerAccuracy = declare(_AnswerAccuracy())
