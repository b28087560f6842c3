"""Reading gold files: TREC qrels, the COLIEE label JSON of Tasks 1 and 2, Y/N answer files, and the
organisers' labelled riteval XML (Task 3 articles and Task 4 answers in one file).

The public readers return qrels as a pandas DataFrame with ``query_id``, ``doc_id`` and ``relevance``
columns; :func:`read_gold`, which scoring uses, returns ``{query_id: {doc_id: relevance}}`` tables and
so needs no pandas. Y/N gold follows the ``AnswerAccuracy`` encoding: ``(question, label, 1)``.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Iterator
from itertools import accumulate, chain
from typing import TYPE_CHECKING, NamedTuple, Optional

from ir_coliee.errors import ColieeFormatError, ColieeWarning, PathLike, shown
from ir_coliee.formats.textfile import (
    Input,
    first_character,
    iter_lines,
    key_line,
    parse_json,
    paused_gc,
    read_text,
    regular_file,
    stream_name,
    strip_txt,
)
from ir_coliee.model import ANSWER_LABELS, ANSWERS, DOCUMENTS, GoldKind
from ir_coliee.table.tables import CheckedGold, Table

if TYPE_CHECKING:
    import pandas as pd

Row = tuple[str, str, int]

_JSON_EXPECTED = (
    'a JSON object mapping each query to a list of file names, e.g. {"078507.txt": ["081644.txt"]}, '
    'or to one string of names joined by commas, semicolons or spaces, e.g. {"827": "025.txt, 027.txt"}'
)
#: How the releases join several names in one string: ", " (2022 Task 2); ";" and spaces in some copies.
_LABEL_SEPARATORS = re.compile(r"[,;\s]+")
#: A case or paragraph file name: letters, digits, ``.``, ``_``, ``-`` (anything else is no separator the
#: releases use, e.g. ``025.txt|027.txt``: an error naming the key, never one id no line can match).
_LABEL_NAME = re.compile(r"[\w.\-]+")
#: File names, one per line.
_NAMES = re.compile(r"[\w.\-]+(?:\n[\w.\-]+)*")
_LINES_EXPECTED = "4 columns 'query_id iteration doc_id relevance' (TREC qrels) or 'query_id Y|N [tag]' (answers)"


def _frame(rows: list[Row]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])


def _table(rows: Iterable[Row]) -> Table:
    """The rows as a table; its ids are text and its relevance whole numbers, as the files give them."""
    table: Table = CheckedGold()
    for q, d, r in rows:
        table.setdefault(q, {})[d] = r
    return table


def _label_names(value: object, key: str) -> list[str]:
    """The file names of one key's labels; a ``ValueError`` says what is wrong with them."""
    if isinstance(value, str):
        value = [value] if value.strip() else []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"the labels of {key!r} are {value!r}")
    names = [name for v in value for name in _LABEL_SEPARATORS.split(v.strip()) if name]
    if len(names) < len(value):
        raise ValueError(f"an empty document id among the labels of {key!r}")
    bad = next((n for n in names if not _LABEL_NAME.fullmatch(n)), None)
    if bad is not None:
        raise ValueError(
            f"the labels of {key!r} hold {bad!r}, which is no file name (names are joined by commas, semicolons or spaces)"
        )
    return names


@paused_gc()
def parse_labels(text: str, source: PathLike) -> dict[str, list[str]]:
    """Label JSON text as ``{query_id: [doc_id, ...]}``: ``.txt`` stripped, duplicates dropped, every
    key kept (an empty list is a query without relevant documents, as in ``test_no_labels`` files).

    A query given twice (the real 2022 Task 1 training labels give two keys twice; ``"001.txt"`` and ``"001"``
    are one query too) is read as every JSON reader reads a repeated key: its last list in the file. A
    :class:`ColieeWarning` names the keys, their lines and the pairs the union of the lists would add:
    which reading the organisers scored with is not known (COLIEE-SPEC section 2)."""
    return {query: list(docs) for query, docs in _label_sets(text, source).items()}


def _label_sets(text: str, source: PathLike) -> CheckedGold:
    """:func:`parse_labels` with each query's ids as the keys of ``{doc_id: 1}``, a gold table's row."""
    repeated: dict[str, list[object]] = {}
    data = parse_json(text, source, _JSON_EXPECTED, repeated=repeated)
    if not isinstance(data, dict):
        raise ColieeFormatError(source, 1, f"the top level is a JSON {type(data).__name__}", _JSON_EXPECTED)
    queries = _queries_of(list(data), text, source)
    if repeated or len(set(queries)) < len(queries):
        return CheckedGold(_labels_given_twice(data, queries, repeated, text, source))
    values = list(data.values())  # the usual file: lists of plain file names, all read at once
    names = _without_txt(list(chain.from_iterable(values))) if all(type(v) is list for v in values) else None
    if names is None:  # some value is no list of plain file names: read key by key, the error naming its key
        return CheckedGold(
            {query: _doc_ids(data.pop(key), key, text, source) for query, key in zip(queries, list(data))}
        )
    sizes = list(map(len, values))
    del values
    data.clear()  # the JSON strings freed as the names replace them
    ends = accumulate(sizes)
    return CheckedGold(zip(queries, (dict.fromkeys(names[end - n : end], 1) for n, end in zip(sizes, ends))))


