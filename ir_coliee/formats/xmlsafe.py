"""XML from users, parsed without entity declarations (no external entities, no expansion bombs)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Optional, cast

from ir_coliee.errors import ColieeFormatError, PathLike


def line_of(text: str, needle: str):
    """The line where ``needle`` first appears (``None`` if nowhere), to point errors at it."""
    pos = text.find(needle)
    return None if pos < 0 else text.count("\n", 0, pos) + 1


#: The deepest nesting read: an e-Gov law is about 15 elements deep; a file nested thousands deep would make
#: every recursive walk of its tree fail.
MAX_DEPTH = 200


def parse_xml(text: str, source: PathLike, expected: str) -> ET.Element:
    """The root element; a :class:`ColieeFormatError` naming ``source`` and the line otherwise (malformed,
    entities declared, or nested deeper than :data:`MAX_DEPTH`)."""
    # no COLIEE file declares entities; refusing them rules out expansion bombs
    if "<!ENTITY" in text:
        raise ColieeFormatError(
            source, line_of(text, "<!ENTITY"), "the XML declares entities", expected
        )
    parser: ET.XMLPullParser = ET.XMLPullParser(events=("start", "end"))
    depth, chunk = 0, 1 << 16
    root: Optional[ET.Element] = None
    try:
        for at in range(0, len(text), chunk):
            parser.feed(text[at : at + chunk])
            for item in parser.read_events():
                event, element = cast("tuple[str, ET.Element]", item)
                if root is None:
                    root = element
                depth += 1 if event == "start" else -1
                if depth > MAX_DEPTH:
                    line = text.count("\n", 0, at) + 1
                    raise ColieeFormatError(
                        source,
                        line,
                        f"XML nested more than {MAX_DEPTH} elements deep (near this line)",
                        expected,
                    )
        parser.close()
    except ET.ParseError as e:
        raise ColieeFormatError(source, e.position[0], f"malformed XML ({e})", expected) from None
    if root is None:
        raise ColieeFormatError(source, None, "no XML element", expected)
    return root
