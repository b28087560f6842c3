"""XML from users, parsed without entity declarations (no external entities, no expansion bombs)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ir_coliee.errors import ColieeFormatError, PathLike


def line_of(text: str, needle: str):
    """The line where ``needle`` first appears (``None`` if nowhere), to point errors at it."""
    pos = text.find(needle)
    return None if pos < 0 else text.count("\n", 0, pos) + 1


def parse_xml(text: str, source: PathLike, expected: str) -> ET.Element:
    """The root element; a :class:`ColieeFormatError` naming ``source`` and the line otherwise."""
    if "<!ENTITY" in text:  # no COLIEE file declares entities; refusing them rules out expansion bombs
        raise ColieeFormatError(source, line_of(text, "<!ENTITY"), "the XML declares entities", expected)
    try:
        return ET.fromstring(text)
    except ET.ParseError as e:
        raise ColieeFormatError(source, e.position[0], f"malformed XML ({e})", expected) from None
