"""The fast reader: the common, clean file read on whole columns, ids kept as codes; ``None`` whenever a
line needs a closer look, for the line-by-line reader. A scan in blocks first makes sure the fields can
only be read one way; then Python splits the columns of a file of up to :data:`SPLIT_FILE` bytes (or of
long lines), pyarrow's multi-threaded CSV reader those of a larger one, and the checks on whole columns
(answers, duplicates, late comments, scores) follow."""

from __future__ import annotations

import codecs
import os
import sys
from array import array
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, BinaryIO, Optional

import numpy as np

from ir_coliee.errors import PathLike
from ir_coliee.formats.textfile import MAX_LINE
from ir_coliee.model.formats import COMMENT_OPEN, FORMATS, FormatName, RunFormat
from ir_coliee.progress import progress_bytes, tqdm_bar
from ir_coliee.table.run_lines import _LONE_CR, ParsedRun
from ir_coliee.table.tables import CodedRun, _merged, _without_txt, sorted_pairs

if TYPE_CHECKING:
    import pyarrow as pa

#: pyarrow's CSV reader parses blocks of this size, on all cores for a file over :data:`_THREADS` bytes.
#: Blocks of 4 MiB hold the peak of a 1M-line read a sixth lower than blocks of 16 MiB, in the same time.
_BLOCK = 1 << 22
_THREADS = 1 << 24
#: An id column as read: the code of each line, and the distinct ids in the order they first appear.
IdColumn = tuple[np.ndarray, list[str]]
#: Queries, documents (codes and values), the distinct run tags and the scores (``None``: none in the format).
Columns = tuple[IdColumn, IdColumn, list[str], Optional[np.ndarray]]

#: Files up to this size are read by :func:`_split_columns`, without pyarrow: importing it maps 47 MiB and
#: takes as long as splitting 100,000 lines, and up to about 450,000 lines the peers' whole run takes
#: less memory than that import (``bench/bench_scaling.py``). Above it Arrow's reader, on all cores, is the
#: faster and holds less than the peers.
SPLIT_FILE = 16 << 20

#: Files whose lines are longer than this on average (runs have 20 to 60 bytes) are split whatever their
#: size, which holds each id once: Arrow, with its own 80 MB, would take twice the memory of the peers.
_LONG_LINE = 1 << 10

#: The blank-pair scan goes through the file in blocks that stay in the CPU's cache (twice as fast as 16 MiB).
_SCAN_BLOCK = 1 << 20
#: :func:`_split_columns` splits pieces of this size: its Python objects for one piece (a string per
#: field, about 56 bytes for an id of a few characters) take ten times the piece.
_PIECE = 1 << 14


class _Counted:
    """A binary file that moves a progress bar by the bytes pyarrow reads from it."""

    def __init__(self, f: BinaryIO, bar: Callable[[int], object]):
        self.f, self.bar, self.closed = f, bar, False

    def read(self, size: int = -1) -> bytes:
        data = self.f.read(size)
        self.bar(len(data))
        return data

    def close(self) -> None:
        self.closed = True


_BOM_BYTES = b"\xef\xbb\xbf"


def _separator(f: BinaryIO, start: int) -> Optional[tuple[bytes, int]]:
    """The one byte that separates every field from ``start`` on, when each pair of fields is separated
    by exactly one space (or one tab), no line starts or ends with one, and the bytes hold nothing the
    line-by-line reader must name (a NUL, a second byte order mark), with the number of lines from
    ``start`` on, blank ones too (where there are as many as run lines, run line ``i`` is line
    ``skip + i + 1`` of the file: what a duplicate's finding names); else ``None``, for the line-by-line
    reader, which also takes runs of spaces, tabs and carriage returns. The file is read in blocks, not
    mapped into memory: a file truncated meanwhile must give an error, not kill the process (SIGBUS)."""
    f.seek(start)
    first_line = f.readline(MAX_LINE)
    sep, other = (b"\t", b" ") if b"\t" in first_line and b" " not in first_line else (b" ", b"\t")
    f.seek(start)
    pairs = _BlankPairs(_SCAN_BLOCK)
    utf8 = codecs.getincrementaldecoder("utf-8")()
    tail = b""  # the last two bytes before the block
    since_newline = 0  # bytes of the current line so far
    lines = 0
    while True:
        block = f.read(_SCAN_BLOCK)  # (read, not readinto a buffer: here five times as fast)
        if not block:
            if not tail or tail[-1:] in (sep, b"\r") or _not_utf8(utf8, b"", final=True):
                return None
            return sep, lines + (tail[-1:] != b"\n")
        lines += block.count(b"\n")
        # each block is checked alone and its seam with the previous block on four bytes
        seam = tail + block[:2]
        if other in block or b"\0" in block or _has_bom(block) or _has_bom(seam):
            return None
        if _not_utf8(utf8, block):
            return None  # Arrow checks the columns it keeps alone; the line reader names the line
        if _lone_cr(block) or _lone_cr(seam):
            return None  # pyarrow ends a line there; the line-by-line reader does not
        if pairs.found(block, at_start=not tail) or (tail and pairs.found(seam, at_start=False)):
            return None
        since_newline = _longest_line(block, since_newline)
        if since_newline < 0:
            return None  # a line over MAX_LINE: the line-by-line reader names it
        tail = (tail + block[-2:])[-2:]