def _without_txt(names: list[str]) -> Optional[list[str]]:
    """``names`` with ``.txt`` stripped when each is a plain file name (else ``None``): checked and stripped
    in one pass over all of them, not one by one (a million queries took half a minute)."""
    try:
        joined = "\n".join(names)
    except TypeError:  # a value that is not a string
        return None
    if names and not (_NAMES.fullmatch(joined) and joined.count("\n") == len(names) - 1):
        return None
    return (joined + "\n").replace(".txt\n", "\n")[:-1].split("\n") if names else []


def _doc_ids(value: object, key: str, text: str, source: PathLike) -> dict[str, int]:
    """The document ids of one key's labels, ``.txt`` stripped, as the keys of ``{doc_id: 1}``."""
    try:
        names = _label_names(value, key)
    except ValueError as e:
        raise ColieeFormatError(source, (key_line(text, key) or 1), str(e), _JSON_EXPECTED) from None
    return dict.fromkeys(map(strip_txt, names), 1)


def _queries_of(keys: list[str], text: str, source: PathLike) -> list[str]:
    """The query id of each key (``.txt`` and spaces stripped), all checked in one match."""
    plain = _without_txt(keys)
    if plain is not None and "" not in plain:  # (a key ".txt" names no query)
        return plain
    queries = [strip_txt(k.strip()) for k in keys]
    for key, query in zip(keys, queries):
        if not query or not _LABEL_NAME.fullmatch(query):
            what = "an empty query id" if not query else f"the query id {key!r} is not a file name"
            raise ColieeFormatError(source, (key_line(text, key) or 1), what, _JSON_EXPECTED)
    return queries


def _labels_given_twice(
    data: dict, queries: list[str], repeated: dict[str, list[object]], text: str, source: PathLike
) -> dict[str, dict[str, int]]:
    """The labels of a file that names a query more than once: the last list in the file, said."""
    given: dict[str, list[tuple[str, object]]] = {}  # query -> every (key, value) that names it
    for query, (key, value) in zip(queries, data.items()):
        given.setdefault(query, []).extend((key, v) for v in repeated.get(key, [value]))
    labels: dict[str, dict[str, int]] = {}
    for query, values in given.items():
        key, value = _in_file_order(text, values)[-1] if len(values) > 1 else values[0]
        labels[query] = _doc_ids(value, key, text, source)
    _warn_repeated(text, source, {q: v for q, v in given.items() if len(v) > 1})
    return labels


def _lines(text: str, values: list[tuple[str, object]]) -> list[Optional[int]]:
    """The line of each ``(key, value)`` (the n-th of a key that repeats is its n-th appearance)."""
    nth: dict[str, int] = {}
    lines = []
    for key, _ in values:
        nth[key] = nth.get(key, 0) + 1
        lines.append(key_line(text, key, nth[key]))
    return lines


def _in_file_order(text: str, values: list[tuple[str, object]]) -> list[tuple[str, object]]:
    lines = _lines(text, values)
    order = sorted(range(len(values)), key=lambda i: (lines[i] or 0, i))
    return [values[i] for i in order]


def _warn_repeated(text: str, source: PathLike, twice: dict[str, list[tuple[str, object]]]) -> None:
    keys, extra = [], 0
    for query, values in twice.items():
        at = ", ".join(f"{k!r} line {n}" if n else repr(k) for (k, _), n in zip(values, _lines(text, values)))
        keys.append(f"{query} ({at})")
        try:
            lists = [set(map(strip_txt, _label_names(v, k))) for k, v in values]
        except ValueError:
            continue  # the list read was checked, and names the error
        extra += len(set().union(*lists) - lists[-1])
    warnings.warn(
        f"{os.fspath(source)}: {len(twice)} queries given more than once: {'; '.join(keys)}; read as JSON "
        f"readers read a repeated key, the last list of each (the union of the lists would add {extra} pairs)",
        ColieeWarning,
        stacklevel=3,
    )


def parse_query_list(text: str, source: PathLike) -> list[str]:
    """The queries a label file or a query list names: the keys of label JSON (``test_no_labels`` files
    map each query to an empty list), or a JSON list of file names (the 2021 test list,
    ``["001234.txt", ...]``); ``.txt`` stripped, order kept, duplicates dropped."""
    data = parse_json(text, source, _QUERY_LIST_EXPECTED, repeated={})  # parse_labels says what repeats
    if isinstance(data, list):
        if not all(isinstance(n, str) and _LABEL_NAME.fullmatch(n.strip()) for n in data):
            raise ColieeFormatError(source, 1, "a list holding something other than file names", _QUERY_LIST_EXPECTED)
        return list(dict.fromkeys(strip_txt(n.strip()) for n in data))
    return list(parse_labels(text, source))


