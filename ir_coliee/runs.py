"""Reading and writing the official COLIEE submission formats (COLIEE-SPEC section 5).

The formats themselves are data (:mod:`ir_coliee.model.formats`): ``pairs`` (``000001 000018 univABC``,
Tasks 1, 2, 3), ``trec`` (``H19-1-3 Q0 96 1 0.84 univABC``, Task 3 and its ranked ``task3-L`` files)
and ``answers`` (``H19-1-3 N univABC``, Tasks 4, 5). Every reader here, and the validator, checks a
line with :func:`parse_line`, so they report the same problem with the same words.

Runs come back as a pandas DataFrame with ``query_id``, ``doc_id`` (for answers: the label) and
``score`` columns, which ir_measures and PyTerrier take as they are. Where a format has no score,
line order is the ranking: the first line gets the highest score.

Two readers, one result. The fast one is pyarrow's CSV reader (all cores; ids kept as dictionary
codes, :class:`~ir_coliee.tables.CodedRun`), chosen by measurement over polars and pandas' C parser
(``bench/bench_speed.py``): it takes the common file, one space or tab between fields, and checks on
whole columns what the other checks line by line (column count, scores, answers, duplicates, late
comments). Anything else (runs of spaces, a lone carriage return, a bad line) goes to the line-by-line
reader, which reports the exact line.
"""

from __future__ import annotations

import math
import os
import re
from array import array
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Literal, NamedTuple, Optional, Union, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
from ir_measures.util import TYPE_RUN

from ir_coliee.coded import CodedRun, pair_codes, repeated_pairs
from ir_coliee.errors import ColieeFormatError, PathLike, shown
from ir_coliee.model.formats import (
    ANSWER_LABELS,
    COMMENT_CLOSE,
    COMMENT_OPEN,
    FORMATS,
    FormatName,
    RunFormat,
    expected_any,
    sniff,
)
from ir_coliee.progress import progress, tqdm_bar
from ir_coliee.shapes import run_table
from ir_coliee.textfile import MAX_LINE, atomic_output, iter_lines, regular_file, strip_txt

if TYPE_CHECKING:
    import pandas as pd

FormatOption = Literal["auto", "pairs", "trec", "answers"]
#: "Please restrict run tags to 12 or fewer letters and numbers, with no punctuation."
RUN_TAG = re.compile(r"[A-Za-z0-9]{1,12}")

_BLANKS = " \t\r"
_FIELD_SEPARATOR = re.compile(r"[ \t\r]+")
_LONE_CR = re.compile(rb"\r(?!\n)")

__all__ = ["ANSWER_LABELS", "FORMATS", "ParsedRun", "RunLine", "parse_line", "parse_run", "read_run", "write_run"]


class Duplicate(NamedTuple):
    """A (query, document) pair given again: counted once, at its first (best) position."""

    line: int
    first_line: int
    query_id: str
    doc_id: str


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
            yield lineno, line, _FIELD_SEPARATOR.split(stripped) if stripped else None