def _not_utf8(decoder: codecs.IncrementalDecoder, block: bytes, final: bool = False) -> bool:
    """Whether the bytes read so far, block by block, are not UTF-8 (``decoder``: the incremental decoder
    they went through, as a character may straddle two blocks)."""
    # an ASCII block after a whole character needs no decoding: the usual file costs one isascii()
    if block.isascii() and not decoder.getstate()[0] and not final:
        return False
    try:
        decoder.decode(block, final)
    except UnicodeDecodeError:
        return True
    return False


def _lone_cr(data: bytes) -> bool:
    """Whether a CR stands before anything but LF in ``data`` (a final CR is judged with the next block)."""
    lone = _LONE_CR.search(data) if b"\r" in data else None
    return lone is not None and lone.start() < len(data) - 1


def _has_bom(data: bytes) -> bool:
    # a search for its first byte alone is a memchr; the three-byte search takes 40 times as long
    return _BOM_BYTES[:1] in data and _BOM_BYTES in data


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


class _BlankPairs:
    """Whether two blank bytes (space, tab, CR, LF, control bytes) stand side by side in a block, other
    than line ends (CR LF, or LF LF: a blank line), or the block starts with one: an empty field or a line
    that starts or ends with a separator. numpy (a byte search for each such pair would take several times
    as long), into buffers made once: a fresh megabyte for each block cost its page faults again, eight
    times the checks themselves on the machine measured."""

    def __init__(self, size: int):
        size = max(size, 4)  # a seam is four bytes
        self.blank = np.empty(size, dtype=bool)
        self.side_by_side = np.empty(size, dtype=bool)

    def found(self, data: bytes, at_start: bool) -> bool:
        block = np.frombuffer(data, dtype=np.uint8)
        n = len(block)
        if at_start and (not n or block[0] <= 32):
            return True
        blank = np.less_equal(block, 32, out=self.blank[:n])
        side_by_side = np.bitwise_and(blank[1:], blank[:-1], out=self.side_by_side[: max(n - 1, 0)])
        # count_nonzero, not any(): on a bool array numpy's any() takes several times as long
        # rare in LF files (a blank line); in CRLF files, at every line end
        if np.count_nonzero(side_by_side):
            ends = (block == 13) | (block == 10)
            # CR LF, or LF LF (a blank line): both readers skip them
            line_ends = ends[1:] & ends[:-1]
            return bool(np.count_nonzero(side_by_side & ~line_ends))
        return False


