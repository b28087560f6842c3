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

from collections.abc import Iterator
from typing import NamedTuple, Optional

from ir_datasets.datasets.base import Dataset
from ir_datasets.formats import BaseDocs, BaseQrels, BaseQueries, TrecQrel

from ir_coliee.datasets.common import NAME, DictDocstore, DocsIter, Documentation, Source, register, source_of
from ir_coliee.datasets.files import LOCATOR, DataFile, Locator, missing
from ir_coliee.formats.pilot import ColieeTort, claim_doc_id, claim_qrels, decision_qrels, parse_torts
from ir_coliee.model import PILOT_FILES, editions_of, task_of
from ir_coliee.model import dataset_id as model_dataset_id
from ir_coliee.textfile import decode_text

QREL_DEFS_CLAIMS = {1: "Accepted: the court accepted the claim.", 0: "Not accepted by the court."}
QREL_DEFS_DECISIONS = {1: "The court decision: doc_id True (the tort is found) or False."}


class ColieeTortQuery(NamedTuple):
    """A tort case as a query: exactly ``(query_id, text)`` for PyTerrier."""

    query_id: str
    """The tort id."""
    text: str
    """The undisputed facts, one per line."""

    def default_text(self) -> str:
        """The undisputed facts."""
        return self.text


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


class PilotFiles:
    def __init__(self, dataset_id: str, year: int, split: str, locator: Locator = LOCATOR):
        self.dataset_id, self.year, self.split, self.locator = dataset_id, year, split, locator
        self._parsed: dict[tuple[str, int], list[ColieeTort]] = {}

    def _candidates(self) -> list[DataFile]:
        """Pilot files of this split, this edition's first; a year in the file name itself says which
        edition's torts it holds (a later package may carry ``tort_test_2025_gold.jsonl``)."""
        ranked = []
        for f in self.locator.find(PILOT_FILES.pattern):
            path = "/".join(f.parts).lower()
            if not any(m in path for m in PILOT_FILES.markers) or self.split not in path:
                continue
            named = PILOT_FILES.year_of(f.name)
            if named is not None and named != self.year:
                continue
            edition = f.edition or self.year
            if named is not None or edition == self.year:
                ranked.append(f)
        return self.locator.pick(ranked, lambda f: ((f.edition or self.year) != self.year,))

    def torts(self, f: DataFile) -> list[ColieeTort]:
        key = f.version()
        if key not in self._parsed:
            text = decode_text(f.read_bytes(), f.describe())
            self._parsed[key] = parse_torts(enumerate(text.splitlines(), 1), f.describe())
        return self._parsed[key]

    def _names(self) -> list[str]:
        markers = " or ".join(f"'{m}'" for m in PILOT_FILES.markers)
        return [
            f"a pilot {self.split} file: {PILOT_FILES.pattern} below a folder or with a name holding {markers}, "
            f"'{self.split}' and {self.year} (e.g. LJPJT{self.year % 100}-{self.split}001.jsonl)"
        ]

    def inputs(self) -> DataFile:
        found = self._candidates()
        if not found:
            raise missing(f"the pilot {self.split} torts", self._names(), self.dataset_id)
        return found[0]

    def gold(self) -> DataFile:
        for f in self._candidates():
            if all(t.court_decision is not None for t in self.torts(f)):
                return f
        raise missing(f"the pilot {self.split} gold (every court_decision filled in)", self._names(), self.dataset_id)

    def gold_torts(self) -> list[ColieeTort]:
        asked = {str(t.tort_id) for t in self.torts(self.inputs())}
        return [t for t in self.torts(self.gold()) if str(t.tort_id) in asked]

    def sources(self) -> list[Source]:
        return [source_of("queries", self.inputs), source_of("docs", self.inputs), source_of("qrels", self.gold)]


class TortQueries(BaseQueries):
    """The torts; ``torts_iter()`` gives the full records (facts, claims, decision)."""

    def __init__(self, files: PilotFiles):
        super().__init__()
        self._files = files

    def torts_iter(self) -> Iterator[ColieeTort]:
        """The torts as given to systems (nulls where answers are due, in test inputs)."""
        yield from self._files.torts(self._files.inputs())

    def gold_torts_iter(self) -> Iterator[ColieeTort]:
        """The same torts from the gold copy (every decision and claim label filled in)."""
        yield from self._files.gold_torts()

    def queries_iter(self) -> Iterator[ColieeTortQuery]:
        for t in self.torts_iter():
            yield ColieeTortQuery(str(t.tort_id), t.default_text())

    def queries_cls(self) -> type:
        return ColieeTortQuery

    def queries_namespace(self) -> str:
        return f"{NAME}/pilot/{self._files.year}"

    def queries_lang(self) -> str:
        return "ja"


class ClaimDocs(BaseDocs):
    def __init__(self, files: PilotFiles):
        super().__init__()
        self._files = files

    def docs_iter(self) -> DocsIter:
        return DocsIter(self._stream, lambda key: iter(list(self._stream())[key]))

    def _stream(self) -> Iterator[ColieeClaimDoc]:
        for t in self._files.torts(self._files.inputs()):
            for side, c in t.claims():
                yield ColieeClaimDoc(
                    claim_doc_id(t.tort_id, side, c.id), str(t.tort_id), side, str(c.id), c.description
                )

    def docs_cls(self) -> type:
        return ColieeClaimDoc

    def docs_store(self, field: str = "doc_id") -> DictDocstore:
        return DictDocstore(self._stream, ColieeClaimDoc)

    def docs_count(self) -> Optional[int]:
        return sum(1 for _ in self._stream())

    def docs_namespace(self) -> str:
        return f"{NAME}/pilot/{self._files.year}"

    def docs_lang(self) -> str:
        return "ja"


class PilotQrels(BaseQrels):
    def __init__(self, files: PilotFiles, decisions: bool):
        super().__init__()
        self._files, self._decisions = files, decisions

    def qrels_iter(self) -> Iterator[TrecQrel]:
        gold = self._files.gold_torts()
        for q in decision_qrels(gold) if self._decisions else claim_qrels(gold):
            yield TrecQrel(q.query_id, q.doc_id, q.relevance, "0")

    def qrels_cls(self) -> type:
        return TrecQrel

    def qrels_defs(self) -> dict[int, str]:
        return QREL_DEFS_DECISIONS if self._decisions else QREL_DEFS_CLAIMS


def register_pilot() -> None:
    """Register the pilot dataset ids (idempotent; reads no file)."""
    for year in editions_of("pilot"):
        for split in task_of("pilot").splits:
            base = model_dataset_id("pilot", year, split)
            files = PilotFiles(base, year, split)
            queries = TortQueries(files)
            for dataset_id, decisions in ((base, False), (f"{base}/decisions", True)):
                doc = Documentation(
                    "pilot", "pilot", year, {"split": split, "qrels": "decisions" if decisions else "claims"}
                )
                docs = None if decisions else ClaimDocs(files)
                dataset = Dataset(docs, queries, PilotQrels(files, decisions), doc)
                register(dataset_id, dataset, "pilot", year, files.sources)
