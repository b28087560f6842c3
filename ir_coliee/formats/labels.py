"""The COLIEE label JSON of Tasks 1 and 2 (``{"078507.txt": ["081644.txt"]}``) and the JSON lists of query
files: the organisers' slips read by documented rules (names joined in one string, a query given twice),
every error naming the file and the key's line."""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable
from itertools import accumulate, chain
from typing import Optional

from ir_coliee.errors import SHOWN, ColieeFormatError, ColieeWarning, PathLike, counted
from ir_coliee.formats.textfile import key_line, key_lines, parse_json, paused_gc, strip_txt

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


def _label_names(value: object, key: str) -> list[str]:
    """The file names of one key's labels; a ``ValueError`` says what is wrong with them."""
    if isinstance(value, str):
        value = [value] if value else []  # "" is no labels, as []; "  " an empty id, as ["  "]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"the labels of {key!r} are {value!r}")
    names = [name for v in value for name in _LABEL_SEPARATORS.split(v.strip()) if name]
    if len(names) < len(value):
        raise ValueError(f"an empty document id among the labels of {key!r}")
    bad = next((n for n in names if not _LABEL_NAME.fullmatch(n)), None)
    no_case = next((n for n in names if not _names_a_case(n)), None)
    if bad is None and no_case is not None:
        raise ValueError(f"the labels of {key!r} hold {no_case!r}, which names no case")
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
    return {query: list(docs) for query, docs in label_sets(text, source)}


def label_sets(text: str, source: PathLike) -> Iterable[tuple[str, dict[str, int]]]:
    """:func:`parse_labels` as ``(query_id, {doc_id: 1})`` pairs, a gold table's rows (not a table: the
    reader of a million queries builds its table from them once)."""
    repeated: dict[str, list[object]] = {}
    data = parse_json(text, source, _JSON_EXPECTED, repeated=repeated)
    if not isinstance(data, dict):
        raise ColieeFormatError(
            source, 1, f"the top level is a JSON {type(data).__name__}", _JSON_EXPECTED
        )
    queries = _queries_of(list(data), text, source)
    if repeated or len(set(queries)) < len(queries):
        return _labels_given_twice(data, queries, repeated, text, source).items()
    values = list(data.values())  # the usual file: lists of plain file names, all read at once
    names = (
        _without_txt(list(chain.from_iterable(values)))
        if all(type(v) is list for v in values)
        else None
    )
    # some value is no list of plain file names: read key by key, the error naming its key
    if names is None:
        return [
            (query, _doc_ids(data.pop(key), key, text, source))
            for query, key in zip(queries, list(data))
        ]
    sizes = list(map(len, values))
    del values
    data.clear()  # the JSON strings freed as the names replace them
    ends = accumulate(sizes)
    return zip(queries, (dict.fromkeys(names[end - n : end], 1) for n, end in zip(sizes, ends)))


def _without_txt(names: list[str]) -> Optional[list[str]]:
    """``names`` with ``.txt`` stripped when each is a plain file name (else ``None``): checked and stripped
    in one pass over all of them, not one by one (a million queries took half a minute)."""
    try:
        joined = "\n".join(names)
    except TypeError:  # a value that is not a string
        return None
    if names and not (_NAMES.fullmatch(joined) and joined.count("\n") == len(names) - 1):
        return None
    plain = (joined + "\n").replace(".txt\n", "\n")[:-1]
    if names and ("\n\n" in f"\n{plain}\n" or "\n." in f"\n{plain}"):
        return None  # an id that names no case (see _names_a_case): read one by one, and refused
    return plain.split("\n") if names else []


def _names_a_case(name: str) -> bool:
    """Whether a file name names a case: its id is not empty (``.txt``) and is no other file's extension
    (``.TXT``, ``.txt.txt``, ``..txt``: an id starting with ``.``)."""
    bare = strip_txt(name)
    return bool(bare) and not bare.startswith(".")


def _doc_ids(value: object, key: str, text: str, source: PathLike) -> dict[str, int]:
    """The document ids of one key's labels, ``.txt`` stripped, as the keys of ``{doc_id: 1}``."""
    try:
        names = _label_names(value, key)
    except ValueError as e:
        raise ColieeFormatError(
            source, (key_line(text, key) or 1), str(e), _JSON_EXPECTED
        ) from None
    return dict.fromkeys(map(strip_txt, names), 1)


