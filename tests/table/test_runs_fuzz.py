"""Hostile input for every reader: anything either parses or raises the package's own error naming the
file, never another exception, a hang or a silently dropped line."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.cases import oracle_data_lines

from ir_coliee import ColieeError, ColieeFormatError, read_qrels
from ir_coliee.formats.civil_code import parse_civil_code
from ir_coliee.formats.labels import parse_labels
from ir_coliee.formats.pilot import parse_torts
from ir_coliee.formats.riteval import parse_riteval
from ir_coliee.formats.textfile import parse_json
from ir_coliee.table.run_fast import parse_fast
from ir_coliee.table.run_lines import parse_checked
from ir_coliee.table.runs import parse_run

FUZZ = settings(deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
if settings.default.max_examples < 300:  # the CI profile: 300 fixed examples per reader
    FUZZ = settings(FUZZ, max_examples=300)

# lines that look like runs, with the characters that break parsers: separators, quotes, CR, BOM, Y/N
TOKENS = st.sampled_from(
    [
        "q1",
        "000028",
        "000100.txt",
        "Q0",
        "1",
        "0.5",
        "-3e2",
        "nan",
        "inf",
        "Y",
        "N",
        "univABC",
        "/*",
        "*/",
        '"',
        "'",
        "#",
        "\t",
        " ",
        "\r",
        "\ufeff",
        "\u3000",
        "\xa0",
        "\u2028",
        "é",
        "\x0c",
        "\x1c",
        "\x85",
        "",
    ]
)
LINES = st.lists(st.lists(TOKENS, min_size=0, max_size=7).map(" ".join), max_size=12)


def data_lines(text: str) -> int:
    """How many lines a run reader must keep."""
    return len(oracle_data_lines(text))


def assert_own_error(error: BaseException, path: str) -> None:
    assert isinstance(error, ColieeError), repr(error)
    if isinstance(error, ColieeFormatError):
        assert error.path == path


@FUZZ
@given(LINES, st.sampled_from(["\n", "\r\n"]), st.integers(1, 9))
@example(["q a t", "q\rb t"], "\n", 9)
@example(["q\u3000a t"], "\n", 9)
@example(["q \x1c t"], "\n", 9)
@example(["q a\x0cb t", "q\tb\tt"], "\r\n", 9)
@example(["\ufeffq a t"], "\n", 9)
@example(["\ufeff", "q1 q1 q1"], "\n", 9)
@example(["q a t", "q b t", "", "q c t"], "\r\n", 4)  # a blank line, pieces cut inside lines
@example(["q a t", "\u3000", "q b t"], "\n", 9)  # a line of one field that str.split drops
@example(["q\u3000x \u3000 t"], "\n", 9)
@example(["q a t", "q", "\u3000 b t"], "\n", 9)  # a field lost and one made: the counts cancel
def test_run_reader(tmp_path, lines, newline, piece):
    text = newline.join(lines) + newline
    path = str(tmp_path / "run")
    with open(path, "wb") as f:
        f.write(text.encode("utf-8"))
    try:
        parsed = parse_run(path)
    except Exception as e:
        assert_own_error(e, path)
        return
    assert len(parsed.run) == data_lines(text.replace("\r\n", "\n"))
    checked = parse_checked(path, parsed.format)
    # both column readers of the fast one (the split one in pieces of any size) agree with the checked
    # reader on everything they accept
    split = {"SPLIT_FILE": 1 << 30, "_PIECE": piece, "_arrow_loaded": lambda: False}
    for limits in (split, {"SPLIT_FILE": 0}):
        with _limits(**limits):
            fast = parse_fast(path, parsed.format, 0)
        if fast is not None:
            assert fast.run.values.tolist() == checked.run.values.tolist()
            assert (fast.coded.query_ids, fast.coded.doc_ids, fast.run_tags) == (
                checked.coded.query_ids,
                checked.coded.doc_ids,
                checked.run_tags,
            )


@contextlib.contextmanager
def _limits(**values):
    from ir_coliee.table import run_fast

    saved = {name: getattr(run_fast, name) for name in values}
    vars(run_fast).update(values)
    try:
        yield
    finally:
        vars(run_fast).update(saved)


@FUZZ
@given(LINES, st.sampled_from(["\n", "\r\n"]), st.integers(1, 9))
@example(["q a t", "q\rb t"], "\n", 5)  # a lone CR at the end of a block
@example(["q a", "\ufeffq b t"], "\n", 5)  # a byte order mark across two blocks
@example(["q a t ", "q b t"], "\n", 6)  # a line that ends with a separator, at the end of a block
def test_the_fast_readers_scan_judges_a_file_alike_in_blocks_of_any_size(
    tmp_path, lines, newline, block
):
    """The scan checks each block alone and the seam between two on a few bytes: cut anywhere, it must
    judge the file as it does in one block."""
    from ir_coliee.table import run_fast as fast

    path = str(tmp_path / "run")
    with open(path, "wb") as f:
        f.write((newline.join(lines) + newline).encode("utf-8"))
    with open(path, "rb") as f:
        whole = fast._separator(f, 0)
    default, fast._SCAN_BLOCK = fast._SCAN_BLOCK, block
    try:
        with open(path, "rb") as f:
            assert fast._separator(f, 0) == whole
    finally:
        fast._SCAN_BLOCK = default


@FUZZ
@given(st.sampled_from(["run", "gold"]), st.binary(max_size=300))
def test_readers_on_arbitrary_bytes(tmp_path, reader, data):
    path = str(tmp_path / reader)
    with open(path, "wb") as f:
        f.write(data)
    try:
        (parse_run if reader == "run" else read_qrels)(path)
    except Exception as e:
        assert_own_error(e, path)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


@FUZZ
@given(JSONISH)
def test_label_json(value):
    text = json.dumps(value)
    try:
        labels = parse_labels(text, "labels.json")
    except Exception as e:
        assert_own_error(e, "labels.json")
        return
    assert isinstance(value, dict) and len(labels) <= len(value)


XML_PIECES = st.sampled_from(
    [
        "<dataset>",
        "</dataset>",
        "<pair id='H30-1-A' label='Y'>",
        '<pair id="R1-2-3">',
        "<pair>",
        "</pair>",
        "<t1>",
        "</t1>",
        "<t2>",
        "</t2>",
        "<article>",
        "</article>",
        "Article 566 (1)",
        "Article 3-2",
        "第二百十三条の二　",
        "\n",
        "&amp;",
        "&bad;",
        "<!DOCTYPE d [<!ENTITY a 'x'>]>",
        "<?xml version='1.0'?>",
        "text",
        "label='X'",
    ]
)


@FUZZ
@given(st.lists(XML_PIECES, max_size=20).map("".join))
def test_riteval(text):
    try:
        questions = parse_riteval(text, "exam.xml")
    except Exception as e:
        assert_own_error(e, "exam.xml")
        return
    assert all(q.query_id for q in questions)


CODE_PIECES = st.sampled_from(
    [
        "Article 1  text",
        "Article 3-2  text",
        "Articles 38 to 84  Deleted",
        "Article 208  Deleted",
        "(Caption)",
        "(2) para",
        "Part I X",
        "Chapter 2 Y",
        "第一条　本文",
        "第二百十三条の二　本文",
        "第三十八条から第八十四条まで　削除",
        "（見出し）",
        "第一編　総則",
        "",
        "plain text",
        "第十十条　x",
        "第〇条　x",
    ]
)


@FUZZ
@given(st.lists(CODE_PIECES, max_size=25).map("\n".join))
def test_civil_code(text):
    articles = list(parse_civil_code(text))
    starts = [
        ln
        for ln in text.split("\n")
        if re.match(r"^(Article \d|第[〇一二三四五六七八九十百千]+条)", ln)
    ]
    live = [ln for ln in starts if not ln.endswith(("Deleted", "削除"))]
    assert len(articles) == len(live)  # every live article header is a document, none dropped


@FUZZ
@given(st.lists(JSONISH.map(json.dumps) | st.text(max_size=30), max_size=5))
def test_pilot_jsonl(lines):
    try:
        values = [
            (n, parse_json(t, "sub.jsonl", "", n)) for n, t in enumerate(lines, 1) if t.strip()
        ]
        torts = parse_torts(values, "sub.jsonl")
    except Exception as e:
        assert_own_error(e, "sub.jsonl")
        return
    assert len(torts) == sum(1 for ln in lines if ln.strip())


def test_a_directory_and_a_missing_file_are_clear_errors(tmp_path):
    for reader in (parse_run, read_qrels):
        with pytest.raises(ColieeFormatError, match="is a directory"):
            reader(tmp_path)
        with pytest.raises(ColieeFormatError, match="no such file"):
            reader(tmp_path / "absent")


def _encrypt_flag(path) -> None:
    """Mark every member of a zip file as encrypted (bit 0 of the general purpose flags), as a
    password-protected package looks to zipfile."""
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (pos := data.find(signature, start)) != -1:
            data[pos + offset] |= 1
            start = pos + 4
    path.write_bytes(bytes(data))


def test_encrypted_zip_gives_a_clear_message(coliee_home):
    import ir_datasets
    from support.caselaw_data import write_task2
    from support.statute_data import zip_folder

    from ir_coliee.data.locator import refresh
    from ir_coliee.errors import ColieeDataError

    write_task2(coliee_home)
    archive = zip_folder(coliee_home / "task2_test_files_2026")
    _encrypt_flag(archive)
    refresh()
    with pytest.raises(
        ColieeDataError, match=r"cannot read from the zip file.*extract it with its password"
    ):
        list(ir_datasets.load("coliee/task2/2026/test").queries_iter())


def test_zip_member_paths_never_leave_the_data_root(coliee_home):
    import zipfile

    from ir_coliee.data.locator import Locator

    with zipfile.ZipFile(coliee_home / "evil.zip", "w") as zf:
        zf.writestr("../../outside/task1_train_labels_2024.json", "{}")
        zf.writestr("/abs/task1_test_labels_2024.json", "{}")
    files = Locator(coliee_home).find("*")
    assert {f.member for f in files} == {
        "../../outside/task1_train_labels_2024.json",
        "/abs/task1_test_labels_2024.json",
    }
    # members are read in place from the zip file: nothing is written, so no path can escape
    assert all(f.disk_path == str(coliee_home / "evil.zip") for f in files)
    assert files[0].read_bytes() == b"{}"
    assert sorted(p.name for p in coliee_home.iterdir()) == ["evil.zip"]


def test_entity_bombs_are_refused_before_parsing():
    bomb = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n<!ENTITY lol2 "&lol;&lol;&lol;&lol;">\n]>\n<dataset>&lol2;</dataset>'
    with pytest.raises(ColieeFormatError, match="declares entities") as info:
        parse_riteval(bomb, "exam.xml")
    assert info.value.line == 3
    external = '<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<dataset>&x;</dataset>'
    with pytest.raises(ColieeFormatError, match="declares entities"):
        parse_riteval(external, "exam.xml")


def test_no_cache_is_written_so_none_can_be_left_broken(coliee_home, tmp_path_factory, monkeypatch):
    """Lookups read the official files (or open zips) directly; an interrupted iteration leaves
    nothing behind, and the next one starts from the files again."""
    import ir_datasets
    from support.caselaw_data import write_task1_flat, write_task2
    from support.statute_data import write_statute_root

    home = tmp_path_factory.mktemp("ird_home")
    monkeypatch.setenv("IR_DATASETS_HOME", str(home))
    write_task1_flat(coliee_home)
    write_task2(coliee_home)
    write_statute_root(coliee_home)
    before = sorted(p for p in coliee_home.rglob("*"))
    for dataset_id in (
        "coliee/task1/2024/train",
        "coliee/task2/2026/test",
        "coliee/task3/2024/test",
    ):
        ds = ir_datasets.load(dataset_id)
        docs = ds.docs_iter()
        first = next(docs)
        docs.close()  # as if the process died mid-iteration
        assert ds.docs_store().get(first.doc_id) == first
        assert next(ds.docs_iter()) == first
    assert sorted(p for p in coliee_home.rglob("*")) == before
    assert list(home.rglob("*")) == []


def test_a_case_file_with_bad_bytes_names_the_file_and_line(coliee_home):
    import ir_datasets
    from support.caselaw_data import write_task2

    write_task2(coliee_home)
    bad = coliee_home / "task2_test_files_2026" / "999" / "paragraphs" / "002.txt"
    bad.write_bytes(b" [2] fine line\nLatin-1 \xe9t\xe9\n")
    with pytest.raises(ColieeFormatError) as info:
        list(ir_datasets.load("coliee/task2/2026/test").docs_iter())
    assert (info.value.path, info.value.line) == (str(bad), 2)


@FUZZ
@given(st.lists(st.one_of(TOKENS, st.text(max_size=6)), max_size=8).map(" ".join))
@example("a\x0bb c")  # a vertical tab: str.split would split there, the readers do not
@example("a\u3000b c")  # an ideographic space, likewise
@example("a\tb\r c")
def test_a_lines_fields_are_split_as_the_pattern_splits_them(text):
    from ir_coliee.table.run_lines import _FIELD_SEPARATOR, fields

    stripped = text.strip(" \t\r")
    if stripped:
        assert fields(stripped) == _FIELD_SEPARATOR.split(stripped)


NAME_PIECES = st.sampled_from(
    ["000001", "000002.txt", "a-b_c.d", "x", "", " ", "\n", "\t", ",", ";", "|", "é", "\u3000"]
)


@FUZZ
@given(st.lists(st.lists(NAME_PIECES, max_size=3).map("".join), max_size=5))
@example(["a\nb"])
@example(["a", "b\n"])
@example(["000001.txt", "000001"])
def test_a_list_of_labels_reads_as_each_name_split_alone(names):
    """A list of plain names is taken in one match; it must read as the names split and checked one by
    one (a name holding a line end or a space is two names; fewer names than strings is an error)."""
    text = json.dumps({"q.txt": names})
    parts = [p for name in names for p in re.split(r"[,;\s]+", name.strip()) if p]
    if len(parts) < len(names) or not all(re.fullmatch(r"[\w.\-]+", p) for p in parts):
        with pytest.raises(ColieeFormatError):
            parse_labels(text, "labels.json")
        return
    expected = dict.fromkeys(p[:-4] if p.endswith(".txt") else p for p in parts)
    assert parse_labels(text, "labels.json") == {"q": list(expected)}
