"""Where the tort pilot's files are (free of ir_datasets: the entries in :mod:`ir_coliee.data.datasets.pilot`
are built on these, and a pilot dataset's gold is read without them)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import NamedTuple

from ir_measures import Qrel

from ir_coliee.data.files import DataFile, FileCache
from ir_coliee.data.locator import LOCATOR, Source, first_of, missing, source_of
from ir_coliee.formats.pilot import ColieeTort, claim_qrels, decision_qrels, read_torts
from ir_coliee.model import PILOT_FILES


@FileCache
def _torts_of(f: DataFile) -> list[ColieeTort]:
    # read as every pilot file is (decoded line by line), named as the data file
    stream = io.BytesIO(f.read_bytes())
    stream.name = f.describe()
    return read_torts(stream)


class PilotFiles:
    def __init__(self, dataset_id: str, year: int, split: str):
        self.dataset_id, self.year, self.split, self.locator = dataset_id, year, split, LOCATOR

    def _candidates(self) -> list[DataFile]:
        """Pilot files of this split, this edition's first; a year in the file name itself says which
        edition's torts it holds (a later package may carry ``tort_test_2025_gold.jsonl``)."""
        ranked = []
        for f in self.locator.find(PILOT_FILES.pattern):
            path = "/".join(f.parts).lower()
            of_split = any(m in path for m in PILOT_FILES.markers) and self.split in path
            # the year in the file's name, else its package's edition, else (a file of no package) this edition
            if of_split and (PILOT_FILES.year_of(f.name) or f.edition or self.year) == self.year:
                ranked.append(f)
        return self.locator.pick(ranked, lambda f: ((f.edition or self.year) != self.year,))

    def input_torts(self) -> list[ColieeTort]:
        """The torts as given to systems (nulls where answers are due, in test inputs)."""
        return _torts_of(self.inputs())

    def _names(self) -> list[str]:
        markers = " or ".join(f"'{m}'" for m in PILOT_FILES.markers)
        return [
            f"a pilot {self.split} file: {PILOT_FILES.pattern} below a folder or with a name holding {markers}, "
            f"'{self.split}' and {self.year} (e.g. LJPJT{self.year % 100}-{self.split}001.jsonl)"
        ]

    def inputs(self) -> DataFile:
        what = f"the pilot {self.split} torts"
        return first_of(self._candidates(), what, self._names(), self.dataset_id)

    def gold(self) -> DataFile:
        for f in self._candidates():
            if all(t.court_decision is not None for t in _torts_of(f)):
                return f
        what = f"the pilot {self.split} gold (every court_decision filled in)"
        raise missing(what, self._names(), self.dataset_id)

    def gold_torts(self) -> list[ColieeTort]:
        asked = {str(t.tort_id) for t in self.input_torts()}
        return [t for t in _torts_of(self.gold()) if str(t.tort_id) in asked]


class PilotSet(NamedTuple):
    """What one pilot dataset id stands for: the torts of a split, with the claims or the decisions as qrels."""

    files: PilotFiles
    decisions: bool

    def qrels(self) -> Iterator[Qrel]:
        gold = self.files.gold_torts()
        yield from decision_qrels(gold) if self.decisions else claim_qrels(gold)

    def sources(self) -> list[Source]:
        return [
            source_of("queries", self.files.inputs),
            source_of("docs", self.files.inputs),
            source_of("qrels", self.files.gold),
        ]

    def released(self) -> list[str]:
        """Every tort handed out."""
        return [str(t.tort_id) for t in self.files.input_torts()]