def _queries_of(keys: list[str], text: str, source: PathLike) -> list[str]:
    """The query id of each key (``.txt`` and spaces stripped), all checked in one match."""
    plain = _without_txt(keys)
    if plain is not None:
        return plain
    queries = [strip_txt(k.strip()) for k in keys]
    for key, query in zip(keys, queries):
        if not _LABEL_NAME.fullmatch(query):
            what = f"the query id {key!r} is not a file name" if query else "an empty query id"
        elif not _names_a_case(key.strip()):
            what = f"the key {key!r} names no case"
        else:
            continue
        raise ColieeFormatError(source, (key_line(text, key) or 1), what, _JSON_EXPECTED)
    return queries


def _labels_given_twice(
    data: dict, queries: list[str], repeated: dict[str, list[object]], text: str, source: PathLike
) -> dict[str, dict[str, int]]:
    """The labels of a file that names a query more than once: the last list in the file, said."""
    given: dict[str, list[tuple[str, object]]] = {}  # query -> every (key, value) that names it
    for query, (key, value) in zip(queries, data.items()):
        given.setdefault(query, []).extend((key, v) for v in repeated.get(key, [value]))
    twice = {q: v for q, v in given.items() if len(v) > 1}
    found = key_lines(text, {k for values in twice.values() for k, _ in values})  # one pass
    lines = {q: _lines(found, values) for q, values in twice.items()}
    labels: dict[str, dict[str, int]] = {}
    for query, values in given.items():
        # the last in the file, not in the object (keys "001.txt" and "001"); a query given once: no search
        at = lines.get(query, [0])
        key, value = values[max(range(len(values)), key=lambda i: (at[i] or 0, i))]
        labels[query] = _doc_ids(value, key, text, source)
    _warn_repeated(source, twice, lines)
    return labels


def _lines(found: dict[str, list[int]], values: list[tuple[str, object]]) -> list[Optional[int]]:
    """The line of each ``(key, value)`` among the lines ``found`` of each key (the n-th of a key that
    repeats is its n-th appearance)."""
    nth: dict[str, int] = {}
    lines: list[Optional[int]] = []
    for key, _ in values:
        nth[key] = nth.get(key, 0) + 1
        lines.append(found[key][nth[key] - 1] if len(found[key]) >= nth[key] else None)
    return lines


def _warn_repeated(
    source: PathLike,
    twice: dict[str, list[tuple[str, object]]],
    lines: dict[str, list[Optional[int]]],
) -> None:
    keys, extra = [], 0
    for query, values in twice.items():
        at = ", ".join(
            f"{k!r} line {n}" if n else repr(k) for (k, _), n in zip(values, lines[query])
        )
        keys.append(f"{query} ({at})")
        try:
            lists = [set(map(strip_txt, _label_names(v, k))) for k, v in values]
        except ValueError:
            continue  # the list read was checked, and names the error
        extra += len(set().union(*lists) - lists[-1])
    named = "; ".join(keys[:SHOWN]) + (
        f"; and {len(keys) - SHOWN:,} more" if len(keys) > SHOWN else ""
    )
    warnings.warn(
        f"{os.fspath(source)}: {counted(len(twice), 'query', 'queries')} given more than once: {named}; read as JSON "
        f"readers read a repeated key, the last list of each (the union of the lists would add {extra} pairs)",
        ColieeWarning,
        stacklevel=3,
    )


def parse_query_list(text: str, source: PathLike) -> list[str]:
    """The queries a label file or a query list names: the keys of label JSON (``test_no_labels`` files
    map each query to an empty list), or a JSON list of file names (the 2021 test list,
    ``["001234.txt", ...]``); ``.txt`` stripped, order kept, duplicates dropped."""
    # parse_labels says what repeats
    data = parse_json(text, source, _QUERY_LIST_EXPECTED, repeated={})
    if isinstance(data, list):
        if not all(isinstance(n, str) and _LABEL_NAME.fullmatch(n.strip()) for n in data):
            raise ColieeFormatError(
                source, 1, "a list holding something other than file names", _QUERY_LIST_EXPECTED
            )
        return list(dict.fromkeys(strip_txt(n.strip()) for n in data))
    return list(parse_labels(text, source))


_QUERY_LIST_EXPECTED = (
    f'{_JSON_EXPECTED}, or a JSON list of file names, e.g. ["001234.txt", "001235.txt"]'
)
