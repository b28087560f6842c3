"""The organisers' analyses: each group's value is the measure over that group alone (equal to scoring the
group's gold and runs), by hand for each grouping and each kind of gold, and a partition adds back to the whole."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cases import GOLD, RUN
from support.pilot_data import GOLD as PILOT_GOLD
from support.pilot_data import SUBMISSION as PILOT_SUBMISSION
from support.pilot_data import jsonl
from support.statute_data import write_analysed_exam

import ir_coliee
from ir_coliee.errors import ColieeArgumentError, ColieeError, ColieeWarning
from ir_coliee.scoring.analyse import BUCKETS, is_anonymised

# support.statute_data.ANALYSED: gold articles A {1}, I {2, 3}, U {3-2}, E {1, 2, 566}; answers Y, N, N, N.
# MacroF2 per question (F2 = 5PR / (4P + R)): A: P 1/2, R 1 -> 5/6; I: P 1, R 1/2 -> 5/9; U, E: nothing -> 0
T3_RUN = {
    "R05-01-A": {"1": 2.0, "9": 1.0},
    "R05-01-I": {"2": 1.0},
    "R05-02-U": {"9": 1.0},
    "R05-02-E": {"724-2": 1.0},
}
T3_TOP = {
    "R05-01-A": {"1": 2.0},
    "R05-01-I": {"2": 1.0, "3": 0.5},
    "R05-02-U": {"9": 1.0},
    "R05-02-E": {"1": 1.0},
}


@pytest.fixture
def exam(coliee_home):
    """coliee/task3/2024/test and coliee/task4/2024/test: support.statute_data.ANALYSED."""
    write_analysed_exam(coliee_home)
    return coliee_home


def row(frame, by, group):
    return frame[(frame["by"] == by) & (frame["group"] == group)].iloc[0]


def subset(table, qids):
    return {q: docs for q, docs in table.items() if q in qids}


@pytest.mark.parametrize(
    ("text", "anonymised"),
    [
        ("A sold a car to B. Is the sale valid?", True),
        ("A person who is a minor may not sell land.", False),  # the article opening a sentence
        ("A's land was sold.", True),  # a party's land
        ("The lender may claim it. A guarantor may refuse.", False),
        ("If I lend money, may the lender demand it back?", False),  # the pronoun
        ("If I lend money to C, may C demand it back?", True),
        ("Ａは、Ｂに対し、土地を売った。", True),  # full-width symbols
        (
            "Article 3-2 applies to X-rays and COVID-19 cases.",
            False,
        ),  # letters inside words and ids
        ("", False),
        ("Ａが死亡した。", True),  # a symbol followed by no English word
        ("A, who is a minor, sold it.", True),
        ('"A sold the car."', True),  # opens a quotation, not a sentence
        ("In case of (A), the court", True),
        ("The contract: A sold it.", True),
        ("U.S. law applies.", False),  # an abbreviation
        ("E.g. this", False),
        ("Plan B is fine", True),  # a thing named by a symbol, as the bar exam's land X
        (
            "A sold it. A person may not.",
            False,
        ),  # the article's reading of an opening A: a known miss
    ],
)
def test_the_anonymised_rule(text, anonymised):
    assert is_anonymised(text) is anonymised


@pytest.mark.parametrize(
    ("english", "japanese", "anonymised"),
    [
        ("A sold Land X to B.", "Ａは、Ｂに対し、甲土地を売却した。", True),
        (
            "A leased Building Y, which A owns, to B.",
            "Ａは、その所有する乙建物をＢに賃貸した。",
            True,
        ),
        # things alone named by symbols: 甲 乙 where the English has X and Y
        ("The owner of Land X sold it.", "甲土地の所有者は、これを売却した。", True),
        (
            "Building Y on Land X was destroyed by fire.",
            "甲土地上の乙建物が火災により滅失した。",
            True,
        ),
        ("C acquired Land Z from D.", "丙は、丁から丙土地を取得した。", True),
        (
            "A person who is a minor may rescind a contract.",
            "未成年者は、契約を取り消すことができる。",
            False,
        ),
        (
            "The lender may claim it. A guarantor may refuse.",
            "貸主は請求できる。保証人は拒むことができる。",
            False,
        ),
        # the kanji opening words are no symbols: 丁寧 (careful), 丁目 (a street block)
        ("A mandatary must explain carefully.", "受任者は丁寧に説明しなければならない。", False),
        ("The address is Block 2.", "住所は二丁目である。", False),
    ],
)
def test_english_and_japanese_questions_are_grouped_alike(english, japanese, anonymised):
    assert (is_anonymised(english), is_anonymised(japanese)) == (anonymised, anonymised)


def test_a_question_without_text_is_other_with_a_warning(exam, monkeypatch):
    from ir_coliee.scoring import analyse

    texts = {"R05-01-A": "A sold it to B.", "R05-01-I": " ", "R05-02-U": "C and D."}
    monkeypatch.setattr(analyse, "_question_texts", lambda prepared: texts)
    a = ir_coliee.analyse("coliee/task3/2024/test", {"bm25": T3_RUN}, by="anonymised")
    assert [row(a.groups, "anonymised", g)["questions"] for g in ("anonymised", "other")] == [2, 2]
    said = [f.message for f in a.findings if f.level == "warning"]
    assert said == ["R05-01-I: no question text: other", "R05-02-E: no question text: other"]


def test_a_grouping_keeps_its_groups_when_one_is_empty(exam, monkeypatch):
    """Every question anonymised: ``other`` is shown with 0 questions and no values, as is ``multiple`` when
    every question has one gold case (support.cases q2 {c}, q3 {d})."""
    from ir_coliee.scoring import analyse

    monkeypatch.setattr(
        analyse, "_question_texts", lambda prepared: dict.fromkeys(prepared.qrels, "A and B.")
    )
    run = {
        "R05-01-A": {"Y": 1.0},
        "R05-01-I": {"N": 1.0},
        "R05-02-U": {"Y": 1.0},
        "R05-02-E": {"N": 1.0},
    }
    other = row(
        ir_coliee.analyse("coliee/task4/2024/test", {"t4": run}, by="anonymised").groups,
        "anonymised",
        "other",
    )
    assert (
        other["questions"] == 0
        and other[["AnswerAccuracy t4", "AnswerAccuracy mean", "baseline (N)"]].isna().all()
    )
    singles = {q: GOLD[q] for q in ("q2", "q3")}
    a = ir_coliee.analyse(singles, {"bm25": RUN}, by="single-multiple", task=1, year=2025)
    assert a.groups["group"].tolist() == ["all", "single", "multiple"]
    assert row(a.groups, "single-multiple", "multiple")[
        ["questions", "MicroF1 bm25"]
    ].isna().tolist() == [False, True]
    assert row(a.histogram, "single-multiple", "multiple")[BUCKETS].sum() == 0
    out = io.StringIO()
    a.write(out, "markdown")
    assert "| single-multiple | multiple | 0 | – | – |" in out.getvalue()


def test_case_law_micro_by_hand_and_equal_to_scoring_each_group_alone():
    """support.cases: q1 gold {a, b}, q2 {c}, q3 {d}; the run retrieves a, x | c, y, z | - (and q9, not gold).
    relevant=1 (q2, q3): tp 1, retrieved 3, relevant 2 -> P 1/3, R 1/2, F1 2/5; relevant=2 (q1): 1/2;
    all: tp 2, retrieved 5, relevant 4 -> F1 4/9, which is no mean of the groups' values."""
    a = ir_coliee.analyse(
        GOLD, {"bm25": RUN}, by=["relevant", "single-multiple"], task=1, year=2025
    )
    assert [str(m) for m in a.measures] == ["MicroF1"]
    groups = a.groups
    assert row(groups, "all", "all")["MicroF1 bm25"] == pytest.approx(4 / 9)
    assert row(groups, "relevant", "1")["MicroF1 bm25"] == pytest.approx(2 / 5)
    assert row(groups, "relevant", "2")["MicroF1 bm25"] == pytest.approx(1 / 2)
    assert row(groups, "single-multiple", "single")["questions"] == 2
    assert row(groups, "single-multiple", "multiple")["MicroF1 bm25"] == pytest.approx(1 / 2)
    for qids, group in [({"q2", "q3"}, "1"), ({"q1"}, "2")]:
        alone = ir_coliee.score(subset(GOLD, qids), subset(RUN, qids), task=1, year=2025).table
        assert row(groups, "relevant", group)["MicroF1 bm25"] == pytest.approx(
            alone.loc[0, "MicroF1"], abs=1e-12
        )
    per = a.per_question.set_index("query_id")
    assert per.loc["q1", "MicroF1 bm25"] == pytest.approx(1 / 2)  # P 1/2, R 1/2
    assert per.loc["q2", "MicroF1 bm25"] == pytest.approx(1 / 2)  # P 1/3, R 1: 2/3 / (4/3)
    assert list(per["nothing"]) == [0, 0, 1] and list(per["solved"]) == [0, 0, 0]
    assert per.loc["q3", "relevant"] == "1" and per.loc["q1", "single-multiple"] == "multiple"


