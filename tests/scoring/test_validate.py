"""``ir_coliee validate`` and ``validate_run``: every official rule, with file:line findings."""

from __future__ import annotations

import json

import pytest
from support.caselaw_data import write_task1_flat, write_task2
from support.pilot_data import GOLD, blank, jsonl
from support.statute_data import write_statute_root

from ir_coliee import validate_run
from ir_coliee.cli import main


def found(findings):
    return [(f.level, f.line, f.message) for f in findings]


def test_a_clean_run_has_no_findings(write):
    assert (
        validate_run(
            write("task1.univABC", "000028 000100 univABC\n000028 000101 univABC\n"), task=1
        )
        == []
    )


def test_format_tag_duplicate_and_self_retrieval_rules(write):
    path = write("task1.x", "q a t1\nq a t1\nq q t1\nq b\nr x tag-2\n")
    assert found(validate_run(path, task=1)) == [
        ("error", None, "2 run tags (t1, tag-2); a file holds one run, with one tag"),
        ("warning", 2, "duplicate of line 1: counted once"),
        ("error", 3, "query 'q' returns itself; a query case is not its own candidate"),
        ("error", 4, "2 columns; expected 3 columns 'query_id doc_id run_tag'"),
        ("error", 5, "run tag 'tag-2': use 1 to 12 letters or digits, no punctuation"),
    ]


def test_wrong_format_for_the_task(write):
    assert found(validate_run(write("r", "q Y t\n"), task=1)) == [
        ("error", 1, "3 columns (answers format); Task 1 takes 3 columns 'query_id doc_id run_tag'")
    ]
    assert found(validate_run(write("r2", "q Q0 d 1 x t\n"), task=3)) == [
        ("error", 1, "score 'x' is not a number; expected a finite number in column 5")
    ]


def test_bad_bytes_and_empty_files(write):
    assert found(validate_run(write("r", b"q a t\nq \xff t\n"), task=1))[0][:2] == ("error", 2)
    assert found(validate_run(write("e", ""), task=1)) == [
        ("error", None, "the file holds no run lines")
    ]


def test_task4_answers(write):
    path = write("R06.task4.t", "q1 Y t\nq2 maybe t\nq1 N t\nq3 N t\nq3 N t\n")
    assert found(validate_run(path, task=4)) == [
        ("error", 2, "unknown answer 'maybe'; expected Y or N in column 2"),
        (
            "error",
            3,
            "question 'q1' answered 'N' here and 'Y' on line 1; expected one answer per question",
        ),
        ("warning", 5, "duplicate of line 4: counted once"),
    ]


def test_task3_l_limit(write):
    lines = "".join(f"R05-01-A Q0 {a} {a} {1 - a / 1000} t\n" for a in range(1, 103))
    findings = found(validate_run(write("task3-L.t", "/* c */\n" + lines), task=3))
    assert findings == [
        ("error", 102, "question 'R05-01-A' has 102 lines; task3-L files allow 100 per question")
    ]
    assert validate_run(write("task3.t", lines), task=3) == []  # the limit is for -L files


def test_against_the_statute_test_collection(coliee_home, write):
    write_statute_root(coliee_home)
    path = write("task3.t", "R05-01-A 213-2 t\nR05-01-I 3-2 t\nR05-09-A 1 t\n")
    assert found(validate_run(path, task=3, year=2024)) == [
        ("warning", 1, "article '213-2' is not in the Civil Code file"),
        ("error", 3, "query 'R05-09-A' is not a query of coliee/task3/2024/test"),
    ]
    answers = write("R05.task4.t", "R05-01-A Y t\n")
    assert found(validate_run(answers, task=4, year=2024)) == [
        ("warning", None, "1 questions unanswered (scored as wrong): R05-01-I")
    ]


def test_against_the_caselaw_collections(coliee_home, write):
    write_task1_flat(coliee_home)
    write_task2(coliee_home)
    run1 = write("task1.t", "000200 000300 t\n000200 999999 t\n")
    assert found(validate_run(run1, task=1, year=2024)) == [
        (
            "warning",
            None,
            "1 queries of coliee/task1/2024/test have no line (scored as nothing retrieved): 000201",
        ),
        ("error", 2, "case '999999' is not a candidate of query '000200'"),
    ]
    run2 = write("task2.t", "999 003 t\n1000 003.txt t\n")
    assert found(validate_run(run2, task=2, dataset="coliee/task2/2026/test")) == [
        ("error", 2, "paragraph '003' is not a paragraph of case '1000'")
    ]


def test_missing_collection_is_a_warning_not_a_crash(coliee_home, write):
    findings = found(validate_run(write("task3.t", "R05-01-A 1 t\n"), task=3, year=2024))
    assert findings[0][:2] == ("warning", None) and "riteval_R05_en.xml" in findings[0][2]


def test_pilot_nulls(write):
    sub = json.loads(json.dumps(GOLD))
    sub[0]["court_decision"] = None
    sub[1]["defendant_claims"][0]["is_accepted"] = None
    assert found(validate_run(write("sub.jsonl", jsonl(sub)), task="pilot")) == [
        ("error", None, "null left at tort 'T1': tort prediction is disqualified"),
        (
            "error",
            None,
            "null left at tort 'T2', defendant claim 'd1': rationale extraction is disqualified",
        ),
    ]
    assert len(validate_run(write("in.jsonl", jsonl(blank(GOLD))), task="pilot")) == 3 + 8


