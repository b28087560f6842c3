"""The fast reader reads every clean file as the line-by-line reader does, with either of its column
readers (Python's split, Arrow's): the same ids, codes in the same order, the same run tags; a file it
cannot read exactly it hands on, never reads otherwise."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from support.layouts import layouts

from ir_coliee.errors import ColieeFormatError
from ir_coliee.table import run_fast as fast
from ir_coliee.table.run_lines import first_format, parse_checked
from ir_coliee.table.runs import parse_run


@pytest.fixture(autouse=True, params=["split", "arrow"])
def reader(request, monkeypatch) -> str:
    """Every test here with each column reader: the split one for files up to ``SPLIT_FILE`` bytes while
    pyarrow is not loaded."""
    monkeypatch.setattr(fast, "SPLIT_FILE", 1 << 30 if request.param == "split" else 0)
    monkeypatch.setattr(fast, "_arrow_loaded", lambda: False)  # (another test may have loaded it)
    return request.param


def rows(frame: pd.DataFrame):
    return list(frame.itertuples(index=False, name=None))


def readers_agree(path: str) -> list[tuple[str, str, float]]:
    """The rows the fast reader reads from ``path``, after checking they equal the line reader's."""
    line, fmt = first_format(path)
    arrow = fast.parse_fast(path, fmt, line - 1)
    assert arrow is not None
    checked = parse_checked(path, fmt)
    assert rows(arrow.run) == rows(checked.run)
    assert arrow.coded.query_ids == checked.coded.query_ids
    assert arrow.coded.doc_ids == checked.coded.doc_ids
    assert arrow.run_tags == checked.run_tags
    return rows(arrow.run)


PAIRS_LAYOUTS = layouts(["000001 000018 t", "000001 000020 t", "000002 000018 t"], doc=1)


@pytest.mark.parametrize("layout", list(PAIRS_LAYOUTS))
def test_the_fast_reader_takes_the_usual_layouts(write, layout):
    path = write("task1.t", PAIRS_LAYOUTS[layout])
    # line order is the ranking: 3, 2, 1
    assert readers_agree(path) == [
        ("000001", "000018", 3.0),
        ("000001", "000020", 2.0),
        ("000002", "000018", 1.0),
    ]


def test_answers_are_read_too(write):
    path = write("task4.t", "R06-01-A Y t\nR06-01-I N t\nR05-30-U Y t\n")
    assert readers_agree(path) == [
        ("R06-01-A", "Y", 3.0),
        ("R06-01-I", "N", 2.0),
        ("R05-30-U", "Y", 1.0),
    ]


def test_ids_longer_than_a_word_keep_apart(write):
    """Ids equal in their first eight bytes, one a prefix of another, or of three and more words, each keep
    a code of their own."""
    ids = [
        "abcdefgh",
        "abcdefghX",
        "abcdefghY",
        "abcdefg",
        "abcdefghijklmnopq",
        "abcdefghijklmnopr",
        "a" * 40,
    ]
    lines = [f"q{i % 3} {d} tag{i % 2}" for i, d in enumerate(ids * 2)]
    text = "\n".join(dict.fromkeys(lines)) + "\n"  # no pair twice
    path = write("task1.t", text)
    got = readers_agree(path)
    assert [d for _, d, _ in got] == [line.split()[1] for line in dict.fromkeys(lines)]


@pytest.mark.parametrize(
    "ids",
    [
        ["000001", "000002", "000010"],  # one length, under a word
        [
            "R05-01-A-001",
            "R05-01-A-002",
            "R05-01-U-002",
        ],  # one length over a word: a whole first word
        [
            "abcdefgh-1",
            "abcdefgh-12",
            "abcdefgh-123",
            "abcdefgh-1234567890",
        ],  # every first word whole
    ],
)
def test_ids_of_one_length_or_many_keep_apart(write, ids):
    lines = [f"{q} {d} t" for q in ids for d in ids]
    path = write("task1.t", "\n".join(lines) + "\n")
    got = readers_agree(path)
    assert [(q, d) for q, d, _ in got] == [tuple(line.split()[:2]) for line in lines]


def test_codes_follow_first_appearance_across_runs_of_a_query(write):
    """A query whose lines come in two runs (``q2`` after ``q1`` and again at the end) keeps one code,
    and the distinct ids come in the order they first appear, as Arrow's dictionary has them."""
    path = write("task1.t", "q2 d3 t\nq1 d1 t\nq1 d3 t\nq2 d2 u\nq3 d1 t\nq2 d1 u\n")
    readers_agree(path)
    parsed = fast.parse_fast(path, "pairs", 0)
    assert parsed is not None
    assert parsed.coded.query_ids == ["q2", "q1", "q3"]
    assert parsed.coded.doc_ids == ["d3", "d1", "d2"]
    assert np.asarray(parsed.coded.queries).tolist() == [0, 1, 1, 0, 2, 0]
    assert parsed.run_tags == ["t", "u"]


def test_utf8_ids_are_read_and_other_bytes_handed_on(write):
    path = write("task1.t", "q\u00e9 d\u4e00 t\nq\u00e9 d2 t\n")
    assert readers_agree(path) == [("q\u00e9", "d\u4e00", 2.0), ("q\u00e9", "d2", 1.0)]
    assert (
        fast.parse_fast(write("task1.u", b"q\xff d t\n"), "pairs", 0) is None
    )  # not UTF-8: the line reader names it


