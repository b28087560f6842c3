"""Every COLIEE dataset id with its task, edition and the object that finds its files, free of
ir_datasets: a dataset id given as gold is read from here (``ir_coliee eval coliee/task1/2025/test RUN``
never loads ir_datasets), and the ir_datasets entries (:mod:`caselaw`, :mod:`statute`, :mod:`pilot`)
are built on the same records, so both read the gold through one code path.

Building the catalog reads no file: the objects find files when asked.
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Iterator
from typing import NamedTuple, Optional, Union

from ir_coliee.data.layouts import LAYOUTS, Layout
from ir_coliee.data.pilot_files import PilotFiles, PilotSet
from ir_coliee.data.statute_files import (
    LANGUAGES,
    StatuteFiles,
    StatuteSet,
    has_language,
    train_exams,
)
from ir_coliee.errors import ColieeError, some
from ir_coliee.model import EDITIONS, NAME, TASKS, civil_code_of_id, editions_of, task_of
from ir_coliee.model import dataset_id as model_dataset_id

DatasetFiles = Union[Layout, StatuteSet, PilotSet]

#: Per-exam training subsets (not listed by ``ir_datasets list``; loadable by id).
EXAM_SUBSET = rf"^{NAME}/task([34])/(\d{{4}})/train/([hHrR]\d{{1,2}})(?:/(ja))?$"


class Registered(NamedTuple):
    """What ir_coliee knows of one dataset id."""

    dataset_id: str
    task: str
    year: int
    split: str
    files: DatasetFiles
    """What finds its files: the case-law layout, the statute exams, or the pilot files."""

    @property
    def scoped(self) -> bool:
        """Document ids are ``{query}/{doc}`` while runs name ``doc`` alone (``ir_coliee.table.tables.align``
        maps runs onto them)."""
        return isinstance(self.files, Layout) and self.files.scoped

    def gold_note(self) -> str:
        """Where the gold comes from when no file of the dataset's own language holds it; empty otherwise."""
        return self.files.gold_note() if isinstance(self.files, StatuteSet) else ""


#: Every dataset id ir_coliee knows (exam subsets once asked for), with its task, edition and files.
REGISTERED: dict[str, Registered] = {}


def _caselaw() -> Iterator[Registered]:
    for task in (t.key for t in TASKS.values() if not t.statute):
        for year in editions_of(task):
            files = EDITIONS[year].caselaw(task)
            if files is None:  # 2018, and the pilot: not case-law files of a known layout
                continue
            for split in task_of(task).splits:
                dataset_id = model_dataset_id(task, year, split)
                layout = LAYOUTS[files.layout](dataset_id, year, split, files)
                yield Registered(dataset_id, task, year, split, layout)


def _statute_set(
    dataset_id: str, task: str, year: int, exams: tuple[str, ...], lang: str, split: str
) -> Registered:
    record = task_of(task)
    files = StatuteFiles(dataset_id, year, lang)
    return Registered(
        dataset_id, task, year, split, StatuteSet(files, exams, record.gold, record.collection)
    )


def _statute() -> Iterator[Registered]:
    for task in (t.key for t in TASKS.values() if t.statute):
        for year in editions_of(task):
            for lang in (lang for lang in LANGUAGES if has_language(year, lang)):
                exams = {"test": (EDITIONS[year].statute_exam,), "train": train_exams(year)}
                for split in task_of(task).splits:
                    dataset_id = model_dataset_id(task, year, split, lang)
                    yield _statute_set(dataset_id, task, year, exams[split], lang, split)


def _pilot() -> Iterator[Registered]:
    for year in editions_of("pilot"):
        for split in task_of("pilot").splits:
            base = model_dataset_id("pilot", year, split)
            files = PilotFiles(base, year, split)  # one parse of the torts for both ids
            for suffix, decisions in (("", False), ("/decisions", True)):
                yield Registered(base + suffix, "pilot", year, split, PilotSet(files, decisions))


def catalog() -> dict[str, Registered]:
    """Every dataset id (built once; idempotent; reads no file)."""
    if not REGISTERED:
        for entry in (*_caselaw(), *_statute(), *_pilot()):
            REGISTERED[entry.dataset_id] = entry
    return REGISTERED


def exam_subset(dataset_id: str) -> Optional[Registered]:
    """A per-exam training subset (``coliee/task3/2024/train/h30``), recorded; ``None`` when the id is not
    of that shape or names no training exam of the edition."""
    m = re.match(EXAM_SUBSET, dataset_id)
    if m is None:
        return None
    task, year_text, exam_text, lang = m.groups()
    year, exam, lang = int(year_text), exam_text.upper(), lang or ""
    if (
        year not in editions_of(task)
        or exam not in train_exams(year)
        or not has_language(year, lang)
    ):
        return None
    return REGISTERED.setdefault(
        dataset_id, _statute_set(dataset_id, task, year, (exam,), lang, "train")
    )


def dataset_entry(dataset_id: str) -> Registered:
    """What ir_coliee knows of ``dataset_id``; ``KeyError`` when it is not a COLIEE dataset id."""
    found = catalog().get(dataset_id) or exam_subset(dataset_id)
    if found is None:
        raise KeyError(dataset_id)
    return found


def civil_code_of(entry: Registered) -> Optional[tuple[int, str]]:
    """The edition and language of the Civil Code whose articles are a dataset's documents; ``None`` for a
    dataset without them (case law, the pilot, Task 5)."""
    if isinstance(entry.files, StatuteSet) and entry.files.collection:
        return entry.year, entry.files.files.lang
    return None


def known_dataset(dataset_id: str, what: str = "is not a COLIEE dataset id") -> Registered:
    """:func:`dataset_entry`, or the error that names the closest known ids (or, for the id of a
    Civil Code alone, the datasets over it)."""
    with contextlib.suppress(KeyError):
        return dataset_entry(dataset_id)
    # the id of a Civil Code alone (an edition's, in one language): the datasets whose documents it holds
    code = civil_code_of_id(dataset_id)
    over = [i for i, e in catalog().items() if code is not None and civil_code_of(e) == code]
    if over:
        raise ColieeError(
            f"{dataset_id!r} holds documents only (no queries, no gold); its datasets: {some(over, 4)}"
        )
    close = difflib.get_close_matches(dataset_id, list(catalog()), n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else " (see: ir_coliee datasets list)"
    raise ColieeError(f"{dataset_id!r} {what}{hint}")
