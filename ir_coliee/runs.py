"""Reading and writing the official COLIEE submission formats (COLIEE-SPEC section 5).

=========  ======================================  ==========================================
format     line                                    used by
=========  ======================================  ==========================================
pairs      ``000001 000018 univABC``               Task 1, Task 2 (``001 013 tag``), Task 3 (2018-)
trec       ``H19-1-3 Q0 96 1 0.84 univABC``        Task 3 and its ranked ``task3-L`` files
answers    ``H19-1-3 N univABC``                   Tasks 4, 5
=========  ======================================  ==========================================

Runs come back as a pandas DataFrame with ``query_id``, ``doc_id`` (for answers: the label) and
``score`` columns, which ir_measures and PyTerrier take as they are. Where a format has no score,
line order is the ranking: the first line gets the highest score.
"""

from __future__ import annotations

import csv
import math
import mmap
import os
import re
from typing import NamedTuple, Optional, Union

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from ir_coliee.errors import ColieeFormatError, PathLike
from ir_coliee.providers.counting import run_table
from ir_coliee.textfile import iter_lines, strip_txt

FORMATS = ("pairs", "trec", "answers")
ANSWER_LABELS = ("Y", "N")
#: "Please restrict run tags to 12 or fewer letters and numbers, with no punctuation."
RUN_TAG = re.compile(r"[A-Za-z0-9]{1,12}")

_EXPECTED_LINE = {
    "pairs": "3 columns 'query_id doc_id run_tag'",
    "trec": "6 columns 'query_id Q0 doc_id rank score run_tag'",
    "answers": "3 columns 'query_id Y|N run_tag'",
}
_BLANKS = " \t\r"
_FIELD_SEPARATOR = re.compile(r"[ \t\r]+")
_LONE_CR = re.compile(rb"\r(?!\n)")
_EXPECTED_ANY = "3 columns ('query doc tag' or 'query Y|N tag') or 6 columns ('query Q0 doc rank score tag')"


class Duplicate(NamedTuple):
    """A (query, document) pair given again: counted once, at its first (best) position."""

    line: int
    first_line: int
    query_id: str
    doc_id: str


class ParsedRun(NamedTuple):
    """A submission file as read: the run, plus what the command line reports about it."""

    run: pd.DataFrame
    format: str
    run_tags: list[str]
    duplicates: list[Duplicate]
    path: str


def detect_format(parts: list[str], path: PathLike, lineno: int) -> str:
    if len(parts) == 6:
        return "trec"
    if len(parts) == 3:
        return "answers" if parts[1] in ANSWER_LABELS else "pairs"
    raise ColieeFormatError(path, lineno, f"{len(parts)} columns", _EXPECTED_ANY)


def data_lines(path: PathLike):
    """The fields of each non-blank line outside ``/* ... */`` comments (``task3-L`` files open with one).

    Fields are separated by spaces and tabs, as pandas' reader sees them; a carriage return inside
    a line separates too (the fast reader then steps aside, see :func:`_parse_fast`).
    """
    in_comment = False
    for lineno, line in iter_lines(path):
        stripped = line.strip(_BLANKS)
        if in_comment or stripped.startswith("/*"):
            in_comment = "*/" not in stripped
            continue
        if stripped:
            yield lineno, _FIELD_SEPARATOR.split(stripped)


def _score(text: str, path: PathLike, lineno: int) -> float:
    try:
        score = float(text)
    except ValueError:
        score = math.nan
    if not math.isfinite(score):
        raise ColieeFormatError(path, lineno, f"score {text!r} is not a number", "a finite number in column 5")
    return score


def parse_run(path: PathLike, format: str = "auto") -> ParsedRun:
    """Read a submission file in any official format (``format="auto"`` detects it from the first line).

    Raises :class:`~ir_coliee.errors.ColieeFormatError` naming the file and line for a wrong column
    count, a non-numeric score, an answer other than Y/N, two different answers to one question, an
    empty file or bytes that are not UTF-8.
    """
    if format != "auto" and format not in FORMATS:
        raise ValueError(f"unknown run format {format!r}; expected one of auto, {', '.join(FORMATS)}")
    first = next(data_lines(path), None)
    if first is None:
        raise ColieeFormatError(path, None, "the file holds no run lines", _EXPECTED_ANY)
    lineno, parts = first
    fmt = detect_format(parts, path, lineno) if format == "auto" else format
    return _parse_fast(path, fmt, skip=lineno - 1) or _parse_checked(path, fmt)