def data_lines(path: PathLike) -> Iterator[tuple[int, list[str]]]:
    """The fields of each non-blank line outside ``/* ... */`` comments (``task3-L`` files open with one).

    Fields are separated by runs of spaces and tabs; a carriage return inside a line separates too (the
    fast reader, which takes one separator between fields, then steps aside: see :func:`_parse_fast`).
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
            path, lineno, f"score {shown(text)} is not a number", f"a finite number in column {column}"
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
    if len(parts) not in fmt.widths():
        raise ColieeFormatError(path, lineno, f"{len(parts)} columns", fmt.expected())
    doc = parts[fmt.doc]
    if fmt.labels and doc not in fmt.labels:
        raise ColieeFormatError(
            path, lineno, f"unknown answer {shown(doc)}", f"{' or '.join(fmt.labels)} in column {fmt.doc + 1}"
        )
    score = None if fmt.score is None else _score(parts[fmt.score], path, lineno, fmt.score + 1)
    tag = parts[fmt.tag] if len(parts) == fmt.width else ""
    query = strip_txt(parts[fmt.query])
    return RunLine(lineno, query, strip_txt(doc) if fmt.strips_txt else doc, score, tag)


def first_format(path: PathLike, allowed: tuple[FormatName, ...] = tuple(FORMATS)) -> tuple[int, FormatName]:
    """The line number of the first run line and the format it fits among ``allowed``."""
    first = next(data_lines(path), None)
    if first is None:
        raise ColieeFormatError(path, None, "the file holds no run lines", expected_any(allowed))
    lineno, parts = first
    name = sniff(parts, allowed)
    if name is None:
        raise ColieeFormatError(path, lineno, f"{len(parts)} columns", expected_any(allowed))
    return lineno, name


def parse_run(
    path: PathLike, format: FormatOption = "auto", allowed: Optional[tuple[FormatName, ...]] = None
) -> ParsedRun:
    """Read a submission file in any official format.

    ``format="auto"`` takes the format among ``allowed`` (default: all; a task's formats, e.g.
    ``("answers",)`` for Task 4, so that ``q y tag`` is an unknown answer, not a document) that the
    first run line fits. Raises :class:`~ir_coliee.errors.ColieeFormatError` naming the file and line for
    a wrong column count, a non-numeric score, an answer other than Y/N, two different answers to one
    question, an empty file or bytes that are not UTF-8.
    """
    if format != "auto" and format not in FORMATS:
        raise ValueError(f"unknown run format {format!r}; expected one of auto, {', '.join(FORMATS)}")
    candidates = (format,) if format != "auto" else (allowed or tuple(FORMATS))
    with regular_file(path) as readable:
        before = _state(readable)
        lineno, name = first_format(readable, candidates)
        fmt = FORMATS[name]
        parsed = _parse_fast(readable, fmt, skip=lineno - 1) or _parse_checked(readable, fmt)
        if _state(readable) != before:
            raise ColieeFormatError(
                readable, None, "changed while it was being read", "a file that stays as it is while it is read"
            )
    return parsed._replace(path=os.fspath(path))


def _state(path: PathLike) -> tuple[int, int]:
    """Size and modification time: a file rewritten or truncated while read changes one of them."""
    try:
        info = os.stat(path)
    except OSError:
        return (-1, -1)
    return info.st_size, info.st_mtime_ns


#: pyarrow's CSV reader parses blocks of this size on all cores.
_BLOCK = 1 << 24
#: The blank-pair scan goes through the file in blocks that stay in the CPU's cache (twice as fast as 16 MiB).
_SCAN_BLOCK = 1 << 20


class _Counted:
    """A binary file that moves a progress bar by the bytes pyarrow reads from it."""

    def __init__(self, f: BinaryIO, bar: Callable[[int], object]):
        self.f, self.bar, self.closed = f, bar, False

    def read(self, size: int = -1) -> bytes:
        data = self.f.read(size)
        self.bar(len(data))
        return data

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def close(self) -> None:
        self.closed = True


_BOM_BYTES = b"\xef\xbb\xbf"


def _start(f: BinaryIO, skip: int) -> int:
    """The byte offset of line ``skip + 1`` (past a byte order mark)."""
    f.seek(3 if f.read(3) == _BOM_BYTES else 0)
    for _ in range(skip):
        f.readline()
    return f.tell()


def _separator(f: BinaryIO, start: int) -> Optional[bytes]:
    """The one byte that separates every field from ``start`` on, when each pair of fields is separated
    by exactly one space (or one tab), no line starts or ends with one, and the bytes hold nothing the
    line-by-line reader must name (a NUL, a second byte order mark); else ``None``, for the line-by-line
    reader, which also takes runs of spaces, tabs and carriage returns. The file is read in blocks, not
    mapped into memory: a file truncated meanwhile must give an error, not kill the process (SIGBUS)."""
    f.seek(start)
    first_line = f.readline(MAX_LINE)
    sep, other = (b"\t", b" ") if b"\t" in first_line and b" " not in first_line else (b" ", b"\t")
    f.seek(start)
    previous = b""
    since_newline = 0  # bytes of the current line so far
    while True:
        block = f.read(_SCAN_BLOCK)
        if not block:
            return None if not previous or previous[-1:] in (sep, b"\r") else sep
        data = previous[-1:] + block
        if other in block or b"\0" in block or _BOM_BYTES in previous[-2:] + block:
            return None
        lone = _LONE_CR.search(data) if b"\r" in data else None
        if lone is not None and lone.start() < len(data) - 1:  # a final CR is judged with the next block
            return None  # pyarrow ends a line there; the line-by-line reader does not
        if _blank_pairs(data, at_start=not previous):
            return None
        since_newline = _longest_line(block, since_newline)
        if since_newline < 0:
            return None  # a line over MAX_LINE: the line-by-line reader names it
        previous = block


def _longest_line(block: bytes, carried: int) -> int:
    """The length of the line still open at the end of ``block`` (``carried`` bytes of it came before),
    or -1 when a line over :data:`MAX_LINE` ends or runs on in it. A block is shorter than the limit, so
    only a line that starts before it can be over the limit: two byte searches, no scan of every byte."""
    first = block.find(b"\n")
    if first == -1:
        open_line = carried + len(block)
        return open_line if open_line <= MAX_LINE else -1
    if carried + first > MAX_LINE:
        return -1
    return len(block) - block.rfind(b"\n") - 1


def _blank_pairs(data: bytes, at_start: bool) -> bool:
    """Whether two blank bytes (space, tab, CR, LF, control bytes) stand side by side in ``data``, other
    than line ends (CR LF, or LF LF: a blank line), or the data starts with one: an empty field or a line
    that starts or ends with a separator. numpy: a byte search for each such pair would take several
    times as long."""
    block = np.frombuffer(data, dtype=np.uint8)
    if at_start and (not len(block) or block[0] <= 32):
        return True
    blank = block <= 32
    side_by_side = blank[1:] & blank[:-1]
    if side_by_side.any():  # rare in LF files (a blank line); in CRLF files, at every line end
        ends = (block == 13) | (block == 10)
        line_ends = ends[1:] & ends[:-1]  # CR LF, or LF LF (a blank line): both readers skip them
        if (side_by_side & ~line_ends).any():
            return True
    return False


def _arrow_table(path: PathLike, fmt: RunFormat, start: int, sep: bytes, size: int) -> pa.Table:
    names = [f"c{i}" for i in range(fmt.width)]
    ids = pa.dictionary(pa.int32(), pa.string())
    wanted = [fmt.query, fmt.doc, fmt.tag] + ([fmt.score] if fmt.score is not None else [])
    # ids as dictionary codes; the run tag as plain strings (only its distinct values are kept)
    types = {names[i]: (pa.float64() if i == fmt.score else pa.string() if i == fmt.tag else ids) for i in wanted}
    with open(path, "rb") as f:
        f.seek(start)
        bar = tqdm_bar(f"reading {os.path.basename(path)}", size - start)
        try:
            return pa_csv.read_csv(
                _Counted(f, bar.update),
                read_options=pa_csv.ReadOptions(column_names=names, block_size=_BLOCK),
                parse_options=pa_csv.ParseOptions(
                    delimiter=sep.decode(), quote_char=False, double_quote=False, escape_char=False
                ),
                convert_options=pa_csv.ConvertOptions(
                    column_types=types,
                    include_columns=[names[i] for i in wanted],
                    null_values=[],
                    strings_can_be_null=False,
                    quoted_strings_can_be_null=False,
                ),
            )
        finally:
            bar.close()


def _codes(chunked: pa.ChunkedArray, strip: bool) -> tuple[np.ndarray, pa.Array]:
    """A dictionary column's codes (32-bit: half the memory) and values, ``.txt`` stripped from the
    values (merging ids that differ only by it)."""
    combined = chunked.combine_chunks() if chunked.num_chunks else pa.array([], chunked.type)
    codes = combined.indices.to_numpy(zero_copy_only=False)
    values = combined.dictionary
    if not strip or not pc.any(pc.ends_with(values, ".txt")).as_py():
        return codes, values
    position: dict[str, int] = {}
    remap = [position.setdefault(strip_txt(v), len(position)) for v in values.to_pylist()]
    return np.array(remap, dtype=codes.dtype)[codes], pa.array(list(position), pa.string())


def _spec(fmt: Union[RunFormat, FormatName]) -> RunFormat:
    return FORMATS[fmt] if isinstance(fmt, str) else fmt


def _parse_fast(path: PathLike, fmt: Union[RunFormat, FormatName], skip: int) -> Optional[ParsedRun]:
    """pyarrow's multi-threaded CSV reader, for the common, clean file; ``None`` whenever anything needs
    a closer look (then :func:`_parse_checked` reads line by line and reports the exact line)."""
    fmt = _spec(fmt)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            return None
        start = _start(f, skip)
        sep = _separator(f, start)
    if sep is None:
        return None
    try:
        table = _arrow_table(path, fmt, start, sep, size)
    except (pa.ArrowInvalid, UnicodeDecodeError):
        return None  # a line with other columns, a score that is not a number, bytes that are not UTF-8
    # each column is taken out of the table and converted on its own, so that its chunks are freed
    # before the next one is copied: the peak stays near the size of the parsed columns
    columns = {int(name[1:]): table.column(name) for name in table.column_names}
    del table
    queries, query_ids = _codes(columns.pop(fmt.query), strip=True)
    docs, doc_ids = _codes(columns.pop(fmt.doc), strip=fmt.strips_txt)
    if not len(queries) or pc.any(pc.starts_with(query_ids, COMMENT_OPEN)).as_py():
        return None  # a comment after the first run line: only the checked reader skips it exactly
    if fmt.labels and (not set(doc_ids.to_pylist()) <= set(fmt.labels) or np.bincount(queries).max(initial=0) > 1):
        return None
    if repeated_pairs(queries, docs, len(doc_ids)).any():
        return None
    if fmt.score is not None:
        scores = columns.pop(fmt.score).to_numpy()
        if not np.isfinite(scores).all():
            return None
    else:
        scores = np.arange(len(queries), 0, -1, dtype=float)
    tags = pc.unique(columns.pop(fmt.tag)).to_pylist()  # in the order of first appearance
    coded = CodedRun(query_ids, doc_ids, queries, docs, scores, unique=True)
    return ParsedRun(coded, fmt.name, tags, [], os.fspath(path))


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

    def codes(self) -> tuple[np.ndarray, np.ndarray]:
        """The query and document code of each line, as arrays over the same memory."""
        return np.frombuffer(self.queries, dtype=np.int64), np.frombuffer(self.docs, dtype=np.int64)

    def pair_codes(self) -> np.ndarray:
        return pair_codes(*self.codes(), len(self.doc_ids))

    def duplicates(self) -> list[Duplicate]:
        """Each (query, document) pair given again, with the line it was first given on."""
        pairs = self.pair_codes()
        again = np.flatnonzero(repeated_pairs(*self.codes(), len(self.doc_ids)))
        if not len(again):
            return []
        first: dict[int, int] = {}  # only the pairs given again: a few rows, not a table of every row
        for i in np.flatnonzero(np.isin(pairs, pairs[again])).tolist():
            first.setdefault(int(pairs[i]), i)
        query_ids, doc_ids = list(self.query_ids), list(self.doc_ids)
        return [
            Duplicate(
                self.lines[i], self.lines[first[int(pairs[i])]], query_ids[self.queries[i]], doc_ids[self.docs[i]]
            )
            for i in again.tolist()
        ]

    def coded(self) -> CodedRun:
        """The run as codes; where the format has no score, line order is the ranking."""
        n = len(self)
        scores = np.frombuffer(self.scores, dtype=float) if self.fmt.scored else np.arange(n, 0, -1, dtype=float)
        return CodedRun(
            pa.array(list(self.query_ids), pa.string()),
            pa.array(list(self.doc_ids), pa.string()),
            *self.codes(),
            scores,
        )


TextHook = Callable[[int, str, Optional[list[str]]], None]


def read_columns(
    path: PathLike,
    fmt: RunFormat,
    on_error: Optional[Callable[[ColieeFormatError], None]] = None,
    on_text: Optional[TextHook] = None,
) -> RunColumns:
    """Every line of ``path`` checked with :func:`parse_line` into columns, in one pass. A bad line raises,
    or with ``on_error`` is reported to it and skipped (the validator reports every bad line); ``on_text``
    then sees each line as written, blank and comment lines too (the validator's text rules)."""
    columns = RunColumns(fmt)
    answered: dict[str, tuple[str, int]] = {}
    lines = iter(progress(raw_lines(path), f"checking {os.path.basename(path)} line by line", unit="line"))
    while True:
        try:  # bytes that are not UTF-8 end the reading: the generator raises
            lineno, text, parts = next(lines)
        except StopIteration:
            break
        except ColieeFormatError as e:
            if on_error is None:
                raise
            on_error(e)
            break
        if parts:
            try:
                columns.add(_answered_once(fmt, parse_line(fmt, parts, path, lineno), answered, path))
            except ColieeFormatError as e:
                if on_error is None:
                    raise
                on_error(e)
        if on_text is not None:
            on_text(lineno, text, parts)
    return columns


def _answered_once(fmt: RunFormat, line: RunLine, answered: dict[str, tuple[str, int]], path: PathLike) -> RunLine:
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


def _parse_checked(path: PathLike, fmt: Union[RunFormat, FormatName]) -> ParsedRun:
    columns = read_columns(path, _spec(fmt))
    return ParsedRun(
        columns.coded(),
        columns.fmt.name,
        list(columns.tags),
        columns.duplicates(),
        os.fspath(path),
        len(columns.untagged),
    )


def read_run(path: PathLike, format: FormatOption = "auto") -> pd.DataFrame:
    """The run in a submission file, as a DataFrame (``query_id``, ``doc_id``, ``score``) for ir_measures."""
    return parse_run(path, format).run


def check_run_tag(tag: str) -> str:
    """Return ``tag`` if it is an official run tag (1-12 letters or digits), else raise ``ValueError``."""
    if not isinstance(tag, str) or not RUN_TAG.fullmatch(tag):
        raise ValueError(f"run tag {tag!r} is not allowed: use 1 to 12 letters or digits, no punctuation")
    return tag


def _ranked(run: TYPE_RUN) -> list[tuple[str, list[tuple[str, float]]]]:
    table = run_table(run)
    return [
        (qid, sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True))
        for qid, docs in sorted(table.items())
    ]