_QUERY_LIST_EXPECTED = f'{_JSON_EXPECTED}, or a JSON list of file names, e.g. ["001234.txt", "001235.txt"]'


def read_label_json(path: PathLike) -> pd.DataFrame:
    """Task 1 / Task 2 labels: query -> noticed cases (or entailing paragraphs), ``.txt`` stripped.

    Duplicate entries count once. A query with an empty list has no relevant document and so is
    not a gold query (``test_no_labels`` files are lists of queries, not gold).
    """
    return _frame(_label_rows(path))


def _label_rows(path: PathLike) -> list[Row]:
    labels = parse_labels(read_text(path), path)
    return [(qid, did, 1) for qid, docs in labels.items() for did in docs]


def _qrels_row(parts: list[str], path: PathLike, lineno: int) -> tuple[str, str, int]:
    if len(parts) == 4:
        try:
            relevance = int(parts[3])
        except ValueError:
            raise ColieeFormatError(
                path, lineno, f"relevance {shown(parts[3])} is not a whole number", "an integer in column 4"
            ) from None
        return strip_txt(parts[0]), strip_txt(parts[2]), relevance
    if len(parts) in (2, 3) and parts[1] in ANSWER_LABELS:
        return strip_txt(parts[0]), parts[1], 1
    if len(parts) == 3:
        raise ColieeFormatError(path, lineno, f"unknown answer {shown(parts[1])}", "Y or N in column 2")
    raise ColieeFormatError(path, lineno, f"{len(parts)} columns", _LINES_EXPECTED)


def read_qrels(path: PathLike) -> pd.DataFrame:
    """Read a gold file: COLIEE label JSON (detected by its leading ``{`` or ``[``), TREC qrels, or Y/N
    answers (``qid Y tag`` or ``qid Y``); standard input (``-``) and pipes are read once."""
    with regular_file(path) as readable:
        return _frame(_qrels_rows(readable))


def _qrels_rows(path: PathLike) -> list[Row]:
    if first_character(path) in ("{", "["):
        return _label_rows(path)
    return list(_line_rows(path))


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


def gold_kind(table: Table) -> GoldKind:
    """``answers`` when every gold "document" is a Y/N answer, else ``documents`` (said by the first one that
    is not: no pass over a large gold)."""
    docs = chain.from_iterable(table.values())
    return ANSWERS if next(docs, None) in ANSWER_LABELS and all(d in ANSWER_LABELS for d in docs) else DOCUMENTS


class GoldFile(NamedTuple):
    """Every kind of gold a file holds, and the kinds it cannot serve."""

    tables: dict[GoldKind, Table]
    unreadable: dict[GoldKind, ColieeFormatError]
    """A kind whose gold cannot be read whole (a labelled question whose articles cannot be read): using it
    raises this error, never a gold with the question silently left out."""


@paused_gc()
def read_gold(path: Input) -> GoldFile:
    """Every kind of gold a file holds: one for qrels, label JSON and answer files; a labelled riteval
    XML file holds both the Task 3 articles (``documents``) and the Task 4 answers (``answers``)."""
    with regular_file(path) as readable:
        return _read_gold(readable, stream_name(path))


def _read_gold(path: PathLike, name: PathLike) -> GoldFile:
    first = first_character(path)
    if first == "<":
        # the XML reader is imported here: label JSON and qrels, the gold of most runs, do not need it
        from ir_coliee.formats.riteval import parse_riteval
        from ir_coliee.formats.xmlsafe import line_of

        text = read_text(path)
        questions = parse_riteval(text, name)
        articles = _table([(q.query_id, a, 1) for q in questions if q.label for a in q.articles])
        answers = _table([(q.query_id, q.label, 1) for q in questions if q.label])
        if not answers:
            raise ColieeFormatError(name, None, "no question has a label", "a labelled riteval file (gold)")
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
        return GoldFile({DOCUMENTS: articles, ANSWERS: answers}, unreadable)
    if first == "{" or first == "[":  # label JSON: the table straight from the labels, no row per pair
        table: Table = _label_sets(read_text(path), name)
        for query in [q for q, docs in table.items() if not docs]:
            del table[query]  # a query without relevant documents is no gold query
    else:
        table = _table(_line_rows(path))
    kind = gold_kind(table)
    if kind == ANSWERS:
        _one_answer_each(table, path, name)
    return GoldFile({kind: table}, {})


def _one_answer_each(table: Table, path: PathLike, name: PathLike) -> None:
    """Answer gold gives each question one answer: a second one is an error at its line."""
    twice = next((q for q, answers in table.items() if sum(r > 0 for r in answers.values()) > 1), None)
    if twice is None:
        return
    line = [n for n, text in iter_lines(path) if text.split()[:1] == [twice]][1]  # its second answer
    answers = " and ".join(sorted(a for a, r in table[twice].items() if r > 0))
    raise ColieeFormatError(
        name, line, f"question {twice!r} has two gold answers ({answers})", "one Y or N per question"
    )
