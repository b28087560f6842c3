"""The Japanese Civil Code as XML (COLIEE-SPEC section 4): the organisers' ``civil.xml`` and the e-Gov law XML.

COLIEE 2026 ships Japanese statute data only, and no Civil Code text: its ``makeData.sh`` downloads the
e-Gov law XML of the Civil Code (``129AC0000000089_..._xml.zip``) and builds ``civil.xml`` from it:

* ``civil.xml``: ``<Articles><Article num="3-2"><caption>（…）</caption><text>第三条の二　…</text></Article>``;
  ranges ``num="38:84"`` and single articles whose text is 削除 (deleted) are not documents.
* e-Gov: ``<Law><LawBody><MainProvision><Part><PartTitle>…<Chapter>…<Article Num="3_2">
  <ArticleCaption>（…）</ArticleCaption><ArticleTitle>第三条の二</ArticleTitle><Paragraph><ParagraphNum/>
  <ParagraphSentence><Sentence>…``; ``Num`` writes ``_`` where COLIEE ids write ``-``; the whole code
  (to article 1050) where COLIEE uses Parts I-III (to 724-2).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Optional

from ir_coliee.errors import ColieeFormatError, PathLike
from ir_coliee.formats.civil_code import HEADING_LEVELS, ColieeArticle
from ir_coliee.formats.numerals import JAPANESE_ARTICLE
from ir_coliee.formats.xmlsafe import parse_xml

DELETED = "削除"
#: The last article of Parts I-III, the part of the Civil Code COLIEE uses.
LAST_ARTICLE = (724, 2)
_CIVIL_EXPECTED = (
    '<Articles><Article num="..."><caption>...</caption><text>...</text></Article>...</Articles>'
)
_EGOV_EXPECTED = "an e-Gov law XML file: <Law><LawBody><MainProvision>...<Article Num=...>"
_ID = re.compile(r"^(\d+)(?:[-_](\d+))?$")
_PARENS = "()（）"


def _key(article: str) -> Optional[tuple[int, int]]:
    """``(724, 2)`` for ``724-2`` or ``724_2``; ``None`` for a range (``38:84``) or anything else."""
    m = _ID.match(article.strip())
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def _doc_id(key: tuple[int, int]) -> str:
    return f"{key[0]}-{key[1]}" if key[1] else str(key[0])


def _caption(text: Optional[str]) -> str:
    return (text or "").strip().strip(_PARENS).strip()


def _body(text: str) -> str:
    """The text after the article's own header (``第三条の二　``)."""
    m = JAPANESE_ARTICLE.match(text)
    return text[m.end() :].strip() if m else text.strip()


def parse_civil_xml(text: str, source: PathLike) -> Iterator[ColieeArticle]:
    """The live articles of the organisers' ``civil.xml``, in file order."""
    root = parse_xml(text, source, _CIVIL_EXPECTED)
    for article in root.iter("Article"):
        key = _key(article.get("num") or "")
        body = (article.findtext("text") or "").strip()
        if key is None or _body(body) == DELETED:
            continue
        yield ColieeArticle(_doc_id(key), body, _caption(article.findtext("caption")), "")


def _sentences(element: Optional[ET.Element]) -> str:
    """The text of a ``...Sentence`` element: its sentences run on; columns are separated by a space."""
    if element is None:
        return ""
    columns = element.findall("Column")
    if columns:
        return "　".join("".join(c.itertext()).strip() for c in columns)
    return "".join("".join(s.itertext()) for s in element.iter("Sentence")).strip()


def _item_lines(parent: ET.Element) -> Iterator[str]:
    """Items (号) and their sub-items, one per line: ``一　text``."""
    for child in parent:
        item = child.tag.startswith(("Item", "Subitem"))
        if item and not child.tag.endswith(("Title", "Sentence")):
            title = (child.findtext(f"{child.tag}Title") or "").strip()
            yield f"{title}　{_sentences(child.find(f'{child.tag}Sentence'))}".strip()
            yield from _item_lines(child)


def _egov_text(article: ET.Element) -> str:
    lines = []
    title = (article.findtext("ArticleTitle") or "").strip()
    for n, paragraph in enumerate(article.findall("Paragraph")):
        head = title if n == 0 else (paragraph.findtext("ParagraphNum") or "").strip()
        lines.append(f"{head}　{_sentences(paragraph.find('ParagraphSentence'))}".strip())
        lines.extend(_item_lines(paragraph))
    return "\n".join(lines)


def _egov_articles(element: ET.Element, path: list[str]) -> Iterator[tuple[ET.Element, str]]:
    for child in element:
        if child.tag == "Article":
            yield child, " > ".join(path)
        # e-Gov names them as the English files do; <PartTitle> holds the title
        elif child.tag in HEADING_LEVELS:
            title = (child.findtext(f"{child.tag}Title") or "").strip()
            yield from _egov_articles(child, [*path, title])


def parse_egov_law(text: str, source: PathLike) -> Iterator[ColieeArticle]:
    """The live articles of the e-Gov law XML up to :data:`LAST_ARTICLE` (Parts I-III: 724-2), main provisions
    only."""
    main = parse_xml(text, source, _EGOV_EXPECTED).find("LawBody/MainProvision")
    if main is None:
        raise ColieeFormatError(source, None, "no <LawBody><MainProvision>", _EGOV_EXPECTED)
    for article, path in _egov_articles(main, []):
        key = _key(article.get("Num") or "")
        if key is None or key > LAST_ARTICLE:
            continue
        body = _egov_text(article)
        if article.get("Delete") == "true" or _body(body) == DELETED:
            continue
        yield ColieeArticle(_doc_id(key), body, _caption(article.findtext("ArticleCaption")), path)
