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
from ir_coliee.table.shapes import gold_table, run_table
from ir_coliee.table.tables import Counts, answer_counts, set_counts

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
    articles_run = run_table(article_run, articles_gold)
    answers_gold = gold_table(answer_qrels)
    answers = answer_counts(answers_gold, run_table(answer_run, answers_gold), None, 1)
    articles = set_counts(articles_gold, articles_run, None, 1)
    values = {}
    for qid, answer in answers.items():
        found = articles.get(qid, Counts(0, 0, 0))
        correct = int(answer.tp == 1 and found.tp == found.relevant)
        values[qid] = CountedValue(float(correct), correct, found.retrieved, found.relevant)
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
