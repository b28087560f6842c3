"""Reading gold files: TREC qrels, COLIEE label JSON (both value shapes), Y/N answer files."""

from __future__ import annotations

import pytest

from ir_coliee import ColieeFormatError, read_qrels


def rows(frame):
    return list(frame.itertuples(index=False, name=None))


def test_task1_label_json_lists_with_txt_and_duplicates(write):
    path = write(
        "task1_train_labels_2024.json",
        '{"078507.txt": ["081644.txt", "044740.txt", "081644.txt"], "023478.txt": ["022954.txt"]}',
    )
    assert rows(read_qrels(path)) == [
        ("078507", "081644", 1),
        ("078507", "044740", 1),
        ("023478", "022954", 1),
    ]


def test_task2_label_json_joined_strings_and_keys_without_txt(write):
    text = '{\n  "827": "025.txt, 027.txt",\n  "1025": ["003.txt"],\n  "826": "004.txt"\n}\n'
    assert rows(read_qrels(write("task2_test_labels_2026.json", text))) == [
        ("827", "025", 1),
        ("827", "027", 1),
        ("1025", "003", 1),
        ("826", "004", 1),
    ]


def test_test_no_labels_file_has_no_gold_pairs(write):
    assert read_qrels(write("task1_test_no_labels_2024.json", '{"000001.txt": [], "000002.txt": []}')).empty


def test_trec_qrels_and_answer_gold(write):
    qrels = write("gold.qrels", "R05-01-A 0 566 1\nR05-01-A 0 3-2 2\n\nR05-01-I 0 1 0\n")
    assert rows(read_qrels(qrels)) == [("R05-01-A", "566", 1), ("R05-01-A", "3-2", 2), ("R05-01-I", "1", 0)]
    answers = write("gold.answers", "\ufeffR05-01-A Y gold\r\nR05-01-I N gold\r\n")
    assert rows(read_qrels(answers)) == [("R05-01-A", "Y", 1), ("R05-01-I", "N", 1)]


BAD = [
    ('{"a.txt": ["b.txt",]}', 1, "invalid JSON"),
    ('{\n"a.txt": ["b.txt"],\n"c.txt": 7\n}', 3, "the labels of 'c.txt' are 7"),
    ('{\n"a.txt": [1, 2]\n}', 2, "the labels of 'a.txt'"),
    ('["a.txt"]', 1, "the top level is a JSON list"),
    ("q 0 d high\n", 1, "relevance 'high' is not a whole number"),
    ("q 0 d 1\nq d\n", 2, "2 columns"),
    ("q maybe gold\n", 1, "unknown answer 'maybe'"),
    (b'{"a": ["\xff"]}', 1, "not valid UTF-8"),
]


@pytest.mark.parametrize("text, line, problem", BAD)
def test_malformed_gold_names_file_and_line(write, text, line, problem):
    path = write("gold.bad", text)
    with pytest.raises(ColieeFormatError) as info:
        read_qrels(path)
    assert (info.value.path, info.value.line) == (path, line)
    assert problem in str(info.value)
    assert "expected" in str(info.value)


def test_empty_gold_file(write):
    with pytest.raises(ColieeFormatError, match="holds no gold lines"):
        read_qrels(write("gold.empty", "\n"))
