"""Reading and writing the official submission formats, and the errors on malformed files."""

from __future__ import annotations

import pandas as pd
import pytest
from support.layouts import layouts

import ir_coliee
from ir_coliee import ColieeFormatError, parse_run, read_run, write_run
from ir_coliee.table.run_lines import Duplicate, parse_checked


def rows(frame: pd.DataFrame):
    return list(frame.itertuples(index=False, name=None))


def test_task1_pairs_with_txt_suffixes_line_order_is_the_ranking(write):
    path = write(
        "task1.univABC",
        "078507 081644.txt univABC\n078507.txt 044740 univABC\n023478 022954 univABC\n",
    )
    parsed = parse_run(path)
    assert parsed.format == "pairs"
    assert parsed.run_tags == ["univABC"]
    assert rows(parsed.run) == [
        ("078507", "081644", 3.0),
        ("078507", "044740", 2.0),
        ("023478", "022954", 1.0),
    ]


def test_task2_pairs_with_case_ids_above_999(write):
    path = write("task2.run", "1025 013 tagA\n926 001.txt tagA\n")
    assert rows(read_run(path)) == [("1025", "013", 2.0), ("926", "001", 1.0)]


def test_task3_trec_six_columns(write):
    text = "H19-1-3 Q0 96 1 0.84 univABC\nH19-1-3 Q0 3-2 2 0.5 univABC\nR1-13-A Q0 1 1 7 univABC\n"
    path = write("task3.univABC", text)
    parsed = parse_run(path)
    assert parsed.format == "trec"
    assert rows(parsed.run) == [
        ("H19-1-3", "96", 0.84),
        ("H19-1-3", "3-2", 0.5),
        ("R1-13-A", "1", 7.0),
    ]


def test_task3_l_with_comment_lines(write):
    text = (
        "/* team univABC, run 1\n"
        "   ranked list, 100 per question */\n"
        "R05-01-A Q0 566 1 0.9 univABC\n"
        "/* a comment in the middle */\n"
        "R05-01-A Q0 567 2 0.8 univABC\n"
    )
    assert rows(read_run(write("task3-L.univABC", text))) == [
        ("R05-01-A", "566", 0.9),
        ("R05-01-A", "567", 0.8),
    ]
    one_line = "/* header */\nR05-01-A Q0 566 1 0.9 univABC\n"
    assert rows(read_run(write("task3-L.b", one_line))) == [("R05-01-A", "566", 0.9)]


def test_task4_answers(write):
    parsed = parse_run(write("R06.task4.univABC", "R06-01-A Y univABC\nR06-01-I N univABC\n"))
    assert parsed.format == "answers"
    assert rows(parsed.run) == [("R06-01-A", "Y", 2.0), ("R06-01-I", "N", 1.0)]


def test_bom_crlf_blank_lines_and_tabs(write):
    data = "\ufeff000001 000018 univABC\r\n\r\n000001\t000019\tunivABC\r\n".encode()
    assert rows(read_run(write("task1.bom", data))) == [
        ("000001", "000018", 2.0),
        ("000001", "000019", 1.0),
    ]


def test_duplicates_are_reported_with_lines(write):
    parsed = parse_run(write("task1.dup", "q a t\nq b t\nq a t\n"))
    assert [(d.line, d.first_line, d.query_id, d.doc_id) for d in parsed.duplicates] == [
        (3, 1, "q", "a")
    ]
    assert len(parsed.run) == 3  # kept for the scorer, which counts the pair once
    assert ir_coliee.MicroP.calc_aggregate({"q": {"a": 1}}, parsed.run) == 0.5


def test_several_run_tags_are_listed(write):
    assert parse_run(write("r", "q a t1\nq b t2\n")).run_tags == ["t1", "t2"]


CLEAN_FILES = {
    "pairs": "078507 081644.txt univABC\n078507.txt 044740 univABC\n",
    "trec": "/* c */\nH19-1-3 Q0 96 1 0.84 univABC\nH19-1-3 Q0 95 2 -1e-3 univABC\n",
    "answers": "R06-01-A Y univABC\nR06-01-I N univABC\n",
}


@pytest.mark.parametrize("fmt", list(CLEAN_FILES))
def test_fast_and_checked_readers_agree(write, fmt):
    path = write(f"{fmt}.run", CLEAN_FILES[fmt])
    fast = parse_run(path)
    checked = parse_checked(path, fmt)
    assert fast.format == checked.format == fmt
    assert rows(fast.run) == rows(checked.run)
    assert fast.run_tags == checked.run_tags


# Layouts real runs come in. The fast reader (pyarrow, all cores) must take each of them: a file it hands
# to the line-by-line reader is still read right, but ten times slower.
FAST_LAYOUTS = layouts(["q1 Q0 a 1 0.9 t", "q1 Q0 b 2 0.5 t", "q2 Q0 a 1 0.7 t"], doc=2)


