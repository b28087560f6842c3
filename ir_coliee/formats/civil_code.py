"""The Civil Code text files of the statute tasks (COLIEE-SPEC section 4), English and Japanese.

Line kinds, in order of the file: a title line; headings (Part, Chapter, Section, Subsection,
Division / 編 章 節 款 目); caption lines wholly in parentheses, which belong to the **next**
article; article starts (``Article 3-2  text`` / ``第三条の二　text``); continuation lines; and
deletions (``Article 208  Deleted``, ``Articles 38 to 84  Deleted`` / ``削除``), which are not documents.
"""

import re
from collections.abc import Iterator
from typing import NamedTuple, Optional

from ir_coliee.formats.numerals import JAPANESE_ARTICLE, KANJI_NUMBER, article_id


class ColieeArticle(NamedTuple):
    """A Civil Code article, the document of COLIEE Tasks 3 and 4."""

    doc_id: str
    """The article number as written in runs and gold: ``"566"``, ``"3-2"``, ``"724-2"``."""
    text: str
    """The article's text: its header line (``Article 566  ...``) and every paragraph, one per line."""
    caption: str
    """The caption of the article, without its parentheses (``"Fundamental Principles"``); may be empty."""
    path: str
    """The headings above the article, outermost first, joined by ``" > "`` (Part > Chapter > Section ...)."""

    def default_text(self) -> str:
        """Caption and text, as a retrieval system should see the article."""
        return f"{self.caption}\n{self.text}" if self.caption else self.text


_EN_ARTICLE = re.compile(r"^Article\s+(\d+)(?:-(\d+))?(?![\d-])\s*(.*)$")
_EN_RANGE = re.compile(r"^Articles\s+\d+(?:-\d+)?\s+(?:to|through|and)\s+\d+(?:-\d+)?\b")
_EN_HEADING = re.compile(r"^(Part|Chapter|Section|Subsection|Division)\s+([IVXLC]+|\d+)\b")
#: The heading levels, outermost first (the e-Gov XML names its elements so too).
HEADING_LEVELS = ("Part", "Chapter", "Section", "Subsection", "Division")
_JA_HEADING = re.compile(rf"^第{KANJI_NUMBER}(編|章|節|款|目)")
_JA_LEVELS = ("編", "章", "節", "款", "目")
_JA_RANGE = re.compile(rf"^第{KANJI_NUMBER}条(?:の{KANJI_NUMBER})?(から|及び)")
# A caption holds no nested parentheses; paragraph items such as "(i) ..." or "(2) ..." do not
# stand alone in parentheses, so they never match.
_CAPTION = re.compile(r"^[(（]([^()（）]+)[)）]$")
_DELETED = ("Deleted", "削除")


def _heading_level(line: str) -> Optional[int]:
    m = _EN_HEADING.match(line)
    if m:
        return HEADING_LEVELS.index(m.group(1))
    m = _JA_HEADING.match(line)
    return _JA_LEVELS.index(m.group(1)) if m else None


def _article_start(line: str):
    """(id, rest of the line) when the line starts an article, else ``None``."""
    m = _EN_ARTICLE.match(line)
    if m:
        return article_id(m.group(1), m.group(2) or ""), m.group(3)
    m = JAPANESE_ARTICLE.match(line)
    if m and (len(line) == m.end() or line[m.end()] in " \u3000\t"):
        return article_id(m.group(1), m.group(2) or ""), line[m.end() :].strip()
    return None


def parse_civil_code(text: str) -> Iterator[ColieeArticle]:
    """The articles of a Civil Code file's text (BOM already removed), in file order."""
    headings: list[str] = []
    caption = ""
    current: Optional[ColieeArticle] = None  # the article being read; its text is ``lines``
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        level = _heading_level(line)
        if level is not None:
            headings = [*headings[:level], line]
            continue
        m = _CAPTION.match(line)
        if m:
            if caption and current is not None:  # two captions in a row: the first was article text
                lines.append(f"({caption})")
            caption = m.group(1).strip()
            continue
        start = _article_start(line)
        if start is not None or _EN_RANGE.match(line) or _JA_RANGE.match(line):
            if current is not None:
                yield current._replace(text="\n".join(lines))
            current, lines = None, [line]
            if start is not None and start[1] not in _DELETED:
                current = ColieeArticle(start[0], "", caption, " > ".join(headings))
            caption = ""
            continue
        if current is not None:
            if caption:  # a "caption" followed by text rather than an article was a line of text
                lines.append(f"({caption})")
                caption = ""
            lines.append(line)
    if current is not None:
        yield current._replace(text="\n".join(lines))