def test_statute_macro_by_hand_with_two_runs_and_every_grouping(exam):
    a = ir_coliee.analyse(
        "coliee/task3/2024/test", {"bm25": T3_RUN, "top": T3_TOP}, by=["anonymised", "relevant"]
    )
    groups = a.groups
    # bm25: A 5/6, I 5/9, U 0, E 0; top: A 1, I 1, U 0, E: P 1, R 1/3 -> 5/3 / (4 + 1/3) = 5/13
    assert row(groups, "all", "all")["MacroF2 bm25"] == pytest.approx((5 / 6 + 5 / 9) / 4)
    assert row(groups, "anonymised", "anonymised")["questions"] == 3  # A, U (C), E
    assert row(groups, "anonymised", "anonymised")["MacroF2 bm25"] == pytest.approx((5 / 6) / 3)
    assert row(groups, "anonymised", "other")["MacroF2 top"] == pytest.approx(1)
    assert row(groups, "relevant", "3")["MacroF2 top"] == pytest.approx(5 / 13)
    assert row(groups, "relevant", "1")["MacroF2 mean"] == pytest.approx((5 / 6 / 2 + 1 / 2) / 2)
    assert "baseline (N)" not in groups.columns  # no answers to guess
    per = a.per_question.set_index("query_id")
    assert per.loc["R05-02-E", "MacroF2 mean"] == pytest.approx((0 + 5 / 13) / 2)
    assert (per.loc["R05-01-A", "solved"], per.loc["R05-02-U", "nothing"]) == (1, 2)
    # the histogram of the mean: A (5/6 + 1)/2 = 0.92, I (5/9 + 1)/2 = 0.78, U 0, E 0.19
    hist = a.histogram.set_index("group").loc["all"]
    assert [hist[b] for b in ("0.0-0.1", "0.1-0.2", "0.7-0.8", "0.9-1.0")] == [1, 1, 1, 1]
    assert sum(hist[b] for b in BUCKETS) == 4
    for label, qids in [
        ("anonymised", {"R05-01-A", "R05-02-U", "R05-02-E"}),
        ("other", {"R05-01-I"}),
    ]:
        gold = ir_coliee.load_gold("coliee/task3/2024/test").tables["documents"]
        alone = ir_coliee.score(subset(gold, qids), subset(T3_TOP, qids), task=3, year=2024).table
        assert row(groups, "anonymised", label)["MacroF2 top"] == pytest.approx(
            alone.loc[0, "MacroF2"], abs=1e-12
        )