def _writable(query_id: object, doc_id: object, score: float) -> None:
    """Refuse what :func:`read_run` would reject: empty ids or ids with white space, scores that are not finite."""
    for what, value in (("query", query_id), ("document", doc_id)):
        if not isinstance(value, str) or not value or _FIELD_SEPARATOR.search(value) or any(c.isspace() for c in value):
            raise ValueError(f"{what} id {value!r} cannot be written: ids are non-empty and hold no white space")
    if not math.isfinite(score):
        raise ValueError(f"the score of {query_id!r} {doc_id!r} is {score!r}; scores are finite numbers")


def format_line(fmt: RunFormat, query_id: str, doc_id: str, rank: int, score: float, tag: str) -> str:
    """One line of ``fmt``, fields placed where the format says."""
    fields = [""] * fmt.width
    fields[fmt.query], fields[fmt.doc], fields[fmt.tag] = query_id, doc_id, tag
    if fmt.score is not None:
        fields[fmt.score] = repr(score)
    if fmt.rank is not None:
        fields[fmt.rank] = str(rank)
    for column, value in fmt.fixed:
        fields[column] = value
    return " ".join(fields) + "\n"


def write_run(run: TYPE_RUN, path: PathLike, format: FormatName, tag: str, max_per_query: Optional[int] = None) -> str:
    """Write ``run`` (anything ir_measures takes) as an official submission file; returns the path.

    Queries are written in id order, documents best score first (ties: doc id descending, as
    trec_eval ranks them); ``max_per_query`` keeps only the best ones (``task3-L`` allows 100).
    PyTerrier result frames (``qid``, ``docno``) are taken too, and dataset ids scoped by query
    (Task 2's ``001/013``) are written as the official format names them (``001 013``).
    """
    if format not in FORMATS:
        raise ValueError(f"unknown run format {format!r}; expected one of {', '.join(FORMATS)}")
    fmt = FORMATS[format]
    check_run_tag(tag)
    columns = set(getattr(run, "columns", ()))
    if "query_id" not in columns and {"qid", "docno"} <= columns:
        run = cast(Any, run).rename(columns={"qid": "query_id", "docno": "doc_id"})
    lines: list[str] = []
    for qid, scoped in _ranked(run):
        prefix = f"{qid}/"
        ranked = [(d[len(prefix) :] if d.startswith(prefix) else d, s) for d, s in scoped]
        if fmt.labels:
            labels = {d for d, _ in ranked}
            if len(labels) != 1 or not labels <= set(fmt.labels):
                raise ValueError(f"question {qid!r} must have exactly one answer Y or N, got {sorted(labels)}")
        for rank, (did, score) in enumerate(ranked[:max_per_query], 1):
            _writable(qid, did, score)
            lines.append(format_line(fmt, qid, did, rank, score, tag))
    with atomic_output(path) as f:  # a kill or a full disk leaves the old file whole
        f.writelines(lines)
    return os.fspath(path)
