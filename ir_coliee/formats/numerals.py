"""Article numbers written in kanji (第二百十三条の二) as the ids the English files use (213-2)."""

from __future__ import annotations

import re

_DIGITS = {"〇": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
KANJI_NUMBER = "[〇一二三四五六七八九十百千]+"
#: Full-width digits as in ``第２条`` or paragraph numbers ``２``.
_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")


def kanji_to_int(text: str) -> int:
    """``二百十三`` -> 213, ``千四十四`` -> 1044, ``十一`` -> 11; raises ``ValueError`` otherwise."""
    if not text or any(c not in _DIGITS and c not in _UNITS for c in text):
        raise ValueError(f"not a kanji number: {text!r}")
    total = 0
    digit = None
    for c in text:
        if c in _DIGITS:  # positional digits (e.g. 二〇) read as a decimal string
            digit = (digit or 0) * 10 + _DIGITS[c]
        else:
            total += (1 if digit is None else digit) * _UNITS[c]
            digit = None
    return total + (digit or 0)


def article_id(main: str, branch: str = "") -> str:
    """The article id from its number and optional branch number, in digits or kanji: ``213-2``."""
    main_number = _number(main)
    return f"{main_number}-{_number(branch)}" if branch else str(main_number)


def _number(text: str) -> int:
    text = text.translate(_FULL_WIDTH)
    return int(text) if text.isdigit() else kanji_to_int(text)


JAPANESE_ARTICLE = re.compile(
    rf"^第({KANJI_NUMBER}|[0-9０-９]+)条(?:の({KANJI_NUMBER}|[0-9０-９]+))?"
)
