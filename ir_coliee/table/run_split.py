"""The fast reader's numpy engine, for a clean file of a few MiB while pyarrow is not loaded: importing
pyarrow costs more than its parser saves there (``bench/bench_speed.py``). The file's bytes are split at
its separator and line ends, and each id column is interned through one sort of 64-bit keys, the first
eight bytes of each id (longer ids: each further eight bytes folded in, and every group checked byte for
byte, so that two ids never share a code). It takes only what the scan of :mod:`ir_coliee.table.run_fast`
passed: one separator between fields, line ends LF or CR LF, no NUL."""

from __future__ import annotations

from typing import Optional

import numpy as np

_WORD = 8
#: ``_MASKS[k]`` keeps the first ``k`` bytes of a little-endian word.
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(_WORD + 1)], dtype=np.uint64)
#: Folds a further word of a long id into its key (the golden-ratio multiplier: it spreads every bit).
_FOLD = np.uint64(0x9E3779B97F4A7C15)

#: An id column as read: the code of each line, and the distinct ids in the order they first appear.
IdColumn = tuple[np.ndarray, list[str]]


def split_columns(data: bytes, sep: bytes, width: int, wanted: list[int]) -> Optional[list[IdColumn]]:
    """The ``wanted`` columns of ``data`` (lines of ``width`` fields each) as codes and distinct ids; ``None``
    when a line has another number of fields, or bytes are not UTF-8 (the line-by-line reader names them)."""
    if not data.isascii():
        try:
            data.decode()
        except UnicodeDecodeError:
            return None
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    padded = data + (b"\n" if not data.endswith(b"\n") else b"") + bytes(_WORD)  # every id's words read whole
    text = np.frombuffer(padded, dtype=np.uint8, count=len(padded) - _WORD)
    ends = np.flatnonzero(text <= 32)  # one pass; a control byte inside an id (rare) is dropped below
    ended = text[ends]
    at_end = (ended == sep[0]) | (ended == 10)
    if not at_end.all():
        ends = ends[at_end]
    starts = np.empty_like(ends)
    starts[:1] = 0
    np.add(ends[:-1], 1, out=starts[1:])
    blank = starts == ends  # an empty field is a blank line: the scan let only LF LF through
    if blank.any():
        ends, starts = ends[~blank], starts[~blank]
    lines = len(ends) // width
    if not lines or len(ends) != lines * width or np.count_nonzero(text[ends] == 10) != lines:
        return None
    if not (text[ends[width - 1 :: width]] == 10).all():
        return None
    words = np.ndarray(shape=(len(text),), dtype="<u8", buffer=padded, strides=(1,))
    out = []
    for column in wanted:
        first, end = starts[column::width], ends[column::width]
        coded = _intern(words, first, end - first)
        if coded is None:
            return None
        codes, first_lines = coded
        spans = zip(first[first_lines].tolist(), end[first_lines].tolist())
        out.append((codes, [padded[a:b].decode() for a, b in spans]))
    return out


def _intern(words: np.ndarray, first: np.ndarray, length: np.ndarray) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """The code of each field (in order of first appearance) and the line each code first appears on;
    ``None`` when two ids' keys collide (then Arrow reads the file)."""
    shortest, longest = int(length.min()), int(length.max())
    parts = [_word(words, first, length, at, shortest) for at in range(0, longest, _WORD)]
    key = parts[0]
    for part in parts[1:]:
        key = (key * _FOLD) ^ part
    codes, first_lines = _codes_by_appearance(key)
    if len(parts) > 1 and not all((part == part[first_lines][codes]).all() for part in parts):
        return None
    return codes, first_lines


def _word(words: np.ndarray, first: np.ndarray, length: np.ndarray, at: int, shortest: int) -> np.ndarray:
    """Bytes ``at`` to ``at + 8`` of each field, zero past its end. Ids of one length (``000001``) need no
    mask of their own, and no bound on where a word starts (past its end, an id's word is all zero)."""
    if shortest - at >= _WORD:
        return words[first + at]
    if shortest == int(length.max()):
        return words[first + at] & _MASKS[shortest - at]
    return words[np.minimum(first + at, len(words) - 1)] & _MASKS[np.clip(length - at, 0, _WORD)]


def _codes_by_appearance(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A code for each distinct key, numbered in order of first appearance (as Arrow's dictionary), for
    each line; and the line each code first appears on. One sort of the keys (numpy has no hash table)."""
    heads = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))  # runs of one key sort once
    order = np.argsort(key[heads])
    by_key = key[heads][order]
    new = np.empty(len(order), dtype=bool)
    new[0] = True
    np.not_equal(by_key[1:], by_key[:-1], out=new[1:])
    group = np.empty(len(order), dtype=np.intp)
    group[order] = np.cumsum(new) - 1
    earliest = np.full(int(np.count_nonzero(new)), len(order), dtype=np.intp)
    np.minimum.at(earliest, group, np.arange(len(order)))  # each key's first run
    appearance = np.argsort(earliest)
    rank = np.empty(len(earliest), dtype=np.int32)
    rank[appearance] = np.arange(len(earliest), dtype=np.int32)
    return np.repeat(rank[group], np.diff(np.append(heads, len(key)))), heads[earliest[appearance]]
