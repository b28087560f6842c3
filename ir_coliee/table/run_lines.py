"""The line-by-line reader: every line checked with :func:`parse_line`, which the validator shares, so
that both report the same problem with the same words and the exact line."""

from __future__ import annotations

import math
import os
import re
from array import array
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Literal, NamedTuple, Optional

from ir_coliee.errors import ColieeFormatError, PathLike, shown
from ir_coliee.formats.textfile import iter_lines, strip_txt
from ir_coliee.model.formats import (
    COMMENT_CLOSE,
    COMMENT_OPEN,
    FORMATS,
    FormatName,
    RunFormat,
    expected_any,
    sniff,
)
from ir_coliee.progress import progress_bytes
from ir_coliee.table.tables import CodedRun, Duplicate

if TYPE_CHECKING:
    import pandas as pd


FormatOption = Literal["auto", FormatName]  # a new format is named once, in model/formats.py
#: "Please restrict run tags to 12 or fewer letters and numbers, with no punctuation."
RUN_TAG = re.compile(r"[A-Za-z0-9]{1,12}")

_BLANKS = " \t\r"
_FIELD_SEPARATOR = re.compile(r"[ \t\r]+")
_LONE_CR = re.compile(rb"\r(?!\n)")


class ParsedRun(NamedTuple):
    """A submission file as read: the run, plus what the command line reports about it."""

    coded: CodedRun
    """The run as codes (what ir_coliee scores from); :attr:`run` is its DataFrame."""
    format: FormatName
    run_tags: list[str]
    duplicates: list[Duplicate]
    path: str
    untagged: int = 0
    """Lines without a run tag (answer files of experiments often omit it: scored, with a warning)."""

    @property
    def run(self) -> pd.DataFrame:
        """``query_id``, ``doc_id``, ``score``, as ir_measures and PyTerrier take runs."""
        return self.coded.frame()


class RunLine(NamedTuple):
    """One checked line of a submission file."""

    line: int
    query_id: str
    doc_id: str
    """The document (``.txt`` stripped), or for answers the answer."""
    score: Optional[float]
    """The score, where the format has one."""
    tag: str
    """The run tag, empty when an answer line omits it."""


def raw_lines(path: PathLike) -> Iterator[tuple[int, str, Optional[list[str]]]]:
    """Every line with its fields: ``None`` for a blank line or a line of a ``/* ... */`` comment."""
    in_comment = False
    for lineno, line in iter_lines(path):
        stripped = line.strip(_BLANKS)
        if in_comment or stripped.startswith(COMMENT_OPEN):
            in_comment = COMMENT_CLOSE not in stripped
            yield lineno, line, None
        else:
            yield lineno, line, fields(stripped) if stripped else None


def fields(stripped: str) -> list[str]:
    """The fields of a line stripped of blanks: split at runs of spaces, tabs and carriage returns. A line
    with no character but letters, digits, punctuation and spaces (``isprintable``) holds no other blank,
    so ``str.split`` splits it alike, in a quarter of the time of the pattern."""
    return stripped.split() if stripped.isprintable() else _FIELD_SEPARATOR.split(stripped)


def data_lines(path: PathLike) -> Iterator[tuple[int, list[str]]]:
    """The fields of each non-blank line outside ``/* ... */`` comments (``task3-L`` files open with one).

    Fields are separated by runs of spaces and tabs; a carriage return inside a line separates too (the
    fast reader, which takes one separator between fields, then steps aside: see :mod:`~ir_coliee.table.run_fast`).
    """
    return ((lineno, parts) for lineno, _, parts in raw_lines(path) if parts)


#: A score as trec_eval (C ``atof``) and this reader agree on it: ASCII decimal digits, an optional sign,
#: point and exponent. Python's ``float`` also reads ``1_000`` (1000; atof: 1) and non-ASCII digits,
#: ``inf`` and ``nan``: refused, with the line, rather than read otherwise than trec_eval reads them.
_SCORE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _score(text: str, path: PathLike, lineno: int, column: int) -> float:
    try:
        score = float(text)
    except ValueError:
        score = math.nan
    if not math.isfinite(score):
        raise ColieeFormatError(
            path,
            lineno,
            f"score {shown(text)} is not a number",
            f"a finite number in column {column}",
        )
    if not _SCORE.fullmatch(text):
        raise ColieeFormatError(
            path,
            lineno,
            f"score {shown(text)} is not a number as trec_eval reads it (Python reads {score!r})",
            f"a finite number in column {column}, in ASCII digits",
        )
    return score


def parse_line(fmt: RunFormat, parts: list[str], path: PathLike, lineno: int) -> RunLine:
    """One line's fields checked against ``fmt``: column count, score, answer label."""
    width = len(fmt.columns)
    # (the tuple is made for unusual lines only)
    if len(parts) != width and len(parts) not in fmt.widths():
        raise ColieeFormatError(path, lineno, f"{len(parts)} columns", fmt.expected())
    doc = parts[fmt.doc]
    if fmt.labels and doc not in fmt.labels:
        raise ColieeFormatError(
            path,
            lineno,
            f"unknown answer {shown(doc)}",
            f"{' or '.join(fmt.labels)} in column {fmt.doc + 1}",
        )
    score = None if fmt.score is None else _score(parts[fmt.score], path, lineno, fmt.score + 1)
    tag = parts[fmt.tag] if len(parts) == width else ""
    query = strip_txt(parts[fmt.query])
    return RunLine(lineno, query, strip_txt(doc) if fmt.strips_txt else doc, score, tag)


