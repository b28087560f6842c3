"""Reading gold files: TREC qrels, the COLIEE label JSON of Tasks 1 and 2, Y/N answer files, and the
organisers' labelled riteval XML (Task 3 articles and Task 4 answers in one file).

The public readers return qrels as a pandas DataFrame with ``query_id``, ``doc_id`` and ``relevance``
columns; :func:`read_gold`, which scoring uses, returns ``{query_id: {doc_id: relevance}}`` tables and
so needs no pandas. Y/N gold follows the ``AnswerAccuracy`` encoding: ``(question, label, 1)``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Optional

from ir_coliee.errors import ColieeFormatError, ColieeWarning, PathLike, shown
from ir_coliee.formats.labels import label_sets
from ir_coliee.formats.textfile import (
    first_character,
    iter_lines,
    paused_gc,
    read_text,
    regular_file,
    strip_txt,
)
from ir_coliee.model import ANSWER_LABELS, ANSWERS, DOCUMENTS, GoldKind

if TYPE_CHECKING:
    import pandas as pd

Row = tuple[str, str, int]
#: Qrels as a gold file gives them: ``{query_id: {doc_id: relevance}}``.
Table = dict[str, dict[str, int]]

_LINES_EXPECTED = (
    "4 columns 'query_id iteration doc_id relevance' (TREC qrels) or 'query_id Y|N [tag]' (answers)"
)


def _frame(rows: list[Row]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])


def _table(rows: Iterable[Row], judged_twice: Optional[list[tuple[str, str]]] = None) -> Table:
    """The rows as a table; its ids are text and its relevance whole numbers, as the files give them. A pair
    judged again with another relevance keeps the last, as trec_eval reads it, and goes in ``judged_twice``."""
    table: Table = {}
    for q, d, r in rows:
        docs = table.setdefault(q, {})
        if judged_twice is not None and docs.get(d, r) != r:
            judged_twice.append((q, d))
        docs[d] = r
    return table


def read_label_json(path: PathLike) -> pd.DataFrame:
    """Task 1 / Task 2 labels: query -> noticed cases (or entailing paragraphs), ``.txt`` stripped.

    Duplicate entries count once. A query with an empty list has no relevant document and so is
    not a gold query (``test_no_labels`` files are lists of queries, not gold).
    """
    return _frame(_label_rows(path))


def _label_rows(path: PathLike) -> list[Row]:
    return [(qid, did, 1) for qid, docs in label_sets(read_text(path), path) for did in docs]


def _qrels_row(parts: list[str], path: PathLike, lineno: int) -> tuple[str, str, int]:
    if len(parts) == 4:
        try:
            relevance = int(parts[3])
        except ValueError:
            raise ColieeFormatError(
                path,
                lineno,
                f"relevance {shown(parts[3])} is not a whole number",
                "an integer in column 4",
            ) from None
        return strip_txt(parts[0]), strip_txt(parts[2]), relevance
    if len(parts) in (2, 3) and parts[1] in ANSWER_LABELS:
        return strip_txt(parts[0]), parts[1], 1
    if len(parts) == 3:
        raise ColieeFormatError(
            path, lineno, f"unknown answer {shown(parts[1])}", "Y or N in column 2"
        )
    raise ColieeFormatError(path, lineno, f"{len(parts)} columns", _LINES_EXPECTED)


def read_qrels(path: PathLike) -> pd.DataFrame:
    """Read a gold file: COLIEE label JSON (detected by its leading ``{`` or ``[``), TREC qrels, or Y/N
    answers (``qid Y tag`` or ``qid Y``); standard input (``-``) and pipes are read once."""
    with regular_file(path) as readable:
        json = first_character(readable) in ("{", "[")
        return _frame(_label_rows(readable) if json else list(_line_rows(readable)))


def _line_rows(path: PathLike) -> Iterator[Row]:
    """The rows of a qrels or answers file, one by one; each id string made once however many lines repeat
    it (a 2M-line gold names 10,000 documents: a string per line would be most of its memory)."""
    ids: dict[str, str] = {}
    seen = ids.setdefault
    empty = True
    for lineno, line in iter_lines(path):
        parts = line.split()
        if parts:
            q, d, r = _qrels_row(parts, path, lineno)
            empty = False
            yield seen(q, q), seen(d, d), r
    if empty:
        raise ColieeFormatError(path, None, "the file holds no gold lines", _LINES_EXPECTED)


def gold_kind(table: Mapping[str, Mapping[str, object]]) -> GoldKind:
    """``answers`` when every gold "document" is a Y/N answer, else ``documents`` (said by the first one that
    is not: no pass over a large gold)."""
    docs = chain.from_iterable(table.values())
    if next(docs, None) in ANSWER_LABELS and all(d in ANSWER_LABELS for d in docs):
        return ANSWERS
    return DOCUMENTS


def _riteval_gold(
    path: PathLike, name: PathLike
) -> tuple[dict[GoldKind, Table], dict[GoldKind, ColieeFormatError]]:
    """A labelled riteval XML file's Task 3 articles and Task 4 answers (see :func:`read_gold`)."""
    # the XML reader is imported here: label JSON and qrels, the gold of most runs, do not need it
    from ir_coliee.formats.riteval import parse_riteval
    from ir_coliee.formats.xmlsafe import line_of

    text = read_text(path)
    questions = parse_riteval(text, name)
    articles = _table([(q.query_id, a, 1) for q in questions if q.label for a in q.articles])
    answers = _table([(q.query_id, q.label, 1) for q in questions if q.label])
    if not answers:
        raise ColieeFormatError(
            name, None, "no question has a label", "a labelled riteval file (gold)"
        )
    blind = [q.query_id for q in questions if q.label and not q.articles]
    unreadable: dict[GoldKind, ColieeFormatError] = {}
    if blind:
        unreadable[DOCUMENTS] = ColieeFormatError(
            name,
            line_of(text, f'"{blind[0]}"') or line_of(text, f"'{blind[0]}'"),
            f"{len(blind)} labelled questions name no article that can be read ({', '.join(blind[:5])}): "
            "their article gold would be empty",
            "an article header ('Article 572') on a line of <t1>, or <article>N</article>",
        )
    return {DOCUMENTS: articles, ANSWERS: answers}, unreadable


def _lines_gold(path: PathLike, name: PathLike) -> Table:
    """A qrels or answers file's table; pairs judged twice with another relevance read as their last
    judgment (as trec_eval reads them), with a warning naming the lines of the first."""
    twice: list[tuple[str, str]] = []
    table = _table(_line_rows(path), twice)
    if twice:
        q, d = twice[0]
        lines = [
            n for n, text in iter_lines(path) if list(map(strip_txt, text.split()[:3:2])) == [q, d]
        ]
        warnings.warn(
            f"{os.fspath(name)}: {len(twice)} pair{'s' * (len(twice) > 1)} judged twice with another relevance, "
            "each read as its "
            f"last judgment (as trec_eval reads it): ({q}, {d}) at lines {', '.join(map(str, lines))}",
            ColieeWarning,
            stacklevel=4,
        )
    return table


@paused_gc()
def read_gold(
    path: PathLike, name: PathLike
) -> tuple[dict[GoldKind, Table], dict[GoldKind, ColieeFormatError]]:
    """Every kind of gold a file holds: one for qrels, label JSON and answer files; a labelled riteval
    XML file holds both the Task 3 articles (``documents``) and the Task 4 answers (``answers``). Then the
    kinds it cannot serve whole (a labelled question whose articles cannot be read): using one raises its
    error, never a gold with the question silently left out. ``path``: a file that can be read more than
    once (:func:`regular_file`); ``name``: what messages call it. (A pilot JSONL file: :func:`read_torts`.)"""
    first = first_character(path)
    if first == "<":
        return _riteval_gold(path, name)
    if first in ("{", "["):
        # label JSON: the table straight from the labels, no row per pair; a query without relevant
        # documents is no gold query
        table: Table = {q: docs for q, docs in label_sets(read_text(path), name) if docs}
    else:
        table = _lines_gold(path, name)
    kind = gold_kind(table)
    if kind == ANSWERS:
        _one_answer_each(table, path, name)
    return {kind: table}, {}


def _one_answer_each(table: Table, path: PathLike, name: PathLike) -> None:
    """Answer gold gives each question one answer: a second one is an error at its line."""
    twice = next(
        (q for q, answers in table.items() if sum(r > 0 for r in answers.values()) > 1), None
    )
    if twice is None:
        return
    # its second answer, the ids compared as read (``.txt`` stripped: ``q1.txt`` and ``q1`` are one question)
    lines = [n for n, text in iter_lines(path) if list(map(strip_txt, text.split()[:1])) == [twice]]
    answers = " and ".join(sorted(a for a, r in table[twice].items() if r > 0))
    raise ColieeFormatError(
        name,
        lines[1],
        f"question {twice!r} has two gold answers ({answers})",
        "one Y or N per question",
    )
