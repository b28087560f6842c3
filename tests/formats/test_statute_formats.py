"""Civil Code and riteval parsing, record by record, on synthetic files in the official layouts."""

from __future__ import annotations

import pytest
from support.statute_data import (
    CIVIL_CODE_EN,
    CIVIL_CODE_JA,
    EN_IDS,
    H30,
    R01,
    R03,
    R04,
    R04_JA,
    R05_UNLABELLED,
    riteval,
)

from ir_coliee import ColieeFormatError
from ir_coliee.formats.civil_code import ColieeArticle, parse_civil_code
from ir_coliee.formats.numerals import article_id, kanji_to_int
from ir_coliee.formats.riteval import gold_articles, parse_riteval
from ir_coliee.formats.textfile import decode_text
from ir_coliee.model import QUESTION_ID


def test_english_civil_code_records():
    articles = list(parse_civil_code(decode_text(CIVIL_CODE_EN.encode("utf-8"), "code")))
    assert [a.doc_id for a in articles] == EN_IDS  # deletions and ranges are not documents
    by_id = {a.doc_id: a for a in articles}
    assert by_id["1"] == ColieeArticle(
        "1",
        "Article 1  (1) Synthetic rule one.\n(2) Synthetic second paragraph of article one.",
        "Fundamental Principles",
        "Part I General Provisions > Chapter I Common Provisions",
    )
    assert by_id["3-2"].caption == "Capacity of Foreigners"  # a caption belongs to the next article
    assert by_id["3-2"].text.splitlines()[1:] == [
        "(i) a synthetic item;",
        "(ii) another synthetic item (with a remark).",
    ]
    assert by_id["398-22"].caption == "Juridical Acts by Minors"
    assert by_id["398-22"].path == "Part II Real Rights > Chapter I General Provisions"
    assert by_id["566"].path.endswith(
        "Subsection 1 Synthetic Subsection > Division 1 Synthetic Division"
    )
    assert by_id["724-2"].path == "Part III Claims"
    assert (
        by_id["2"].caption == "" and by_id["2"].default_text() == "Article 2  Synthetic rule two."
    )
    assert by_id["1"].default_text().startswith("Fundamental Principles\nArticle 1")
    assert "\r" not in "".join(a.text for a in articles) and "\ufeff" not in articles[0].text


def test_japanese_civil_code_has_the_english_ids():
    articles = list(parse_civil_code(decode_text(CIVIL_CODE_JA.encode("utf-8"), "code")))
    assert [a.doc_id for a in articles] == EN_IDS
    first = articles[0]
    assert (first.caption, first.path) == ("基本原則", "第一編　総則 > 第一章　通則")
    assert first.text == "第一条　合成の規定一。\n２　合成の第二項。"


@pytest.mark.parametrize(
    "kanji, number",
    [
        ("一", 1),
        ("十", 10),
        ("十一", 11),
        ("二百十三", 213),
        ("七百二十四", 724),
        ("千四十四", 1044),
    ],
)
def test_kanji_numbers(kanji, number):
    assert kanji_to_int(kanji) == number


def test_article_ids_from_kanji_and_full_width_digits():
    assert article_id("二百十三", "二") == "213-2"
    assert article_id("３", "２") == "3-2"
    with pytest.raises(ValueError):
        kanji_to_int("百a")


def questions(text):
    return [(q.query_id, q.label, q.articles) for q in parse_riteval(text, "exam.xml")]


def test_header_styles_of_h18_to_r01():
    assert questions(H30) == [
        ("H30-1-A", "Y", ("566", "567")),  # "(Caption)Article 566 (1)..." and "Article 567(1)"
        ("H30-1-I", "N", ("572",)),  # "Article 572" alone on its line
        ("H30-2-U", "Y", ("1",)),  # the same article twice counts once
    ]
    h30 = parse_riteval(H30, "exam.xml")
    assert h30[2].text == 'Is it a "quoted" question’s text?'  # entities and curly apostrophes
    assert h30[0].articles_text.startswith("(Seller's Warranty)Article 566 (1)")


def test_r01_single_quotes_standalone_and_id_mix():
    assert questions(R01) == [("R01-1-A", "Y", ("3",)), ("R1-13-A", "N", ("2",))]
    assert all(QUESTION_ID.match(q) for q, _, _ in questions(R01))


def test_header_styles_of_r02_to_r05():
    assert questions(R03) == [("R03-01-E", "N", ("537", "566"))]  # "Article 537(1)": no space
    assert questions(R04) == [
        ("R04-02-O", "Y", ("459-2", "398-22")),  # caption lines before headers; "459-2(1)"
        ("R04-03-G", "N", ("572",)),  # t1 holding part of an article
    ]


def test_unlabelled_test_file():
    assert questions(R05_UNLABELLED) == [("R05-01-A", "", ()), ("R05-01-I", "", ())]


def test_japanese_headers_and_references():
    assert questions(R04_JA) == [("R04-02-O", "Y", ("459-2", "398-22")), ("R04-03-G", "N", ("1",))]


def test_article_elements_are_the_gold_when_present():
    text = riteval(
        '<pair id="R06-01-A" label="Y"><t2>q</t2><article>566</article><article>3-2</article>'
        "<article>566</article></pair>\n"
    )
    assert questions(text) == [("R06-01-A", "Y", ("566", "3-2"))]


def test_gold_articles_ignores_lines_not_starting_with_a_header():
    assert gold_articles("See Article 5.\n(2) Article 7 applies\nArticle 9-3  Text") == ("9-3",)


@pytest.mark.parametrize(
    "text, line, problem",
    [
        ('<dataset>\n<pair id="a">\n<t2>q</t2>\n</dataset>', 4, "malformed XML"),
        (riteval('<pair id="H30-1-A" label="X"><t2>q</t2></pair>\n'), 3, "has label 'X'"),
        ('<!DOCTYPE d [\n<!ENTITY a "aaaa">\n]>\n<dataset/>', 2, "declares entities"),
        ("<dataset>\n</dataset>", None, "no <pair> element"),
    ],
)
def test_malformed_exam_files(text, line, problem):
    with pytest.raises(ColieeFormatError) as info:
        parse_riteval(text, "exam.xml")
    assert (info.value.path, info.value.line) == ("exam.xml", line)
    assert problem in str(info.value)
