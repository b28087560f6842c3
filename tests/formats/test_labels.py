"""The label JSON reader's edges: ids that name no case, and the lines of repeated keys found in one pass."""

from __future__ import annotations

import pytest

from ir_coliee.errors import ColieeFormatError, ColieeWarning
from ir_coliee.formats.labels import parse_labels
from ir_coliee.formats.textfile import key_line, key_lines


@pytest.mark.parametrize(
    "name", ['".txt"', '""', '"  "', '"\\t"', '".TXT"', '".txt.txt"', '"..txt"', '".x"']
)
@pytest.mark.parametrize("where", ["label", "key", "string"])
def test_a_label_naming_no_case_is_refused_at_its_line(name, where):
    if where == "string" and name == '""':
        name = '" "'  # "" is no labels, as []; a string of spaces an empty id, as [" "]
    value = {"label": f'"003.txt": [{name}]', "key": f"{name}: []", "string": f'"003.txt": {name}'}
    text = '{\n"001.txt": ["002.txt"],\n' + value[where] + "\n}"
    with pytest.raises(ColieeFormatError) as caught:
        parse_labels(text, "labels.json")
    assert str(caught.value).startswith("labels.json:3: ")


def test_the_lines_of_keys_skip_strings_that_look_like_keys():
    text = '{"a": ["x", ": "],\n "b\\u0030": "\\"a\\": ",\n "a": [],\n"b0": 1}'
    assert key_lines(text, ["a", "b0", "x", "zz"]) == {"a": [1, 3], "b0": [2, 4], "x": [], "zz": []}
    assert (key_line(text, "a", 2), key_line(text, "a", 3)) == (3, None)


def test_repeated_keys_name_each_of_their_lines():
    # 3 queries given twice among 6; the lines the warning names are counted here by hand
    lines = [f'"{q}.txt": ["{q}0.txt"]' for q in range(6)] + [f'"{q}": ["{q}1"]' for q in (4, 0, 2)]
    with pytest.warns(ColieeWarning) as said:
        labels = parse_labels("{\n" + ",\n".join(lines) + "\n}", "l.json")
    assert labels == {"0": ["01"], "1": ["10"], "2": ["21"], "3": ["30"], "4": ["41"], "5": ["50"]}
    assert (
        "3 queries given more than once: 0 ('0.txt' line 2, '0' line 9); "
        "2 ('2.txt' line 4, '2' line 10); 4 ('4.txt' line 6, '4' line 8)"
    ) in str(said[0].message)


def test_a_warning_of_many_repeated_keys_names_a_few_and_counts_the_rest():
    lines = [f'"{q}": ["{q}0"]' for q in range(40)] + [f'"{q}.txt": ["{q}1"]' for q in range(30)]
    with pytest.warns(ColieeWarning) as said:
        parse_labels("{\n" + ",\n".join(lines) + "\n}", "l.json")
    message = str(said[0].message)
    assert "30 queries given more than once: 0 ('0' line 2, '0.txt' line 42); " in message
    assert "; 4 ('4' line 6, '4.txt' line 46); and 25 more; read as" in message
    assert "5 ('5'" not in message
