"""Reading gold files: TREC qrels, COLIEE label JSON (both value shapes), Y/N answer files."""

from __future__ import annotations

import json
import random

import pytest

import ir_coliee
from ir_coliee import ColieeFormatError, read_qrels
from ir_coliee.formats.gold import read_gold
from ir_coliee.formats.labels import parse_labels
from ir_coliee.formats.textfile import strip_txt
from ir_coliee.model import DOCUMENTS


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
    assert read_qrels(
        write("task1_test_no_labels_2024.json", '{"000001.txt": [], "000002.txt": []}')
    ).empty


def test_trec_qrels_and_answer_gold(write):
    qrels = write("gold.qrels", "R05-01-A 0 566 1\nR05-01-A 0 3-2 2\n\nR05-01-I 0 1 0\n")
    assert rows(read_qrels(qrels)) == [
        ("R05-01-A", "566", 1),
        ("R05-01-A", "3-2", 2),
        ("R05-01-I", "1", 0),
    ]
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


# --- the label JSON read in one pass and scored in columns, equal to the reading key by key ------------

MEASURES = [
    ir_coliee.MicroP,
    ir_coliee.MicroR,
    ir_coliee.MicroF1,
    ir_coliee.MacroP,
    ir_coliee.MacroF2,
]


def _labels(rng: random.Random) -> dict[str, list[str]]:
    """Labels as the releases write them: keys and names with and without ``.txt``, a name twice in a list,
    empty lists."""
    return {
        f"{q:03d}" + rng.choice([".txt", ""]): [
            f"{rng.randrange(40):03d}" + rng.choice([".txt", ""]) for _ in range(rng.randint(0, 5))
        ]
        for q in rng.sample(range(60), rng.randint(1, 30))
    }


def test_label_lists_read_in_one_pass_equal_the_reading_key_by_key() -> None:
    """Each value written as one joined string sends the file to the reading key by key: same labels."""
    rng = random.Random(32)
    for _ in range(300):
        labels = _labels(rng)
        expected = {strip_txt(k): list(dict.fromkeys(map(strip_txt, v))) for k, v in labels.items()}
        assert parse_labels(json.dumps(labels), "l.json") == expected
        assert (
            parse_labels(json.dumps({k: ", ".join(v) for k, v in labels.items()}), "l.json")
            == expected
        )


@pytest.mark.filterwarnings("ignore::ir_coliee.ColieeWarning")
@pytest.mark.parametrize("seed", [10**9, 0])
def test_label_gold_scored_in_columns_equals_the_values_query_by_query(seed, write) -> None:
    """The counts of every query against the labels as sets; the aggregates against each measure's
    aggregator over the per-query values; runs with queries outside the gold and pairs twice."""
    rng = random.Random(seed)
    for i in range(60):
        labels = _labels(rng)
        path = write(f"labels{i}.json", json.dumps(labels))
        gold = read_gold(path, path)[0][DOCUMENTS]
        expected = {
            strip_txt(k): dict.fromkeys(map(strip_txt, v), 1) for k, v in labels.items() if v
        }
        assert gold == expected
        run: dict[str, dict[str, float]] = {}
        for _ in range(rng.randint(1, 80)):
            run.setdefault(f"{rng.randrange(70):03d}", {})[f"{rng.randrange(45):03d}"] = float(
                rng.randrange(3)
            )
        counts = {
            q: (len(docs.keys() & run.get(q, {}).keys()), len(run.get(q, {})), len(docs))
            for q, docs in expected.items()
        }
        result = ir_coliee.calc(MEASURES, gold, run)
        assert result.per_query == list(result.per_query) and repr(result.per_query) == repr(
            list(result.per_query)
        )
        assert [(m.query_id, str(m.measure)) for m in result.per_query] == [
            (q, str(m)) for m in MEASURES for q in counts
        ]
        for m in result.per_query:
            assert (m.value.tp, m.value.retrieved, m.value.relevant) == counts[m.query_id]
            assert m.value == m.measure.formula()(*counts[m.query_id])
        for measure in MEASURES:
            agg = measure.aggregator()
            for m in result.per_query:
                if m.measure is measure:
                    agg.add(m.value)
            assert repr(result.aggregated[measure]) == repr(
                agg.result()
            )  # NaN for a gold of empty lists