def test_answers_by_category_with_the_no_baseline(exam, write):
    """Gold Y, N, N, N: the majority answer is N. A category file: A and E 'party', I and E 'minor'."""
    cats = write(
        "cats.tsv",
        "# question\tcategories\nR05-01-A\tparty\nR05-01-I\tminor\nR05-02-E party  minor\n",
    )
    run = {
        "R05-01-A": {"Y": 1.0},
        "R05-01-I": {"Y": 1.0},
        "R05-02-U": {"N": 1.0},
        "R05-02-E": {"N": 1.0},
    }
    a = ir_coliee.analyse("coliee/task4/2024/test", {"t4": run}, by=[cats, "anonymised"])
    groups = a.groups
    assert row(groups, "all", "all")[["AnswerAccuracy t4", "baseline (N)"]].tolist() == [
        3 / 4,
        3 / 4,
    ]
    assert row(groups, "cats.tsv", "party")[
        ["questions", "AnswerAccuracy t4", "baseline (N)"]
    ].tolist() == [
        2,
        1,
        1 / 2,
    ]
    assert row(groups, "cats.tsv", "minor")[["AnswerAccuracy t4", "baseline (N)"]].tolist() == [
        1 / 2,
        1,
    ]
    assert row(groups, "cats.tsv", "(none)")["questions"] == 1  # U
    assert row(groups, "anonymised", "anonymised")["AnswerAccuracy t4"] == pytest.approx(1)
    assert a.per_question.set_index("query_id").loc["R05-02-E", "cats.tsv"] == "party, minor"
    with pytest.raises(
        ColieeError, match="one answer per question: group by anonymised or a category file"
    ):
        ir_coliee.analyse("coliee/task4/2024/test", {"t4": run}, by="relevant")