def first_format(
    path: PathLike, allowed: tuple[FormatName, ...] = tuple(FORMATS)
) -> tuple[int, FormatName]:
    """The line number of the first run line and the format it fits among ``allowed``."""
    first = next(data_lines(path), None)
    if first is None:
        raise ColieeFormatError(path, None, "the file holds no run lines", expected_any(allowed))
    lineno, parts = first
    name = sniff(parts, allowed)
    if name is None:
        raise ColieeFormatError(path, lineno, f"{len(parts)} columns", expected_any(allowed))
    return lineno, name


class RunColumns:
    """A run's lines as columns, read line by line in bounded memory: ids interned to integer codes (each
    distinct id stored once), scores and line numbers in arrays; 10M lines take about what the fast reader
    takes, not a Python object per cell."""

    def __init__(self, fmt: RunFormat):
        self.fmt = fmt
        self.query_ids: dict[str, int] = {}
        self.doc_ids: dict[str, int] = {}
        self.queries = array("q")
        self.docs = array("q")
        self.scores = array("d")
        self.lines = array("q")
        self.tags: dict[str, int] = {}
        """Each run tag and the first line that has it."""
        self.untagged: list[int] = []
        """Lines without a tag (answer files of experiments)."""

    def add(self, line: RunLine) -> None:
        self.queries.append(self.query_ids.setdefault(line.query_id, len(self.query_ids)))
        self.docs.append(self.doc_ids.setdefault(line.doc_id, len(self.doc_ids)))
        if line.score is not None:
            self.scores.append(line.score)
        self.lines.append(line.line)
        if line.tag:
            self.tags.setdefault(line.tag, line.line)
        else:
            self.untagged.append(line.line)

    def __len__(self) -> int:
        return len(self.lines)

    def duplicates(self) -> list[Duplicate]:
        """Each (query, document) pair given again, with the line it was first given on."""
        return self.coded().duplicates(self.lines.__getitem__)

    def coded(self) -> CodedRun:
        """The run as codes; where the format has no score, line order is the ranking."""
        scores = self.scores if self.fmt.scored else None
        return CodedRun(list(self.query_ids), list(self.doc_ids), self.queries, self.docs, scores)


def read_columns(
    path: PathLike,
    fmt: RunFormat,
    on_error: Optional[Callable[[ColieeFormatError], None]] = None,
    on_text: Optional[Callable[[int, str, Optional[list[str]]], None]] = None,
) -> RunColumns:
    """Every line of ``path`` checked with :func:`parse_line` into columns, in one pass. A bad line raises,
    or with ``on_error`` is reported to it and skipped (the validator reports every bad line); ``on_text``
    then sees each line as written, blank and comment lines too (the validator's text rules)."""
    columns = RunColumns(fmt)
    answered: dict[str, tuple[str, int]] = {}
    desc = f"reading {os.path.basename(path)} line by line"
    # by bytes: a line count has no total to estimate the time left from
    lines = progress_bytes(raw_lines(path), desc, os.path.getsize(path), lambda ln: len(ln[1]) + 1)
    try:  # bytes that are not UTF-8 end the reading: the generator raises
        for lineno, text, parts in lines:
            if parts:
                try:
                    columns.add(
                        _answered_once(fmt, parse_line(fmt, parts, path, lineno), answered, path)
                    )
                except ColieeFormatError as e:
                    if on_error is None:
                        raise
                    on_error(e)
            if on_text is not None:
                on_text(lineno, text, parts)
    except ColieeFormatError as e:
        if on_error is None:
            raise
        on_error(e)
    return columns


def _answered_once(
    fmt: RunFormat, line: RunLine, answered: dict[str, tuple[str, int]], path: PathLike
) -> RunLine:
    """``line``, unless the format takes one answer per question and this one contradicts an earlier answer."""
    if not fmt.labels:
        return line
    given = answered.setdefault(line.query_id, (line.doc_id, line.line))
    if given[0] != line.doc_id:
        raise ColieeFormatError(
            path,
            line.line,
            f"question {line.query_id!r} answered {line.doc_id!r} here and {given[0]!r} on line {given[1]}",
            "one answer per question",
        )
    return line


def parse_checked(path: PathLike, fmt: FormatName) -> ParsedRun:
    columns = read_columns(path, FORMATS[fmt])
    coded = columns.coded()
    return ParsedRun(
        coded,
        columns.fmt.name,
        list(columns.tags),
        coded.duplicates(columns.lines.__getitem__),
        os.fspath(path),
        len(columns.untagged),
    )