_CHUNK = 1_000_000


class _Chunks:
    """What the fast reader keeps of each chunk: query and document ids as categories (each distinct
    id stored once), scores, run tags. A 10M-line run then needs a fraction of the memory of one
    string object per cell."""

    def __init__(self) -> None:
        self.qids: list[pd.Categorical] = []
        self.docs: list[pd.Categorical] = []
        self.scores: list[np.ndarray] = []
        self.tags: dict[str, None] = {}

    def add(self, table: pd.DataFrame, fmt: str) -> bool:
        last = table.shape[1] - 1
        if (table[last] == "").any():  # a short line leaves the last column empty
            return False
        self.qids.append(pd.Categorical(table[0].to_numpy(dtype=object)))
        self.docs.append(pd.Categorical(table[2 if fmt == "trec" else 1].to_numpy(dtype=object)))
        if fmt == "trec":
            self.scores.append(table[4].to_numpy(dtype=float))
        self.tags.update(dict.fromkeys(pd.unique(table[last].to_numpy(dtype=object))))
        return True


def _ids(parts: list[pd.Categorical]) -> pd.Categorical:
    ids = union_categoricals(parts) if len(parts) > 1 else parts[0]
    stripped = [strip_txt(c) for c in ids.categories]
    if len(set(stripped)) == len(stripped):  # ".txt" stripped on the distinct ids, not on every line
        return ids.rename_categories(stripped)
    return pd.Categorical([strip_txt(v) for v in ids.astype(object)])


def _parse_fast(path: PathLike, fmt: str, skip: int) -> Optional[ParsedRun]:
    """pandas' C parser, in chunks, for the common, clean file; ``None`` whenever anything needs a
    closer look (then :func:`_parse_checked` reads line by line and reports the exact line)."""
    ncols = 6 if fmt == "trec" else 3
    if _contains(path, _LONE_CR):  # pandas ends a line there; the line-by-line reader does not
        return None
    chunks = _Chunks()
    try:
        reader = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            names=list(range(ncols)),  # a longer line makes the C parser raise
            dtype={i: ("float64" if fmt == "trec" and i == 4 else "str") for i in range(ncols)},
            engine="c",
            na_filter=False,
            quoting=csv.QUOTE_NONE,
            skiprows=skip,
            encoding="utf-8-sig",
            chunksize=_CHUNK,
        )
        with reader:
            for table in reader:
                if not chunks.add(table, fmt):
                    return None
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError):
        return None
    qids, docs = _ids(chunks.qids), _ids(chunks.docs)
    if any(str(q).startswith("/*") for q in qids.categories):
        return None  # a comment after the first run line: only the checked reader skips it exactly
    pairs = pd.Series(qids.codes.astype(np.int64) * len(docs.categories) + docs.codes)
    if pairs.duplicated().any():
        return None
    if fmt == "answers":
        if not set(docs.categories) <= set(ANSWER_LABELS) or pd.Series(qids.codes).duplicated().any():
            return None
    if fmt == "trec":
        scores = np.concatenate(chunks.scores)
        if not np.isfinite(scores).all():
            return None
    else:
        scores = np.arange(len(qids), 0, -1, dtype=float)
    # as objects, the columns point at the categories' strings: no string is copied per line
    run = pd.DataFrame({"query_id": qids.astype(object), "doc_id": docs.astype(object), "score": scores})
    return ParsedRun(run, fmt, [str(t) for t in chunks.tags], [], os.fspath(path))