def test_the_pilot_by_category_and_what_it_refuses(write):
    """support.pilot_data: gold decisions T1 True, T2 False, T3 True; the submission says True for all three."""
    gold, sub = write("gold.jsonl", jsonl(PILOT_GOLD)), write("team.jsonl", jsonl(PILOT_SUBMISSION))
    cats = write("torts.tsv", "T1 first\nT2 rest\nT3 rest\n")
    a = ir_coliee.analyse(gold, [sub], by=cats)
    groups = a.groups
    columns = ["questions", "AnswerAccuracy team.jsonl", "baseline (True)"]
    assert row(groups, "all", "all")[columns].tolist() == [
        3,
        pytest.approx(2 / 3),
        pytest.approx(2 / 3),
    ]
    assert row(groups, "torts.tsv", "rest")[columns].tolist() == [2, 1 / 2, 1 / 2]
    assert row(groups, "torts.tsv", "first")[columns].tolist() == [1, 1, 1]
    whole = ir_coliee.score(gold, [sub]).table.loc[0, "AnswerAccuracy"]
    assert row(groups, "all", "all")["AnswerAccuracy team.jsonl"] == whole
    for by in ("relevant", "single-multiple"):
        with pytest.raises(ColieeError, match="group by a category file"):
            ir_coliee.analyse(gold, [sub], by=by)
    with pytest.raises(
        ColieeError, match="texts of a statute dataset"
    ):  # a file: before any reading
        ir_coliee.analyse(gold, [sub], by="anonymised")
    with pytest.raises(ColieeError, match="tort prediction"):
        ir_coliee.analyse(gold, [sub], by=cats, measures=["MacroF1"])


def test_bad_groupings_are_refused_naming_them(write):
    with pytest.raises(ColieeError, match="by 'nope': neither relevant"):
        ir_coliee.analyse(GOLD, [RUN], by="nope", task=1)
    with pytest.raises(ColieeError, match=r"2 ids are not questions of the gold \(q7, q8\)"):
        ir_coliee.analyse(GOLD, [RUN], by=write("c.tsv", "q1 x\nq7 y\nq8 y\n"), task=1)
    with pytest.raises(ColieeError, match="line 1: expected QUERY_ID CATEGORY"):
        ir_coliee.analyse(GOLD, [RUN], by=write("c.tsv", "q1\n"), task=1)
    with pytest.raises(ColieeError, match="reads the question texts of a statute dataset"):
        ir_coliee.analyse(GOLD, [RUN], by="anonymised", task=1)
    whole = ir_coliee.analyse(GOLD, {"bm25": RUN}, by=[], task=1)  # the whole set alone
    assert whole.groups["group"].tolist() == ["all"] and len(whole.panels()) == 1


