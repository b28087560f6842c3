"""A generated corpus of hostile files, each read by the command as a user would: it exits 0, 1 or 2 and
raises nothing; and whenever it exits 0, the numbers it prints are those of an independent oracle
(never a silently wrong score)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from fractions import Fraction

import pytest
from support.cases import micro_reference, oracle_data_lines, without_path

from ir_coliee.cli import main

GOLD = {"000001": {"000010", "000011"}, "000002": {"000012"}, "000003": {"000013"}}
GOLD_JSON = json.dumps({f"{q}.txt": [f"{d}.txt" for d in sorted(ds)] for q, ds in GOLD.items()})
GOOD_RUN = b"000001 000010 t\n000001 000099 t\n000002 000012 t\n"

_SEPARATORS = re.compile(r"[ \t\r]+")


def oracle_micro(run: bytes, gold: dict[str, set[str]]) -> tuple[Fraction, Fraction, Fraction]:
    """Micro P, R, F1 from the file's text by the official definition, written independently of the package:
    fields split on spaces, tabs and CRs; blank lines and /* */ comments skipped; .txt stripped; a pair
    counts once; gold queries only."""
    pairs = set()
    for stripped in oracle_data_lines(run.decode("utf-8-sig").replace("\r\n", "\n")):
        fields = _SEPARATORS.split(stripped)
        query, doc = (fields[0], fields[2]) if len(fields) == 6 else (fields[0], fields[1])
        pairs.add((query.removesuffix(".txt"), doc.removesuffix(".txt")))
    return micro_reference(gold, pairs)


RUNS: dict[str, bytes] = {
    "clean": GOOD_RUN,
    "BOM and CRLF": b"\xef\xbb\xbf" + GOOD_RUN.replace(b"\n", b"\r\n"),
    "tabs": GOOD_RUN.replace(b" ", b"\t"),
    ".txt suffixes": b"000001.txt 000010.txt t\n000002 000012.txt t\n",
    "duplicate lines": GOOD_RUN + GOOD_RUN,
    "blank lines and a comment": b"/* team t */\n\n" + GOOD_RUN + b"\n\n",
    "TREC six columns": b"000001 Q0 000010 1 0.9 t\n000002 Q0 000013 1 0.5 t\n",
    "Japanese ids": "000001 合成 t\n000002 000012 t\n".encode(),
    "a lone CR": b"000001 000010 t\n000002\r000012 t\n",
    "queries not in the gold": GOOD_RUN + b"999999 000010 t\n",
    "empty": b"",
    "blank only": b"\n \n\t\n",
    "comment only": b"/* nothing */\n",
    "unterminated comment": b"/* open\n" + GOOD_RUN,
    "two columns": b"000001 000010\n",
    "four columns": b"000001 000010 t x\n",
    "mixed widths": b"000001 000010 t\n000001 Q0 000011 1 0.5 t\n",
    "invalid UTF-8": b"000001 \xff t\n",
    "UTF-16": "000001 000010 t\n".encode("utf-16"),
    "gzip bytes": b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
    "Latin-1": "000001 caf\xe9 t\n".encode("latin-1"),
    "NaN score": b"000001 Q0 000010 1 nan t\n",
    "infinite score": b"000001 Q0 000010 1 inf t\n",
    "5000-digit score": b"000001 Q0 000010 1 " + b"9" * 5000 + b" t\n",
    "text score": b"000001 Q0 000010 1 high t\n",
    "answers": b"000001 Y t\n000002 N t\n",
    "lower-case answer": b"000001 y t\n",
    "old Mac line ends": GOOD_RUN.replace(b"\n", b"\r"),
    "a thousand columns": b" ".join([b"x"] * 1000) + b"\n",
    "a 1 MB id": b"000001 " + b"a" * 1_000_000 + b" t\n",
    "NUL bytes": b"000001 0000\x0010 t\n",
    "no shared query": b"777777 000010 t\n",
    "form feed inside an id": b"000001 0000\x0c10 t\n",
    "a BOM on a later line (two files joined)": GOOD_RUN + b"\xef\xbb\xbf000003 000013 t\n",
    "a score with an underscore": b"000001 Q0 000010 1 1_000 t\n",
    "a score in Arabic-Indic digits": "000001 Q0 000010 1 \u0663 t\n".encode(),
    "ids as another task's": b"000001 R05-01-A t\n",
}

GOLDS: dict[str, bytes] = {
    "label JSON": GOLD_JSON.encode(),
    "label JSON with a BOM": b"\xef\xbb\xbf" + GOLD_JSON.encode(),
    "joined strings": json.dumps(
        {"000001": "000010.txt, 000011.txt", "000002": "000012.txt", "000003": "000013"}
    ).encode(),
    "names joined by spaces and semicolons": json.dumps(
        {"000001": "000010.txt 000011.txt", "000002": "000012.txt;", "000003": "000013"}
    ).encode(),
    "names joined by a bar": json.dumps(
        {"000001": "000010.txt|000011.txt", "000002": "000012.txt"}
    ).encode(),
    "TREC qrels": "".join(
        f"{q} 0 {d} 1\n" for q, ds in sorted(GOLD.items()) for d in sorted(ds)
    ).encode(),
    "empty": b"",
    "a JSON list": b'["000001"]',
    "numbers as labels": b'{"000001": [10]}',
    "deep nesting": b"[" * 50_000 + b"]" * 50_000,
    "a 5000-digit relevance": b"000001 0 000010 " + b"9" * 5000 + b"\n",
    "text relevance": b"000001 0 000010 high\n",
    "three columns, not answers": b"000001 000010 x\n",
    "truncated JSON": GOLD_JSON.encode()[:20],
    "XML with an entity": b'<!DOCTYPE d [<!ENTITY a "aaaa">]><dataset><pair id="H30-1-A" label="Y"><t1>&a;</t1><t2>q</t2></pair></dataset>',
    "truncated XML": b'<dataset><pair id="H30-1-A" label="Y"><t1>Article 1',
    "invalid UTF-8": b"000001 0 \xff 1\n",
    "a lone surrogate": b'{"\\ud800": ["000010"]}',
    "no relevant pair": b'{"000001": []}',
}

PILOT = {
    "invalid JSON": b"{not json}\n",
    "a key twice": b'{"tort_id": "T1", "tort_id": "T2"}\n',
    "a list": b"[1, 2]\n",
    "deep nesting": b"[" * 50_000 + b"]" * 50_000 + b"\n",
    "wrong types": b'{"tort_id": true, "undisputed_facts": [], "plaintiff_claims": [], "defendant_claims": [], "court_decision": 1}\n',
    "invalid UTF-8": b'{"tort_id": "\xff"}\n',
}


#: The measures these tests check, named: the corpus tests reading, not the default measure set.
MICRO = ["MicroP", "MicroR", "MicroF1"]


def run_command(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)  # an exception here fails the test: that is a traceback for the user
    return code, out.getvalue(), err.getvalue()


def printed_micro(out: str) -> tuple[float, float, float]:
    header, row = without_path(out)
    assert header == "run\tMicroP\tMicroR\tMicroF1"
    return tuple(float(v) for v in row.split("\t")[1:])  # type: ignore[return-value]


@pytest.mark.parametrize("name", list(RUNS))
def test_hostile_run_files(write, name):
    run = write("task1.run", RUNS[name])
    code, out, err = run_command(
        ["eval", write("gold.json", GOLD_JSON), run, *MICRO, "--task", "1", "--digits", "6"]
    )
    assert code in (0, 1, 2) and (code == 0) == (out != "")
    if code:
        assert err.startswith("ir_coliee: ") and "error: " in err
        return
    expected = oracle_micro(RUNS[name], GOLD)
    assert printed_micro(out) == pytest.approx([float(v) for v in expected], abs=5e-7), name


@pytest.mark.parametrize("name", list(GOLDS))
def test_hostile_gold_files(write, name):
    code, out, err = run_command(
        [
            "eval",
            write("gold.txt", GOLDS[name]),
            write("task1.run", GOOD_RUN),
            *MICRO,
            "--task",
            "1",
        ]
    )
    assert code in (0, 1, 2) and (code == 0) == (out != "")
    if code:
        assert "error: " in err
        return
    assert printed_micro(out) == pytest.approx(
        [float(v) for v in oracle_micro(GOOD_RUN, GOLD)], abs=5e-5
    ), name


@pytest.mark.parametrize("name", list(PILOT))
def test_hostile_pilot_files(write, name):
    from support.pilot_data import GOLD as TORTS
    from support.pilot_data import jsonl

    code, _, err = run_command(
        ["eval", write("gold.jsonl", jsonl(TORTS)), write("sub.jsonl", PILOT[name])]
    )
    assert code == 2 and "sub.jsonl:1: " in err


def test_the_corpus_has_errors_and_scores_of_both_kinds(write):
    """The corpus is not all-clean or all-broken: both outcomes are exercised."""
    outcomes = {
        run_command(["eval", write("g.json", GOLD_JSON), write("r", data), "--task", "1"])[0]
        for data in RUNS.values()
    }
    assert outcomes == {0, 1, 2}


def test_long_values_are_cut_in_messages(write):
    code, _, err = run_command(
        ["eval", write("g.json", GOLD_JSON), write("r", RUNS["5000-digit score"]), "--task", "1"]
    )
    assert code == 2 and "(5,000 characters)" in err and len(err) < 400