@pytest.mark.parametrize("layout", list(FAST_LAYOUTS))
def test_the_fast_reader_takes_the_usual_layouts(write, layout):
    from ir_coliee.table.run_fast import parse_fast
    from ir_coliee.table.run_lines import first_format

    path = write("task3-L.run", FAST_LAYOUTS[layout])
    line, fmt = first_format(path)
    fast = parse_fast(path, fmt, line - 1)
    assert fast is not None
    assert rows(fast.run) == [("q1", "a", 0.9), ("q1", "b", 0.5), ("q2", "a", 0.7)]
    assert rows(fast.run) == rows(parse_checked(path, fmt).run)


@pytest.mark.parametrize(
    "text",
    [
        "q1 Q0 a 1 0.9 t\nq1  b 2 0.5 t\n",  # an empty field where Q0 was: 5 columns for the checked reader
        "q1 Q0 a 1 0.9 t\nq1 Q0 b  0.5 t\n",
        "q1 Q0 a 1 0.9 t \nq1 Q0 b 2 0.5 t\n",  # a trailing separator
        "q1 Q0 a 1 0.9 t\n q1 Q0 b 2 0.5 t\n",  # a leading one
        "q1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.5\tt\n",  # space and tab mixed
        "q1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.5 t\rq2 Q0 c 1 0.3 t\n",  # a lone CR
    ],
)
def test_the_fast_reader_steps_aside_where_fields_could_be_misread(write, text):
    from ir_coliee.table.run_fast import parse_fast

    path = write("task3-L.run", text)
    assert parse_fast(path, "trec", 0) is None
    try:  # the checked reader decides: an error naming line 2, or (space runs) the right fields
        assert rows(parse_run(path).run)[0] == ("q1", "a", 0.9)
    except ColieeFormatError as e:
        assert e.line == 2


BAD_FILES = [
    ("q a t\nq b\n", 2, "2 columns"),
    ("q a t\nq b t extra\n", 2, "4 columns"),
    ("q Q0 a 1 0.5 t\nq Q0 b 2 high t\n", 2, "score 'high' is not a number"),
    ("q Q0 a 1 0.5 t\nq Q0 b 2 nan t\n", 2, "score 'nan' is not a number"),
    ("q Y t\nr maybe t\n", 2, "unknown answer 'maybe'"),
    ("q Y t\nr N t\nq N t\n", 3, "question 'q' answered 'N' here and 'Y' on line 1"),
    ("q a\n", 1, "2 columns"),
    (b"q a t\nq \xe9 t\n", 2, "byte 0xe9 at column 3 is not valid UTF-8"),
]


@pytest.mark.parametrize("text, line, problem", BAD_FILES)
def test_malformed_files_name_file_line_and_expectation(write, text, line, problem):
    path = write("bad.run", text)
    with pytest.raises(ColieeFormatError) as info:
        read_run(path)
    err = info.value
    assert (err.path, err.line) == (path, line)
    assert problem in str(err)
    assert f"bad.run:{line}: " in str(err)
    assert "expected" in str(err)


@pytest.mark.parametrize("text", ["", "\n\n", "/* only a comment */\n"])
def test_empty_files_are_an_error(write, text):
    with pytest.raises(ColieeFormatError, match="holds no run lines"):
        read_run(write("empty.run", text))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ColieeFormatError, match="no such file"):
        read_run(tmp_path / "nope")
    with pytest.raises(ColieeFormatError, match="is a directory"):
        read_run(tmp_path)


def test_forced_format(write):
    path = write("r", "q Y t\n")
    assert rows(read_run(path, format="pairs")) == [("q", "Y", 1.0)]
    with pytest.raises(ValueError, match="unknown run format"):
        read_run(path, format="csv")


# --- writing -----------------------------------------------------------------------------------------

RUN = {"H30-1-A": {"566": 0.9, "567": 0.9, "1": 0.1}, "H30-1-I": {"3-2": 2.0}}


def test_write_trec_ranks_best_first_ties_by_doc_desc(tmp_path):
    path = write_run(RUN, tmp_path / "task3-L.univABC", format="trec", tag="univABC")
    lines = open(path).read().splitlines()
    assert lines == [
        "H30-1-A Q0 567 1 0.9 univABC",
        "H30-1-A Q0 566 2 0.9 univABC",
        "H30-1-A Q0 1 3 0.1 univABC",
        "H30-1-I Q0 3-2 1 2.0 univABC",
    ]
    assert rows(read_run(path)) == [
        ("H30-1-A", "567", 0.9),
        ("H30-1-A", "566", 0.9),
        ("H30-1-A", "1", 0.1),
        ("H30-1-I", "3-2", 2.0),
    ]