@pytest.mark.parametrize("control", ["\x0c", "\x1c", "\x85", "\u3000", "\xa0", "\u2028"])
def test_a_control_byte_inside_an_id_is_part_of_it(write, control):
    """Characters other than the separator and the line end that Python's ``str.split`` splits at (a form
    feed, a file separator, an ideographic space) are id characters to every reader."""
    path = write("task1.t", f"q1 a{control}b t\nq1 c t\n")
    assert readers_agree(path) == [("q1", f"a{control}b", 2.0), ("q1", "c", 1.0)]


@pytest.mark.parametrize(
    "text",
    [
        "000001 000010 run1\n\u3000\n000002 000020 run1\n",  # a line of one such character
        "000001 000010 run1\n000001\n\u3000 000011 run1\n",  # a field lost, one more made
        "q1 d1 t\n\x85\nq1 d2 t\n",
    ],
)
def test_a_line_of_one_field_is_handed_on_whatever_its_characters(write, text):
    """Found by a review: ``str.split`` made a line of one U+3000 blank, and a field lost on one line
    and one made on the next cancelled out in a count of the piece's fields; the split reader scored such
    files where the line reader names the line."""
    assert fast.parse_fast(write("task1.t", text), "pairs", 0) is None
    with pytest.raises(ColieeFormatError, match="1 columns") as info:
        parse_run(write("task1.u", text))
    assert info.value.line == 2


@pytest.mark.parametrize(
    "data",
    [
        b"q a t\nq b\n",  # a line of two fields
        b"q a t\nq b t u\n",  # of four
        b"q a t u\nq b\n",  # six fields in all, in lines of four and two
        b"q a\nb\n",  # three fields in all, in lines of two and one
    ],
)
def test_a_line_of_other_width_is_handed_on(write, data):
    assert fast.parse_fast(write("task1.t", data), "pairs", 0) is None


def test_a_long_file_reads_the_same_in_both_readers(tmp_path):
    """Thousands of lines: several blocks of Arrow's, ids of every length up to three words."""
    rng = np.random.default_rng(7)
    queries = [f"{q:06d}" for q in range(300)]
    docs = [f"{'d' * int(n % 20)}{n:05d}" for n in rng.choice(100_000, 3_000, replace=False)]
    lines = dict.fromkeys(
        f"{queries[q]} {docs[d]} run{q % 3}" for q, d in rng.integers(0, [300, 3_000], (20_000, 2))
    )
    path = tmp_path / "task1.t"
    path.write_text("\n".join(lines) + "\n")
    assert len(readers_agree(str(path))) == len(lines)


def test_a_file_of_ids_of_kilobytes_is_split_whatever_its_size(write, monkeypatch, reader):
    """Lines of over a KiB on average are split, which holds each id once, past ``SPLIT_FILE`` too: Arrow
    would hold each in its dictionary and again as a Python string (a file of 2M-character ids took
    360 MB, the peer 213)."""
    used = []
    monkeypatch.setattr(fast, "_arrow_columns", lambda *a: used.append(a))  # (None: handed on)
    long_ids = write("task1.t", "".join(f"q1 {'d' * 1_100}{k} t\n" for k in range(3)))
    assert readers_agree(long_ids) == [("q1", f"{'d' * 1_100}{k}", 3.0 - k) for k in range(3)]
    assert not used
    short_ids = write("task1.u", "".join(f"q1 {'d' * 900}{k} t\n" for k in range(3)))
    fast.parse_fast(short_ids, "pairs", 0)
    assert len(used) == (reader == "arrow")  # under a KiB a line, the size decides


def test_bytes_that_are_not_utf8_where_no_column_is_kept_are_handed_on(write, monkeypatch):
    """Q0 and the rank are not kept, but the line reader names their bytes that are not UTF-8, so the
    fast reader hands such a file to it (Arrow, reading only the columns it keeps, once took it)."""
    from ir_coliee.errors import ColieeFormatError
    from ir_coliee.table.runs import parse_run

    path = write("task3.t", b"q1 Q0 a 1 0.5 t\nq1 Q\xff b 2 0.4 t\n")
    assert fast.parse_fast(path, "trec", 0) is None
    with pytest.raises(ColieeFormatError, match="not valid UTF-8") as info:
        parse_run(path)
    assert info.value.line == 2
    # a character cut by the end of a scanned block is whole with the next block: read, not handed on
    accented = write("task3.u", "q1 Q0 é 1 0.5 t\nq1 Q0 è 2 0.4 t\n".encode())
    for block in range(4, 12):
        monkeypatch.setattr(fast, "_SCAN_BLOCK", block)
        assert readers_agree(accented) == [("q1", "é", 0.5), ("q1", "è", 0.4)]


def test_once_pyarrow_is_loaded_arrow_reads_a_small_file_too(write, monkeypatch):
    """In a session that has loaded pyarrow (pandas 3 does), Arrow costs no import: it reads every clean
    file, but one of long lines."""
    used = []
    monkeypatch.setattr(fast, "SPLIT_FILE", 1 << 30)
    monkeypatch.setattr(fast, "_arrow_loaded", lambda: True)
    monkeypatch.setattr(fast, "_arrow_columns", lambda *a: used.append(a))
    assert fast.parse_fast(write("task1.t", "q1 d1 t\nq1 d2 t\n"), "pairs", 0) is None  # (stubbed)
    assert len(used) == 1
    long_ids = write("task1.u", "".join(f"q1 {'d' * 1_100}{k} t\n" for k in range(3)))
    assert fast.parse_fast(long_ids, "pairs", 0) is not None
    assert len(used) == 1
