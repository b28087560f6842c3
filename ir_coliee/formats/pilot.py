"""The Japanese tort pilot's JSONL ``Tort`` records (COLIEE-SPEC sections 1, 5): reading, writing, nulls.

One JSON object per line: ``version``, ``tort_id``, ``undisputed_facts[{id, description}]``,
``plaintiff_claims[{id, description, is_accepted}]``, ``defendant_claims[...]``, ``court_decision``.
Inputs carry ``null`` where systems must answer; a submission must replace every one with a boolean.
"""

import json
import os
from collections.abc import Iterable, Iterator
from typing import NamedTuple, Optional, Union

from ir_measures import Qrel, ScoredDoc

from ir_coliee.errors import ColieeFormatError, PathLike
from ir_coliee.formats.textfile import Input, atomic_output, json_lines, stream_name

Id = Union[str, int]
SIDES = ("plaintiff", "defendant")
_EXPECTED = (
    'one JSON object per line: {"tort_id": ..., "undisputed_facts": [{"id", "description"}], '
    '"plaintiff_claims": [{"id", "description", "is_accepted"}], "defendant_claims": [...], '
    '"court_decision": true|false|null}'
)


class ColieeFact(NamedTuple):
    """An undisputed fact of a tort case."""

    id: Id
    """The fact id as in the file."""
    description: str
    """The fact (Japanese)."""


class ColieeClaim(NamedTuple):
    """A claim of one party."""

    id: Id
    """The claim id as in the file (unique within its side)."""
    description: str
    """The claim (Japanese)."""
    is_accepted: Optional[bool]
    """Whether the court accepted the claim; ``None`` in inputs, to be predicted."""


class ColieeTort(NamedTuple):
    """A tort case of the pilot task."""

    tort_id: Id
    """The case id as in the file (submissions echo it)."""
    version: object
    """The ``version`` field as in the file (``None`` when absent)."""
    undisputed_facts: tuple[ColieeFact, ...]
    """The undisputed facts, in file order."""
    plaintiff_claims: tuple[ColieeClaim, ...]
    """The plaintiff's claims."""
    defendant_claims: tuple[ColieeClaim, ...]
    """The defendant's claims."""
    court_decision: Optional[bool]
    """Whether the court found the tort (True) or not; ``None`` in inputs, to be predicted."""

    def default_text(self) -> str:
        """The undisputed facts, one per line."""
        return "\n".join(f.description for f in self.undisputed_facts)

    def claims(self) -> Iterator[tuple[str, ColieeClaim]]:
        """``(side, claim)`` for every claim, plaintiff's first."""
        for side in SIDES:
            for claim in getattr(self, f"{side}_claims"):
                yield side, claim


class Null(NamedTuple):
    """A value a submission left ``null``: its sub-task is disqualified."""

    subtask: str
    """``tort prediction`` (court_decision) or ``rationale extraction`` (is_accepted)."""
    tort_id: Id
    side: str
    """``plaintiff`` or ``defendant`` for a claim; empty for the decision."""
    claim_id: Optional[Id]

    def where(self) -> str:
        """``tort 'T1'`` or ``tort 'T1', plaintiff claim 'p1'``."""
        claim = f", {self.side} claim {self.claim_id!r}" if self.side else ""
        return f"tort {self.tort_id!r}{claim}"


TORT_PREDICTION = "tort prediction"
RATIONALE_EXTRACTION = "rationale extraction"


def _fail(source: PathLike, line: int, problem: str) -> ColieeFormatError:
    return ColieeFormatError(source, line, problem, _EXPECTED)


def _id(value: object, what: str, source: PathLike, line: int) -> Id:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _fail(source, line, f"{what} is {value!r}, not a string or whole number")
    return value


def _text(obj: dict, what: str, source: PathLike, line: int) -> str:
    value = obj.get("description")
    if not isinstance(value, str):
        raise _fail(source, line, f"{what} has description {value!r}, not a string")
    return value


def _flag(obj: dict, key: str, what: str, source: PathLike, line: int) -> Optional[bool]:
    if key not in obj:
        raise _fail(source, line, f"{what} has no {key!r}")
    value = obj[key]
    if value is not None and not isinstance(value, bool):
        raise _fail(source, line, f"{what} has {key} {value!r}, not true, false or null")
    return value


def _objects(obj: dict, key: str, source: PathLike, line: int) -> list:
    value = obj.get(key)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise _fail(source, line, f"{key!r} is {value!r}, not a list of objects")
    return value


def _claims(obj: dict, side: str, tort: Id, source: PathLike, line: int) -> tuple[ColieeClaim, ...]:
    claims = []
    for raw in _objects(obj, f"{side}_claims", source, line):
        claim_id = _id(raw.get("id"), f"a {side} claim id of tort {tort!r}", source, line)
        what = f"{side} claim {claim_id!r} of tort {tort!r}"
        text = _text(raw, what, source, line)
        claims.append(ColieeClaim(claim_id, text, _flag(raw, "is_accepted", what, source, line)))
    ids = [str(c.id) for c in claims]
    if len(set(ids)) != len(ids):
        raise _fail(source, line, f"tort {tort!r} has two {side} claims with the same id")
    return tuple(claims)