def test_names_never_collide(write, tmp_path):
    """A grouping given twice is refused; two category files of one base name are told apart by their paths
    (and one named like a column too); a run named like the mean's column is refused."""
    (tmp_path / "a").mkdir()
    first, second = write("c.tsv", "q1 x\nq2 y\n"), write("a/c.tsv", "q1 z\n")
    for by in (["relevant", "relevant"], [first, str(tmp_path / "a" / ".." / "c.tsv")]):
        with pytest.raises(ColieeArgumentError, match=f"by {re.escape(repr(by[1]))}: given twice"):
            ir_coliee.analyse(GOLD, [RUN], by=by, task=1)
    solved = write("solved", "q3 w\n")
    a = ir_coliee.analyse(GOLD, {"bm25": RUN}, by=[first, second, solved], task=1, year=2025)
    assert [g.name for g in a.groupings] == ["c.tsv", second, solved]
    per = a.per_question.set_index("query_id")
    assert per.loc["q1", ["c.tsv", second, solved, "solved"]].tolist() == ["x", "z", "(none)", 0]
    out = io.StringIO()
    a.write(out, "json")
    assert json.loads(out.getvalue())["per_question"][2][solved] == "w"
    with pytest.raises(ColieeArgumentError, match="a run is named 'mean'"):
        ir_coliee.analyse(GOLD, {"mean": RUN}, by="relevant", task=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no line QUERY_ID CATEGORY"),
        ("# only a comment\n\n", "no line QUERY_ID CATEGORY"),
        ("q1 x\nq2 y (none)\n", "line 2: '\\(none\\)' names a group of its own"),
        ("q1\tall\n", "line 1: 'all' names a group of its own"),
        ("q1 x\nq2 a,b\n", "line 2: the category 'a,b' holds a comma"),
        ("q1 x # a note, with a comma\nq2 # y\n", "line 2: expected QUERY_ID CATEGORY"),
    ],
)
def test_category_files_without_categories_or_with_reserved_ones_are_refused(write, text, message):
    path = write("cats.tsv", text)
    with pytest.raises(ColieeError, match=f"category file {re.escape(str(path))}.*{message}"):
        ir_coliee.analyse(GOLD, [RUN], by=path, task=1)


def test_plain_argument_errors(write):
    """A single measure is a measure, not its letters; no ``by`` is an argument error, not a bug; a mix of
    paths and runs in memory is read as ``score`` reads it."""
    a = ir_coliee.analyse(GOLD, {"bm25": RUN}, by="relevant", measures="MicroP", task=1, year=2025)
    assert [str(m) for m in a.measures] == ["MicroP", "MicroF1"]
    mixed = ir_coliee.analyse(GOLD, [write("run.txt", "q1 a x\n"), RUN], by="relevant", task=1)
    scored = ir_coliee.score(GOLD, [write("run.txt", "q1 a x\n"), RUN], task=1)
    assert list(mixed.data) == scored.table["run"].tolist()
    for by in (None, 3, [None]):
        with pytest.raises(
            ColieeArgumentError, match=f"by: give at least one grouping .*not {re.escape(repr(by))}"
        ):
            ir_coliee.analyse(GOLD, [RUN], by=by, task=1)


def test_asked_measures_come_first_and_the_writers_give_one_document(write):
    headline_first = ir_coliee.analyse(
        GOLD, {"bm25": RUN}, by="relevant", measures=["MicroF1", "MicroP"], task=1
    )
    assert [str(m) for m in headline_first.measures] == [
        "MicroF1",
        "MicroP",
    ]  # the histogram's is the first asked
    a = ir_coliee.analyse(
        GOLD, {"bm25": RUN}, by="relevant", measures=["MicroP", "MicroF1"], task=1, year=2025
    )
    assert [str(m) for m in a.measures] == ["MicroP", "MicroF1"]
    for style, digits, said in [
        ("xml", 4, "style: one of tsv"),
        ("tsv", -1, "digits: a whole number from 0"),
    ]:
        with pytest.raises(ColieeArgumentError, match=said):
            a.write(io.StringIO(), style, digits)
    assert row(a.groups, "relevant", "1")["MicroP bm25"] == pytest.approx(1 / 3)
    out = io.StringIO()
    a.write(out, "json")
    doc = json.loads(out.getvalue())
    assert (
        doc["groups"][0]["MicroF1 bm25"] == pytest.approx(4 / 9) and len(doc["per_question"]) == 3
    )
    for style, mark in [
        ("markdown", "### histogram"),
        ("latex", "\\begin{tabular}"),
        ("csv", "by,group,questions"),
    ]:
        out = io.StringIO()
        a.write(out, style)
        assert mark in out.getvalue() and "0.4444" in out.getvalue()


