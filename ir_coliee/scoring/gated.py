"""COLIEE 2026 Task 3: recall-gated accuracy, with macro F2 to break ties.

A question counts as correct only if its Y/N answer is right **and** every gold article of it was
retrieved (recall = 1). The questions are those of the answer gold; a question without article
gold passes the recall gate (there is nothing to miss). The counts come from the same functions
as ``MacroR`` and ``AnswerAccuracy``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ir_measures.util import TYPE_QREL, TYPE_RUN

from ir_coliee.measures import MacroF2, MacroP, MacroR
from ir_coliee.measures.parse import per_query_frame
from ir_coliee.measures.pipeline import pipeline
from ir_coliee.measures.values import CountedValue, exact_mean
from ir_coliee.table.tables import coded_gold, coded_run, gold_table

if TYPE_CHECKING:
    import pandas as pd

NAME = "RecallGatedAccuracy"
TIE_BREAKERS = (MacroF2, MacroP, MacroR)


def recall_gated(
    article_qrels: TYPE_QREL,
    article_run: TYPE_RUN,
    answer_qrels: TYPE_QREL,
    answer_run: TYPE_RUN,
    ties: bool = True,
) -> tuple[dict[str, float], dict[str, CountedValue]]:
    """The row of :func:`score_recall_gated` and each question's value, from one reading of the four inputs;
    without ``ties``, the row without the tie breakers (scored only when asked for)."""
    articles_gold = gold_table(article_qrels)
    articles_run = coded_run(article_run)
    answers_gold = gold_table(answer_qrels)
    questions, right, _, _ = coded_gold(answers_gold, 1).counts(coded_run(answer_run), None, True)
    query_ids, *counted = coded_gold(articles_gold, 1).counts(articles_run, None)
    articles = dict(zip(query_ids, zip(*counted)))
    values = {}
    for qid, answered in zip(questions, right):
        tp, retrieved, relevant = articles.get(qid, (0, 0, 0))
        correct = int(answered == 1 and tp == relevant)
        values[qid] = CountedValue(float(correct), correct, retrieved, relevant)
    row = {NAME: exact_mean(values.values())}
    if ties:
        tie = pipeline.calc_aggregate(list(TIE_BREAKERS), articles_gold, articles_run)
        row.update({str(m): float(tie[m]) for m in TIE_BREAKERS})
    return row, values


def score_recall_gated(
    article_qrels: TYPE_QREL,
    article_run: TYPE_RUN,
    answer_qrels: TYPE_QREL,
    answer_run: TYPE_RUN,
    per_query: bool = False,
) -> pd.DataFrame:
    """The 2026 Task 3 table: ``RecallGatedAccuracy`` and the macro F2, P, R that break ties.

    With ``per_query``, one row per question: 1 when answered right with every gold article retrieved,
    else 0, with the counts (tp = 1 when correct, retrieved = articles retrieved, relevant = gold articles).
    """
    row, values = recall_gated(
        article_qrels, article_run, answer_qrels, answer_run, ties=not per_query
    )
    if per_query:
        return per_query_frame((q, NAME, v) for q, v in values.items())
    import pandas as pd

    return pd.DataFrame([row])