def _contains(path: PathLike, needle: Union[bytes, re.Pattern]) -> bool:
    """Whether the file holds ``needle`` (bytes or a bytes pattern) anywhere: a memory map, no copy."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return False
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            if isinstance(needle, bytes):
                return mm.find(needle) != -1
            return needle.search(mm) is not None


def _parse_checked(path: PathLike, fmt: str) -> ParsedRun:
    qids: list[str] = []
    docs: list[str] = []
    scores: list[float] = []
    tags: dict[str, None] = {}
    first_seen: dict[tuple[str, str], int] = {}
    answered: dict[str, tuple[str, int]] = {}
    duplicates: list[Duplicate] = []
    ncols = 6 if fmt == "trec" else 3
    for lineno, parts in data_lines(path):
        if len(parts) != ncols:
            raise ColieeFormatError(path, lineno, f"{len(parts)} columns", _EXPECTED_LINE[fmt])
        if fmt == "trec":
            qid, did, tag = strip_txt(parts[0]), strip_txt(parts[2]), parts[5]
            scores.append(_score(parts[4], path, lineno))
        elif fmt == "pairs":
            qid, did, tag = strip_txt(parts[0]), strip_txt(parts[1]), parts[2]
        else:
            qid, did, tag = strip_txt(parts[0]), parts[1], parts[2]
            if did not in ANSWER_LABELS:
                raise ColieeFormatError(path, lineno, f"unknown answer {did!r}", "Y or N in column 2")
            if qid in answered and answered[qid][0] != did:
                raise ColieeFormatError(
                    path,
                    lineno,
                    f"question {qid!r} answered {did!r} here and {answered[qid][0]!r} on line {answered[qid][1]}",
                    "one answer per question",
                )
            answered.setdefault(qid, (did, lineno))
        key = (qid, did)
        if key in first_seen:
            duplicates.append(Duplicate(lineno, first_seen[key], qid, did))
        else:
            first_seen[key] = lineno
        qids.append(qid)
        docs.append(did)
        tags[tag] = None
    if fmt != "trec":
        n = len(qids)
        scores = [float(n - i) for i in range(n)]
    run = pd.DataFrame({"query_id": qids, "doc_id": docs, "score": scores})
    return ParsedRun(run, fmt, list(tags), duplicates, os.fspath(path))


def read_run(path: PathLike, format: str = "auto") -> pd.DataFrame:
    """The run in a submission file, as a DataFrame (``query_id``, ``doc_id``, ``score``) for ir_measures."""
    return parse_run(path, format).run


def check_run_tag(tag: str) -> str:
    """Return ``tag`` if it is an official run tag (1-12 letters or digits), else raise ``ValueError``."""
    if not isinstance(tag, str) or not RUN_TAG.fullmatch(tag):
        raise ValueError(f"run tag {tag!r} is not allowed: use 1 to 12 letters or digits, no punctuation")
    return tag


def _ranked(run: object) -> list[tuple[str, list[tuple[str, float]]]]:
    table = run_table(run)
    return [
        (qid, sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True))
        for qid, docs in sorted(table.items())
    ]


def write_run(run: object, path: PathLike, format: str, tag: str, max_per_query: Optional[int] = None) -> str:
    """Write ``run`` (anything ir_measures takes) as an official submission file; returns the path.

    Queries are written in id order, documents best score first (ties: doc id descending, as
    trec_eval ranks them); ``max_per_query`` keeps only the best ones (``task3-L`` allows 100).
    PyTerrier result frames (``qid``, ``docno``) are taken too, and dataset ids scoped by query
    (Task 2's ``001/013``) are written as the official format names them (``001 013``).
    """
    if format not in FORMATS:
        raise ValueError(f"unknown run format {format!r}; expected one of {', '.join(FORMATS)}")
    check_run_tag(tag)
    if isinstance(run, pd.DataFrame) and "query_id" not in run.columns and {"qid", "docno"} <= set(run.columns):
        run = run.rename(columns={"qid": "query_id", "docno": "doc_id"})
    lines: list[str] = []
    for qid, scoped in _ranked(run):
        prefix = f"{qid}/"
        ranked = [(d[len(prefix) :] if d.startswith(prefix) else d, s) for d, s in scoped]
        if format == "answers":
            labels = {d for d, _ in ranked}
            if len(labels) != 1 or not labels <= set(ANSWER_LABELS):
                raise ValueError(f"question {qid!r} must have exactly one answer Y or N, got {sorted(labels)}")
        for rank, (did, score) in enumerate(ranked[:max_per_query], 1):
            if format == "trec":
                lines.append(f"{qid} Q0 {did} {rank} {score!r} {tag}\n")
            else:
                lines.append(f"{qid} {did} {tag}\n")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.writelines(lines)
    return os.fspath(path)
