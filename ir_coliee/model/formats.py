"""The official submission formats (COLIEE-SPEC section 5), as data.

One :class:`RunFormat` per format says where each field sits on a line; the fast reader, the checked
reader, the validator and the writer all read these records, so a new format is one entry here.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional

FormatName = Literal["pairs", "trec", "answers"]

#: The answers of Tasks 4 and 5 (and the tort pilot's decisions, written ``True``/``False``).
ANSWER_LABELS = ("Y", "N")
#: Second columns that mean "this line is an answer", though not an official one: read as answers so
#: that the reader names the line (``y``, ``True``) instead of scoring them as document ids.
ANSWER_LIKE = frozenset({"y", "n", "yes", "no", "true", "false"})
#: ``task3-L`` files may open with a ``/* ... */`` comment.
COMMENT_OPEN, COMMENT_CLOSE = "/*", "*/"


class RunFormat(NamedTuple):
    """Where the fields of one submission format sit on a line (0-based columns)."""

    name: FormatName
    columns: tuple[str, ...]
    """The column names, in order, as the official pages write them."""
    query: int
    doc: int
    """The document column (for answers: the Y/N answer)."""
    score: Optional[int]
    """The score column, ``None`` when line order is the ranking."""
    tag: int
    rank: Optional[int] = None
    """The rank column, where the format has one."""
    labels: tuple[str, ...] = ()
    """The values the doc column may take (answers: ``Y``, ``N``); empty for any document id."""
    fixed: tuple[tuple[int, str], ...] = ()
    """Columns holding a constant (TREC's ``Q0``)."""
    tag_optional: bool = False
    """Experiment files often omit the tag of an answer line (``R02-1-A N``): scored with a warning, but
    no official submission (:meth:`official`, the validator's)."""
    example: str = ""

    @property
    def width(self) -> int:
        return len(self.columns)

    def widths(self) -> tuple[int, ...]:
        """Column counts a line may have."""
        return (self.width - 1, self.width) if self.tag_optional else (self.width,)

    @property
    def scored(self) -> bool:
        """Whether lines carry a score (else the ranking is the line order)."""
        return self.score is not None

    @property
    def strips_txt(self) -> bool:
        """Case and paragraph ids may carry ``.txt``; answers never do."""
        return not self.labels

    def official(self) -> RunFormat:
        """The format as a submission must follow it (the validator's): every line ends with its tag."""
        return self._replace(tag_optional=False)

    def expected(self) -> str:
        """What a line looks like, for error messages: ``3 columns 'query_id doc_id run_tag'`` (the rule
        :meth:`widths` applies)."""
        optional = (
            " (run_tag optional when scored; a submission needs it)" if self.tag_optional else ""
        )
        return f"{self.width} columns '{' '.join(self.columns)}'{optional}"


_PAIRS = RunFormat(
    "pairs",
    ("query_id", "doc_id", "run_tag"),
    query=0,
    doc=1,
    score=None,
    tag=2,
    example="000001 000018 univABC",
)
FORMATS: dict[FormatName, RunFormat] = {
    "pairs": _PAIRS,
    "trec": RunFormat(
        "trec",
        ("query_id", "Q0", "doc_id", "rank", "score", "run_tag"),
        query=0,
        doc=2,
        score=4,
        tag=5,
        rank=3,
        fixed=((1, "Q0"),),
        example="H19-1-3 Q0 96 1 0.84 univABC",
    ),
    # the pairs' columns, the document's holding a label
    "answers": _PAIRS._replace(
        name="answers",
        columns=("query_id", "Y|N", "run_tag"),
        labels=ANSWER_LABELS,
        tag_optional=True,
        example="H19-1-3 N univABC",
    ),
}


def expected_any(names: tuple[FormatName, ...] = tuple(FORMATS), official: bool = False) -> str:
    """The lines the given formats take (``official``: in a submission), for error messages."""
    formats = (FORMATS[n].official() if official else FORMATS[n] for n in names)
    return " or ".join(f.expected() for f in formats)


def sniff(
    parts: list[str], allowed: tuple[FormatName, ...] = tuple(FORMATS)
) -> Optional[FormatName]:
    """The format among ``allowed`` that one line's fields fit best, ``None`` when none does.

    A second column that reads as an answer (``Y``, ``n``, ``True``) makes the line an answer line, so
    that a wrongly written answer is reported rather than read as a document id.
    """
    looks_like_answer = len(parts) >= 2 and parts[1].lower() in ANSWER_LIKE
    for name in allowed:
        fmt = FORMATS[name]
        if len(parts) in fmt.widths() and (
            bool(fmt.labels) == looks_like_answer or len(allowed) == 1
        ):
            return name
    return None