def _arrow_table(path: PathLike, fmt: RunFormat, start: int, sep: bytes, size: int) -> pa.Table:
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    names = [f"c{i}" for i in range(fmt.width)]
    ids = pa.dictionary(pa.int32(), pa.string())
    wanted = [fmt.query, fmt.doc, fmt.tag] + ([fmt.score] if fmt.score is not None else [])
    # ids and run tags as dictionary codes (of the tags, only the distinct values are kept)
    types = {names[i]: (pa.float64() if i == fmt.score else ids) for i in wanted}
    with open(path, "rb") as f:
        f.seek(start)
        bar = tqdm_bar(f"reading {os.path.basename(path)}", size - start)
        try:
            return pa_csv.read_csv(
                _Counted(f, bar.update),
                # threads only where there are blocks to share: a file of a few blocks gains nothing from them,
                # and Arrow's pool, once started, can abort a short process at exit ("terminate called
                # without an active exception": seen about once in 25 runs of a page that reads small runs)
                read_options=pa_csv.ReadOptions(
                    column_names=names, block_size=_BLOCK, use_threads=size - start > _THREADS
                ),
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


def _chunks(columns: dict[int, pa.ChunkedArray], at: int) -> tuple[list[pa.Array], list[str]]:
    """The chunks of column ``at`` and, for a dictionary column, its distinct values in the order of
    first appearance: Arrow unifies the blocks' dictionaries (each block's new values after those of the
    blocks before), with no Python lookup per value (for ten million distinct ids, a dict of them took
    longer, and more memory, than the peer's whole run)."""
    import pyarrow as pa

    column = columns.pop(at)
    if not pa.types.is_dictionary(column.type):
        return column.chunks, []
    chunks = column.unify_dictionaries().chunks
    # what Arrow's allocator freed (the blocks copied before, the hash table of the unified values) goes
    # back to the system now, not when it next purges: for ten million distinct ids the table took 800 MB,
    # kept when the Python strings were made; and the C allocator kept each thread's blocks in its arena
    pa.default_memory_pool().release_unused()
    return chunks, chunks[0].dictionary.to_pylist() if chunks else []


def _column(chunks: list[pa.Array], n: int, dtype: type) -> np.ndarray:
    """The numbers of ``chunks`` as one array, each chunk let go once copied: the peak stays near the size
    of the parsed columns, not twice it (as a ``combine_chunks`` took)."""
    out: np.ndarray = np.empty(n, dtype=dtype)
    width = np.dtype(dtype).itemsize
    done = 0
    for i, chunk in enumerate(chunks):
        chunks[i] = None
        values = chunk if dtype is np.float64 else chunk.indices
        # read over Arrow's buffer (no nulls; an empty chunk has none): Arrow's ``to_numpy`` imports
        # pandas, which costs more than reading a file of a million lines
        data = values.buffers()[1]
        if data is not None:
            at = values.offset * width
            out[done : done + len(chunk)] = np.frombuffer(data, dtype, len(values), at)
        done += len(chunk)
    return out


def _stripped(codes: np.ndarray, values: list[str], strip: bool) -> IdColumn:
    """An id column (32-bit codes: half the memory), with ``strip`` ``.txt`` stripped from the values
    (merging ids that differ only by it)."""
    stripped = _without_txt(values) if strip else values
    if stripped is values:
        return codes, values  # the distinct values, distinct still
    return _merged(codes, stripped)


def _codes(columns: dict[int, pa.ChunkedArray], at: int, n: int, strip: bool) -> IdColumn:
    chunks, values = _chunks(columns, at)
    return _stripped(_column(chunks, n, np.int32), values, strip)


def _pieces(f: BinaryIO) -> Iterator[bytes]:
    """The rest of ``f`` in pieces of whole lines, each ending with a line end."""
    # (whole lines from the file object's own reader: a line of megabytes is copied twice, not once for
    # each block it spans)
    while lines := f.readlines(_PIECE):
        piece = b"".join(lines)
        del lines
        yield piece if piece.endswith(b"\n") else piece + b"\n"


def _fields(piece: bytes, sep: bytes, width: int) -> Optional[list[str]]:
    """The fields of ``piece`` (whole lines of a file :func:`_separator` found clean), split at ``sep`` and
    line ends only, as the line reader splits them (``str.split`` would also split at a form feed or an
    ideographic space); ``None`` unless every line is blank or has ``width`` fields."""
    data = np.frombuffer(piece, np.uint8)
    ends = np.flatnonzero(data == 10)
    per_line = np.diff(np.searchsorted(np.flatnonzero(data == sep[0]), ends), prepend=0)
    # a blank line is empty, or a CR alone: the scan let no other line start with a blank byte
    starts = np.concatenate(([0], ends[:-1] + 1))
    blank = (ends == starts) | (data[starts] == 13)
    if np.count_nonzero(per_line[~blank] != width - 1):
        return None
    try:
        text = piece.decode()
    except UnicodeDecodeError:  # (the file changed since the scan: parse_run says so)
        return None
    # (a CR stands only before a line end: the scan checked it)
    text = text.replace("\r\n", "\n") if "\r" in text else text
    # the empty fields are those of blank lines, and the one after the last line end
    between = sep.decode()
    # (rebound, not chained: a piece of one long line is held twice while split, not three times)
    text = text.replace("\n", between)
    return list(filter(None, text.split(between)))


def _split_columns(
    path: PathLike, fmt: RunFormat, start: int, sep: bytes, size: int
) -> Optional[Columns]:
    """The columns of a file :func:`_separator` found clean, split by Python piece by piece, ids coded in
    the order they first appear; ``None`` for a line with other columns or a score that is not a number."""
    ids: tuple[dict[str, int], dict[str, int]] = ({}, {})
    codes, scores, tags = (array("i"), array("i")), array("d"), dict[str, None]()
    with open(path, "rb") as f:
        f.seek(start)
        for piece in progress_bytes(
            _pieces(f), f"reading {os.path.basename(path)}", size - start, len
        ):
            tokens = _fields(piece, sep, fmt.width)
            if tokens is None:
                return None
            for at, known, out in zip((fmt.query, fmt.doc), ids, codes):
                out.extend([known.setdefault(t, len(known)) for t in tokens[at :: fmt.width]])
            tags.update(dict.fromkeys(tokens[fmt.tag :: fmt.width]))
            if fmt.score is not None and not _scores(tokens[fmt.score :: fmt.width], scores):
                return None
            del tokens  # (before the next piece's are made)
    query, doc = (np.frombuffer(c, np.int32) if c else np.empty(0, np.int32) for c in codes)
    return (
        _stripped(query, list(ids[0]), strip=True),
        _stripped(doc, list(ids[1]), strip=fmt.strips_txt),
        list(tags),
        None if fmt.score is None else np.frombuffer(scores, np.float64) if scores else np.empty(0),
    )


def _scores(column: list[str], out: array[float]) -> bool:
    """Whether ``column`` holds numbers as trec_eval and the line reader read them, added to ``out``:
    Python's ``float`` also reads ``1_000`` and digits other than ASCII (refused here), ``inf`` and
    ``nan`` (refused by :func:`parse_fast`)."""
    joined = "".join(column)
    if not joined.isascii() or "_" in joined:
        return False
    try:
        out.extend(map(float, column))
    except ValueError:
        return False
    return True


def _arrow_columns(
    path: PathLike, fmt: RunFormat, start: int, sep: bytes, size: int
) -> Optional[Columns]:
    """Queries, documents (codes and values), the distinct run tags and the scores (``None``: none in the format)."""
    import pyarrow as pa

    try:
        table = _arrow_table(path, fmt, start, sep, size)
    except (pa.ArrowInvalid, UnicodeDecodeError):
        return None  # a line with other columns, a score that is not a number, bytes that are not UTF-8
    # each column is taken out of the table and converted on its own, block by block (:func:`_chunks`)
    n = table.num_rows
    columns = {int(name[1:]): table.column(name) for name in table.column_names}
    del table
    queries = _codes(columns, fmt.query, n, strip=True)
    docs = _codes(columns, fmt.doc, n, strip=fmt.strips_txt)
    scores = None if fmt.score is None else _column(_chunks(columns, fmt.score)[0], n, np.float64)
    return queries, docs, _chunks(columns, fmt.tag)[1], scores


def _arrow_loaded() -> bool:
    return "pyarrow" in sys.modules


def parse_fast(path: PathLike, name: FormatName, skip: int) -> Optional[ParsedRun]:
    """The common, clean file read on whole columns (split by Python, or by pyarrow's multi-threaded CSV
    reader); ``None`` whenever anything needs a closer look (then
    :func:`~ir_coliee.table.run_lines.parse_checked` reads line by line and reports the exact line)."""
    fmt = FORMATS[name]
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            return None
        # the byte offset of line ``skip + 1`` (past a byte order mark)
        f.seek(3 if f.read(3) == _BOM_BYTES else 0)
        for _ in range(skip):
            f.readline()
        start = f.tell()
        scanned = _separator(f, start)
    if scanned is None:
        return None
    sep, lines = scanned
    # ids of kilobytes: Arrow would hold each twice, its dictionary and a Python string; a smaller file
    # where pyarrow is loaded (by pandas 3, or a larger run) costs Arrow no import: there it is the faster
    short = size - start <= SPLIT_FILE and not _arrow_loaded()
    split = short or size - start > _LONG_LINE * lines
    columns = _split_columns if split else _arrow_columns
    read = columns(path, fmt, start, sep, size)
    if read is None:
        return None
    (queries, query_ids), (docs, doc_ids), tags, scores = read
    if not len(queries) or any(q.startswith(COMMENT_OPEN) for q in query_ids):
        return None  # a comment after the first run line: only the checked reader skips it exactly
    if fmt.labels and (
        not set(doc_ids) <= set(fmt.labels) or np.bincount(queries).max(initial=0) > 1
    ):
        return None
    pairs = sorted_pairs(queries, docs, len(doc_ids))
    repeats = bool(np.count_nonzero(pairs[1:] == pairs[:-1]))
    if repeats and lines != len(queries):
        return None  # duplicates and blank lines: the checked reader names each duplicate's line
    if scores is not None and not np.isfinite(scores).all():
        return None
    coded = CodedRun(
        query_ids,
        doc_ids,
        queries,
        docs,
        scores,
        unique=not repeats,
        pairs=None if repeats else pairs,
    )
    # counted once, each line named
    named = coded.duplicates(lambda row: skip + row + 1)
    return ParsedRun(coded, fmt.name, tags, named, os.fspath(path))