def test_label_gold_by_hand(write) -> None:
    """001: 010, 011 (010 twice in its list: once); 002: [] (no gold query); 003: 012. The run: 001 010, 001 099,
    003 012, 009 010 (009 is not in the gold). tp 1 + 1 = 2, retrieved 2 + 1 = 3, relevant 2 + 1 = 3:
    MicroP = MicroR = MicroF1 = 2/3; 001 alone: P = R = 1/2."""
    gold = write(
        "labels.json",
        '{"001.txt": ["010.txt", "011.txt", "010.txt"], "002.txt": [], "003": ["012"]}',
    )
    run = write("task1.t", "001 010 t\n001 099 t\n003 012 t\n009 010 t\n")
    report = ir_coliee.score(gold, run, task=1)
    (row,) = report.table.to_dict("records")
    assert (row["tp"], row["retrieved"], row["relevant"], row["queries"]) == (2, 3, 3, 2)
    assert (row["MicroP"], row["MicroR"], row["MicroF1"]) == (2 / 3, 2 / 3, 2 / 3)
    first = report.per_query[
        (report.per_query.query_id == "001") & (report.per_query.measure == "MicroP")
    ].iloc[0]
    assert (first.value, first.tp, first.retrieved, first.relevant) == (1 / 2, 1, 2, 2)


def test_gold_documents_sharing_a_hash_are_coded_apart() -> None:
    """Documents are coded by sorting their hashes; two ids with one hash are looked up instead."""
    from ir_coliee.table.tables import CodedGold

    class Same(str):
        def __hash__(self) -> int:
            return 7

    gold = {"001": {Same("010"): 1, Same("011"): 1, Same("013"): 0}, "002": {Same("012"): 1}}
    coded = CodedGold(gold, 1)
    pairs = {
        (coded.queries[q], str(coded.docs[d]))
        for q, d in (divmod(p, len(coded.docs)) for p in coded.pairs.tolist())
    }
    assert pairs == {
        ("001", "010"),
        ("001", "011"),
        ("002", "012"),
    } and coded.relevant.tolist() == [2, 1]


def test_a_pair_judged_twice_with_another_relevance_reads_the_last_and_says_so(write) -> None:
    """trec_eval's reading: (q1, d1) judged 1 at line 1, 0 at line 3 -> not relevant; said with both lines."""
    path = write("g.qrels", "q1 0 d1 1\nq1 0 d2 1\nq1 0 d1 0\nq2 0 d3 1\n")
    with pytest.warns(
        ir_coliee.ColieeWarning, match=r"g.qrels: 1 pair judged twice .* \(q1, d1\) at lines 1, 3$"
    ):
        tables, _ = read_gold(path, path)
    assert tables[DOCUMENTS] == {"q1": {"d1": 0, "d2": 1}, "q2": {"d3": 1}}


def test_lines_named_for_a_slip_match_ids_given_with_and_without_txt(write) -> None:
    """``q1.txt`` and ``q1`` are one id: a pair judged twice names both its lines, a question answered twice
    its second line (not a failure to find it)."""
    path = write("g.qrels", "q1.txt 0 d1.txt 1\nq1 0 d1 0\n")
    with pytest.warns(ir_coliee.ColieeWarning, match=r"\(q1, d1\) at lines 1, 2$"):
        read_gold(path, path)
    answers = write("g.answers", "R05-01-A.txt Y\nR05-01-A N\n")
    with pytest.raises(
        ColieeFormatError,
        match=r"g.answers:2: question 'R05-01-A' has two gold answers \(N and Y\)",
    ):
        read_gold(answers, answers)