def _tort(obj: object, source: PathLike, line: int) -> ColieeTort:
    if not isinstance(obj, dict):
        raise _fail(source, line, f"a JSON {type(obj).__name__}")
    tort = _id(obj.get("tort_id"), "tort_id", source, line)
    facts = tuple(
        ColieeFact(
            _id(f.get("id"), f"a fact id of tort {tort!r}", source, line),
            _text(f, "a fact", source, line),
        )
        for f in _objects(obj, "undisputed_facts", source, line)
    )
    decision = _flag(obj, "court_decision", f"tort {tort!r}", source, line)
    plaintiff = _claims(obj, "plaintiff", tort, source, line)
    defendant = _claims(obj, "defendant", tort, source, line)
    return ColieeTort(tort, obj.get("version"), facts, plaintiff, defendant, decision)


def parse_torts(values: Iterable[tuple[int, object]], source: PathLike) -> list[ColieeTort]:
    """Torts from ``(line number, JSON value)`` pairs (those of :func:`json_lines`); tort ids must be
    unique."""
    torts: list[ColieeTort] = []
    seen: dict[str, int] = {}
    for lineno, obj in values:
        tort = _tort(obj, source, lineno)
        key = str(tort.tort_id)
        if key in seen:
            raise _fail(source, lineno, f"tort {tort.tort_id!r} again (first on line {seen[key]})")
        seen[key] = lineno
        torts.append(tort)
    if not torts:
        raise ColieeFormatError(source, None, "the file holds no tort", _EXPECTED)
    return torts


def read_torts(path: Input) -> list[ColieeTort]:
    """The torts of a pilot JSONL file (input, gold or submission), or of an open file."""
    return parse_torts(json_lines(path, _EXPECTED), stream_name(path))


def write_torts(torts: Iterable[ColieeTort], path: PathLike) -> str:
    """Write torts as a JSONL submission (UTF-8, Japanese unescaped); returns the path."""
    lines = []
    for tort in torts:
        # the official object: the records' fields are the keys
        out: dict = {} if tort.version is None else {"version": tort.version}
        out["tort_id"] = tort.tort_id
        for key in ("undisputed_facts", "plaintiff_claims", "defendant_claims"):
            out[key] = [record._asdict() for record in getattr(tort, key)]
        out["court_decision"] = tort.court_decision
        lines.append(json.dumps(out, ensure_ascii=False) + "\n")
    with atomic_output(path) as f:  # a kill or a full disk leaves the old file whole
        f.writelines(lines)
    return os.fspath(path)


def remaining_nulls(torts: Iterable[ColieeTort]) -> list[Null]:
    """Every value still ``null``: in a submission, each disqualifies its sub-task."""
    nulls = []
    for tort in torts:
        if tort.court_decision is None:
            nulls.append(Null(TORT_PREDICTION, tort.tort_id, "", None))
        for side, claim in tort.claims():
            if claim.is_accepted is None:
                nulls.append(Null(RATIONALE_EXTRACTION, tort.tort_id, side, claim.id))
    return nulls


# --- the scoring encoding: decisions as Y/N-style answers, claims as documents ----------------------


def claim_doc_id(tort_id: object, side: str, claim_id: object) -> str:
    """The id of a claim as a document: ``{tort}/{side}/{claim}``."""
    return f"{tort_id}/{side}/{claim_id}"


def _decided(torts: Iterable[ColieeTort]) -> list[tuple[str, str]]:
    """``(tort, "True"|"False")`` of each tort with a decision (torts without one left out)."""
    return [(str(t.tort_id), str(t.court_decision)) for t in torts if t.court_decision is not None]


def decision_qrels(torts: Iterable[ColieeTort]) -> list[Qrel]:
    """Gold decisions in the ``AnswerAccuracy`` encoding, ``True`` or ``False``."""
    return [Qrel(q, decision, 1) for q, decision in _decided(torts)]


def decision_run(torts: Iterable[ColieeTort]) -> list[ScoredDoc]:
    """Predicted decisions as an answer run."""
    return [ScoredDoc(q, decision, 1.0) for q, decision in _decided(torts)]


def _judged(torts: Iterable[ColieeTort], side: Optional[str]) -> list[tuple[str, str, bool]]:
    """``(tort, claim doc id, is_accepted)`` of each claim of ``side`` (``None``: both) with a value."""
    return [
        (str(t.tort_id), claim_doc_id(t.tort_id, s, c.id), c.is_accepted)
        for t in torts
        for s, c in t.claims()
        if c.is_accepted is not None and side in (None, s)
    ]


def claim_qrels(torts: Iterable[ColieeTort], side: Optional[str] = None) -> list[Qrel]:
    """Every judged claim: relevance 1 if accepted, 0 if not (so each tort with claims is a query)."""
    return [Qrel(q, doc, int(accepted)) for q, doc, accepted in _judged(torts, side)]


def claim_run(torts: Iterable[ColieeTort], side: Optional[str] = None) -> list[ScoredDoc]:
    """The claims predicted True, as a run."""
    return [ScoredDoc(q, doc, 1.0) for q, doc, accepted in _judged(torts, side) if accepted]