def test_command_prints_findings_and_exits_1_on_errors(write, capsys):
    assert main(["validate", write("task1.t", "q a t\nq a t\n"), "--task", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        "task1.t:2: warning: duplicate of line 1" in out
        and "valid as a COLIEE Task 1 submission: 0 errors, 1 warning" in out
    )
    assert main(["validate", write("task1.u", "q a t-1\n"), "--task", "1"]) == 1
    assert "not valid" in capsys.readouterr().out


def test_unknown_task():
    with pytest.raises(ValueError, match="unknown COLIEE task"):
        validate_run("x", task=7)


def test_the_text_rules_of_the_official_format(write):
    text = (
        "/* opening comment */\n"
        "R05-01-A Q0 1 1 0.9 t\n"
        "R05-01-A\tQ0 2 2 0.8 t\n"  # a tab
        "R05-01-A Q1 3 3 0.7 t\n"  # not Q0
        "R05-01-A Q0 4 5 0.6 t\n"  # rank 5 after 3
        "R05-01-I Q0 1 1 0.5 t\n"
        "R05-01-I Q0 2 2 0.9 t\n"  # higher score at a lower rank
        "R05-01-I Q0 3 x 0.1 t\n"  # not a number
        "/* a late comment */\n"
        "R05-02-A.txt Q0 1 1 0.5 t\n"
        "R05-02-I Q0 1 1 0.5 tä\n"
    )
    found_ = found(validate_run(write("task3-l.t", text), task=3))  # -L recognised in any case
    assert [f for f in found_ if f[2] and "run tag" not in f[2]] == [
        ("warning", 3, "columns separated by something other than a single space"),
        ("error", 4, "column 2 is 'Q1', not 'Q0'"),
        ("error", 5, "rank 5 after rank 3 of this question; ranks run 1, 2, 3, ..."),
        ("error", 7, "score 0.9 above the score of rank 1: ranks contradict the scores"),
        ("error", 8, "rank 'x' is not a whole number"),
        (
            "warning",
            9,
            "a /* */ comment after the first line; only task3-L files may open with one",
        ),
        ("warning", 10, "question id 'R05-02-A.txt' carries .txt; runs echo the id as written"),
        ("warning", 11, "non-ASCII characters; the official files are ASCII text"),
    ]
    assert ("error", 11, "run tag 'tä': use 1 to 12 letters or digits, no punctuation") in found_
    opening = found(validate_run(write("task3.t", "/* c */\nR05-01-A 1 t\n"), task=3))
    assert opening == [
        (
            "warning",
            1,
            "a /* */ comment in a file that is not a ranked (-L) list; only task3-L files may open with one",
        )
    ]


@pytest.mark.parametrize("score", ["nan", "inf", "-Infinity"])
def test_scores_that_are_not_finite_are_errors(write, score):
    assert found(validate_run(write("task3-L.t", f"R05-01-A Q0 1 1 {score} t\n"), task=3)) == [
        ("error", 1, f"score {score!r} is not a number; expected a finite number in column 5")
    ]


@pytest.mark.parametrize(
    "run, problem",
    [
        ({"q 1": {"a": 1.0}}, "query id 'q 1' cannot be written"),
        ({"q": {"a\tb": 1.0}}, "document id 'a\\tb' cannot be written"),
        ({"q": {"": 1.0}}, "document id '' cannot be written"),
        ({"q": {"a": float("nan")}}, "scores are finite numbers"),
        ({"q": {"a": float("inf")}}, "scores are finite numbers"),
    ],
)
def test_write_run_refuses_what_read_run_would_reject(tmp_path, run, problem):
    from ir_coliee import write_run

    with pytest.raises(ValueError) as info:
        write_run(run, tmp_path / "task3-L.t", format="trec", tag="t")
    assert problem in str(info.value)
    assert not (tmp_path / "task3-L.t").exists()  # nothing half-written


def test_many_findings_of_one_rule_are_capped_and_counted(write):
    from ir_coliee.scoring.validate import MAX_PER_RULE

    text = "".join(f"{q:06d} {q:06d} t\n" for q in range(MAX_PER_RULE + 50))
    findings = validate_run(write("task1.t", text), task=1)
    selfs = [f for f in findings if f.rule == "self"]
    assert len(selfs) == MAX_PER_RULE + 1
    assert (
        selfs[0].line is None
        and selfs[0].message == f"50 more lines like these ({MAX_PER_RULE + 50:,} in all)"
    )


def test_the_counts_of_a_rule_over_the_kept_findings_agree_everywhere(write, capsys):
    """2,000 tab-separated lines: each line is a warning, and every number printed says 2,000."""
    from ir_coliee.cli import main

    path = write(
        "task1.tabs", "".join(f"{q:06d}\t{d + 500:06d}\tt\n" for q in range(400) for d in range(5))
    )
    assert main(["validate", path, "--task", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == f"{path}: warning: ... and 1,995 more like these (2,000 in all)"
    assert out[-1] == f"{path}: valid as a COLIEE Task 1 submission: 0 errors, 2,000 warnings"