def test_write_pairs_with_limit_and_round_trip_scores_the_same(tmp_path):
    path = write_run(
        RUN, tmp_path / "task3.univABC", format="pairs", tag="univABC", max_per_query=2
    )
    assert open(path).read().splitlines() == [
        "H30-1-A 567 univABC",
        "H30-1-A 566 univABC",
        "H30-1-I 3-2 univABC",
    ]
    gold = {"H30-1-A": {"566": 1}, "H30-1-I": {"3-2": 1}}
    assert ir_coliee.MacroF2.calc_aggregate(
        gold, read_run(path)
    ) == ir_coliee.MacroF2.calc_aggregate(
        gold, {"H30-1-A": {"567": 1.0, "566": 0.5}, "H30-1-I": {"3-2": 1.0}}
    )


def test_write_answers(tmp_path):
    path = write_run(
        pd.DataFrame({"query_id": ["b", "a"], "doc_id": ["N", "Y"], "score": [1.0, 1.0]}),
        tmp_path / "R06.task4.x",
        format="answers",
        tag="x",
    )
    assert open(path).read() == "a Y x\nb N x\n"
    with pytest.raises(ValueError, match="exactly one answer"):
        write_run({"a": {"Y": 1.0, "N": 0.5}}, tmp_path / "y", format="answers", tag="x")
    with pytest.raises(ValueError, match="exactly one answer"):
        write_run({"a": {"maybe": 1.0}}, tmp_path / "y", format="answers", tag="x")


@pytest.mark.parametrize("tag", ["", "univ-ABC", "a" * 13, "univ ABC", "ünivABC"])
def test_run_tags_are_checked(tmp_path, tag):
    with pytest.raises(ValueError, match="run tag"):
        write_run(RUN, tmp_path / "r", format="pairs", tag=tag)


def test_twelve_character_tag_is_fine(tmp_path):
    write_run(RUN, tmp_path / "r", format="pairs", tag="ABCDEFGHIJ12")
    assert read_run(tmp_path / "r")["query_id"].nunique() == 2


def test_write_takes_pyterrier_frames_and_unscopes_dataset_ids(tmp_path):
    res = pd.DataFrame(
        {
            "qid": ["999", "999", "1000"],
            "docno": ["999/002", "999/001", "1000/003"],
            "score": [2.0, 1.0, 5.0],
        }
    )
    path = write_run(res, tmp_path / "task2.t", format="pairs", tag="t", max_per_query=1)
    assert open(path).read() == "1000 003 t\n999 002 t\n"


def test_the_fast_reader_lists_run_tags_in_the_order_they_first_appear_across_blocks(
    tmp_path, monkeypatch
):
    """The tags come from the dictionary Arrow unifies over its blocks: each block's new tags in turn."""
    from ir_coliee.table import run_fast as fast

    monkeypatch.setattr(fast, "_BLOCK", 64)  # a block every two or three lines
    tags = ["b", "b", "a", "c", "a", "d", "b", "e", "f", "a", "g"] * 30
    path = tmp_path / "task3-L.t"
    path.write_text("".join(f"q{i} Q0 d{i} 1 1.0 {t}\n" for i, t in enumerate(tags)))
    parsed = fast.parse_fast(path, "trec", 0)
    assert parsed is not None and parsed.run_tags == ["b", "a", "c", "d", "e", "f", "g"]


def test_a_duplicate_line_keeps_a_run_on_the_fast_reader_with_its_lines_named(tmp_path):
    """A duplicate costs no second reading of the file line by line: the fast reader names it as the
    checked reader does (where blank lines would shift the line numbers, the checked reader reads it)."""
    from ir_coliee.table.run_fast import parse_fast
    from ir_coliee.table.run_lines import parse_checked

    lines = [f"{q:06d} {d:06d} t\n" for q in range(50) for d in range(q, q + 20)]
    lines.insert(30, lines[3])
    lines.insert(700, lines[650])
    path = tmp_path / "task1.dup"
    path.write_text("".join(lines))
    fast = parse_fast(str(path), "pairs", skip=0)
    checked = parse_checked(str(path), "pairs")
    assert fast is not None
    assert (
        fast.duplicates
        == checked.duplicates
        == [
            Duplicate(31, 4, "000000", "000003"),
            Duplicate(
                701, 651, "000032", "000041"
            ),  # lines[650] after the first insertion: 32, 32 + 9
        ]
    )
    assert fast.coded.table() == checked.coded.table()
    path.write_text("".join(lines[:10]) + "\n" + "".join(lines[10:]))  # a blank line
    assert parse_fast(str(path), "pairs", skip=0) is None
