"""The Japanese tort pilot (2025, 2026) as ir_datasets entries.

The organisers' file names are not documented; the pilot's JSONL files are found as ``*.jsonl`` files
whose path names the pilot (``pilot`` or ``tort``), the split (``train`` / ``test``) and the edition
(a folder or file named with the year). The edition's own files win for inputs; gold comes from the
first copy with every ``court_decision`` filled in.

* ``coliee/pilot/{Y}/{split}``: queries are the torts (text: the undisputed facts); documents are
  the claims, ``{tort}/{side}/{claim}``; qrels are the claims, relevance 1 when accepted, else 0.
* ``coliee/pilot/{Y}/{split}/decisions``: the same torts, qrels the gold decisions in the
  ``AnswerAccuracy`` encoding ``(tort, "True"|"False", 1)``.
"""

import functools
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import NamedTuple, cast

from ir_datasets.datasets.base import Dataset

from ir_coliee.data.catalog import Registered, catalog
from ir_coliee.data.datasets.common import Docs, Documentation, Qrels, Queries, TextQuery, register
from ir_coliee.data.pilot_files import PilotFiles, PilotSet
from ir_coliee.formats.pilot import ColieeTort, claim_doc_id
from ir_coliee.model import NAME

QREL_DEFS_CLAIMS = {1: "Accepted: the court accepted the claim.", 0: "Not accepted by the court."}
QREL_DEFS_DECISIONS = {1: "The court decision: doc_id True (the tort is found) or False."}


class ColieeTortQuery(TextQuery):
    """A tort case as a query: its tort id, and the undisputed facts, one per line."""


class ColieeClaimDoc(NamedTuple):
    """A claim of a tort case as a document."""

    doc_id: str
    """``{tort}/{side}/{claim}``: unique, and maps back to the tort, the side and the claim id."""
    tort_id: str
    """The tort the claim belongs to."""
    side: str
    """``plaintiff`` or ``defendant``."""
    claim_id: str
    """The claim id as in the file."""
    text: str
    """The claim's description."""

    def default_text(self) -> str:
        """The claim's description."""
        return self.text


def _lazily(records: Callable[[], list[ColieeTort]]) -> Iterator[ColieeTort]:
    """``records()``, read when the iteration starts."""
    yield from records()


def _tort_queries(files: PilotFiles) -> Iterator[ColieeTortQuery]:
    for t in files.input_torts():
        yield ColieeTortQuery(str(t.tort_id), t.default_text())


def _claims(files: PilotFiles) -> Iterator[ColieeClaimDoc]:
    for t in files.input_torts():
        for side, c in t.claims():
            yield ColieeClaimDoc(
                claim_doc_id(t.tort_id, side, c.id), str(t.tort_id), side, str(c.id), c.description
            )


def pilot_dataset(entry: Registered) -> Dataset:
    """The ir_datasets entry of a pilot dataset of the catalog (claims or decisions as qrels)."""
    torts = cast(PilotSet, entry.files)
    files, namespace = torts.files, f"{NAME}/pilot/{entry.year}"
    extra = {"split": entry.split, "qrels": "decisions" if torts.decisions else "claims"}
    claims = functools.partial(_claims, files)
    corpus = (entry.year, entry.split)
    docs = None if torts.decisions else Docs(ColieeClaimDoc, namespace, "ja", corpus, claims)
    # the torts as given to systems (nulls where answers are due, in test inputs), and from the gold copy
    records = SimpleNamespace(
        torts_iter=functools.partial(_lazily, files.input_torts),
        gold_torts_iter=functools.partial(_lazily, files.gold_torts),
    )
    queries = Queries(ColieeTortQuery, namespace, "ja", functools.partial(_tort_queries, files))
    qrels = Qrels(torts, QREL_DEFS_DECISIONS if torts.decisions else QREL_DEFS_CLAIMS)
    doc = Documentation("pilot", "pilot", entry.year, extra)
    return Dataset(docs, queries, records, qrels, doc)


def register_pilot() -> None:
    """Register the pilot dataset ids (idempotent; reads no file)."""
    for entry in catalog().values():
        if isinstance(entry.files, PilotSet):
            register(entry, pilot_dataset(entry))
