"""The riteval XML exam files of the statute tasks (COLIEE-SPEC section 4).

``<dataset><pair id="H19-1-3" label="N"><t1>articles</t1><t2>question</t2></pair>...``: ``t2`` is
the question, ``label`` the Task 4 answer (absent in test files), and the Task 3 gold is the set of
articles whose headers appear in ``t1``, or one ``<article>`` element each: ``<article>11</article>`` in
2026's ``simple/`` files, ``<t1><article id="572"/></t1>`` in 2017 and older files.
"""

import os
import re
import warnings
from typing import NamedTuple
from xml.etree import ElementTree as ET

from ir_coliee.errors import ColieeFormatError, ColieeWarning, PathLike
from ir_coliee.formats.numerals import JAPANESE_ARTICLE, article_id
from ir_coliee.formats.xmlsafe import line_of, parse_xml
from ir_coliee.model import ANSWER_LABELS

_EXPECTED = (
    "a riteval file: <dataset><pair id=... [label=Y|N]><t1>...</t1><t2>...</t2></pair>...</dataset>"
)
# "(Caption)Article 566 (1)...", "Article 537(1)...", "Article 459-2(1)", "Article 15 (1) The ..."
# (a caption, but not a paragraph or item number such as "(2)" or "(iv)")
_EN_HEADER = re.compile(
    r"^(?:[(（](?!(?:\d+|[ivxlcdm]+)[)）])[^()（）]*[)）]\s*)?Article\s*(\d+)(?:-(\d+))?(?![\d-])"
)
_JA_CAPTION = re.compile(r"^[(（][^()（）]*[)）]\s*")


class ColieeStatuteQuestion(NamedTuple):
    """A bar-exam question with everything the riteval file says about it."""

    query_id: str
    """The question id exactly as in the file (runs echo it): ``H30-1-A``, ``R1-13-A``, ``R03-01-E``."""
    text: str
    """The question (``t2``)."""
    label: str
    """The Task 4 answer, ``Y`` or ``N``; empty in unlabelled (test) files."""
    articles_text: str
    """The relevant articles' text as given in ``t1``; empty in test files."""
    articles: tuple[str, ...]
    """Ids of the relevant articles (the Task 3 gold), in order of appearance, without duplicates."""

    def default_text(self) -> str:
        """The question."""
        return self.text


def gold_articles(t1: str) -> tuple[str, ...]:
    """Article ids whose headers start a line of ``t1``, in order, deduplicated."""
    found: dict[str, None] = {}
    for raw in t1.splitlines():
        line = raw.strip()
        m = _EN_HEADER.match(line)
        if m:
            found.setdefault(article_id(m.group(1), m.group(2) or ""), None)
            continue
        line = _JA_CAPTION.sub("", line)
        m = JAPANESE_ARTICLE.match(line)
        # a header is followed by a space or the end of line; "第百条の規定は" is a reference
        if m and (len(line) == m.end() or line[m.end()] in " \u3000\t"):
            found.setdefault(article_id(m.group(1), m.group(2) or ""), None)
    return tuple(found)


def _listed_articles(pair: ET.Element, qid: str, text: str, source: PathLike) -> tuple[str, ...]:
    """The gold articles a pair lists, one ``<article>`` each: its text (2026's simple files) or its
    id attribute (2017 and older); ``()`` where it lists none (the gold is then read from ``t1``)."""
    named = [(a.get("id") or a.text or "").strip() for a in pair.iter("article")]
    try:
        # 3-2: (3, 2)
        return tuple(dict.fromkeys(article_id(*n.partition("-")[::2]) for n in named if n))
    except ValueError as e:
        where = line_of(text, f'"{qid}"') or line_of(text, f"'{qid}'")
        raise ColieeFormatError(
            source,
            where,
            f"question {qid!r}: an <article> that is no article number ({e})",
            "<article>566</article> or <article>3-2</article>",
        ) from None


def _question(pair: ET.Element, text: str, source: PathLike) -> ColieeStatuteQuestion:
    qid = (pair.get("id") or "").strip()
    if not qid:
        raise ColieeFormatError(source, None, "a <pair> has no id", _EXPECTED)
    label = (pair.get("label") or "").strip()
    if label and label not in ANSWER_LABELS:
        raise ColieeFormatError(
            source,
            line_of(text, f'"{qid}"'),
            f"question {qid!r} has label {label!r}",
            "label Y or N",
        )
    t1 = "".join(pair.findtext("t1") or "").strip()
    t2 = (pair.findtext("t2") or "").strip()
    listed = _listed_articles(pair, qid, text, source)
    return ColieeStatuteQuestion(qid, t2, label, t1, listed or gold_articles(t1))


def parse_riteval(text: str, source: PathLike) -> list[ColieeStatuteQuestion]:
    """The questions of a riteval file's text; ``source`` names the file in errors.

    A question given twice is read as its last ``<pair>`` (at the place of its first), as label JSON reads a
    repeated key, and said in a :class:`ColieeWarning` naming the ids: two pairs never merge their gold."""
    root = parse_xml(text, source, _EXPECTED)
    questions: dict[str, ColieeStatuteQuestion] = {}
    repeated: dict[str, bool] = {}
    for pair in root.iter("pair"):
        question = _question(pair, text, source)
        qid = question.query_id
        if qid in questions:
            repeated[qid] = repeated.get(qid, False) or questions[qid] != question
        questions[qid] = question
    if not questions:
        raise ColieeFormatError(source, None, "no <pair> element", _EXPECTED)
    if repeated:
        differ = sum(repeated.values())
        warnings.warn(
            f"{os.fspath(source)}: {len(repeated)} questions given more than once ({differ} with another label, "
            f"text or articles): {', '.join(repeated)}; each read as its last <pair>",
            ColieeWarning,
            stacklevel=2,
        )
    return list(questions.values())