def test_counts_are_summed_over_a_group_as_score_sums_them_and_come_last(exam):
    """T3_RUN retrieves 2 articles for A, 1 for I, U, E; gold A {1}, U {3-2} (relevant 1), I (2), E (3)."""
    a = ir_coliee.analyse(
        "coliee/task3/2024/test", {"bm25": T3_RUN}, by="relevant", measures=["NumRet"]
    )
    assert [str(m) for m in a.measures] == [
        "MacroF2",
        "NumRet",
    ]  # the histogram buckets the fraction
    assert [
        row(a.groups, "all", "all")["NumRet bm25"],
        row(a.groups, "relevant", "1")["NumRet mean"],
    ] == [5, 3]
    whole = ir_coliee.score("coliee/task3/2024/test", {"bm25": T3_RUN}, measures=["NumRet"]).table
    assert whole.loc[0, "NumRet"] == 5
    assert a.per_question.set_index("query_id").loc["R05-01-A", "NumRet bm25"] == 2


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 7))
def test_a_partition_adds_back_to_the_whole(seed, n):
    """Micro measures: the groups' counts (of scoring each group alone) add up to the whole's; MacroF2 and
    answer accuracy: the groups' values weighted by their sizes give the whole's."""
    rng = random.Random(seed)
    qids = [f"q{i}" for i in range(n)]
    gold = {q: {f"d{j}": 1 for j in rng.sample(range(6), rng.randint(1, 3))} for q in qids}
    run = {
        q: {f"d{j}": rng.random() for j in rng.sample(range(8), rng.randint(1, 4))} for q in qids
    }
    part = {q: rng.choice("xyz") for q in qids}
    by = {"x": [q for q in qids if part[q] == "x"], "y": [q for q in qids if part[q] == "y"]}
    by["z"] = [q for q in qids if part[q] == "z"]
    categories = "".join(f"{q}\t{part[q]}\n" for q in qids)
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "part.tsv")
        with open(path, "w") as f:
            f.write(categories)
        micro = ir_coliee.analyse(
            gold, {"r": run}, by=path, measures=["MicroF1"], task=1, year=2025
        ).groups
        macro = ir_coliee.analyse(gold, {"r": run}, by=path, task=3, year=2025).groups
        answers = {q: {rng.choice("YN"): 1} for q in qids}
        said = {q: {rng.choice("YN"): 1.0} for q in qids}
        accuracy = ir_coliee.analyse(answers, {"r": said}, by=path, task=4, year=2025).groups
    whole = ir_coliee.score(gold, run, task=1, year=2025).table.loc[0]
    counts = {"tp": 0, "retrieved": 0, "relevant": 0}
    for label, members in by.items():
        if not members:
            continue
        alone = ir_coliee.score(
            subset(gold, members), subset(run, members), task=1, year=2025
        ).table.loc[0]
        assert row(micro, "part.tsv", label)["MicroF1 r"] == pytest.approx(
            alone["MicroF1"], abs=1e-12
        )
        for c in counts:
            counts[c] += alone[c]
    assert counts == {c: whole[c] for c in counts}
    for frame, column in [(macro, "MacroF2 r"), (accuracy, "AnswerAccuracy r")]:
        parts = frame[frame["by"] == "part.tsv"]
        weighted = sum(parts["questions"] * parts[column]) / n
        assert weighted == pytest.approx(row(frame, "all", "all")[column], abs=1e-12)
    assert row(accuracy, "all", "all")["AnswerAccuracy r"] == pytest.approx(
        ir_coliee.score(answers, said, task=4, year=2025).table.loc[0, "AnswerAccuracy"], abs=1e-12
    )


def test_a_hash_inside_a_category_name_is_said_not_cut_silently(write):
    # q1's category is read as 'x\', its '#y' a comment: said; q2's comment after a blank is no surprise
    cats = write("c.tsv", "q1 x\\#y\nq2 y # a comment\n")
    with pytest.warns(ColieeWarning, match=r"c.tsv, line 1: '#y' read as a comment") as said:
        groups = ir_coliee.analyse(GOLD, [RUN], by=cats, task=1).groups
    assert len(said) == 1
    assert set(groups[groups["by"] == "c.tsv"]["group"]) >= {"x\\", "y"}
