"""The COLIEE tasks as data: what a submission looks like, what the gold is, how dataset ids are built.

Code asks these records (``task_of("4").formats``) instead of branching on task numbers.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple, Optional, Union

from ir_coliee.errors import ColieeArgumentError
from ir_coliee.model.formats import FORMATS, FormatName

TaskKey = Literal["1", "2", "3", "4", "5", "pilot"]
#: A task as users name it: ``3``, ``"3"``, ``"task3"``, ``"pilot"``.
TaskLike = Union[int, str]
#: What the gold of a task names: documents of the collection, Y/N answers, or pilot torts.
GoldKind = Literal["documents", "answers", "torts"]
#: The kinds by name, for the code that asks which kind a gold is.
DOCUMENTS: GoldKind = "documents"
ANSWERS: GoldKind = "answers"
TORTS: GoldKind = "torts"
Level = Literal["error", "warning"]
Split = Literal["train", "test"]

NAME = "coliee"
#: Bar-exam question ids of the statute tasks: ``H30-1-A``, ``R1-13-A``, ``R03-01-E`` (COLIEE-SPEC section 4).
QUESTION_ID = re.compile(r"^(H\d{2}|R\d{1,2})-\d{1,2}-[0-9A-Z]$")


class Kind(NamedTuple):
    """What a gold of one kind holds and how runs against it are scored: the one place the scorers, the
    findings and the messages ask, instead of comparing kind names."""

    name: GoldKind
    unit: str
    """What a gold query's relevant items are called in messages."""
    scorer: Literal["measures", "pilot"]
    """``measures``: runs are tables scored with ir_measures measures; ``pilot``: JSONL files of torts."""
    labels: bool
    """The run's second column holds a label (Y/N) from a closed set, not a document id."""
    absent: str
    """What a gold query without a line in the run is scored as."""
    counts: tuple[str, ...]
    """The count columns of a report row, for the totals behind the measures."""


KINDS: dict[GoldKind, Kind] = {
    "documents": Kind(
        "documents",
        "document",
        "measures",
        False,
        "scored as nothing retrieved",
        ("tp", "retrieved", "relevant"),
    ),
    "answers": Kind(
        "answers", "answer", "measures", True, "scored as wrong", ("correct", "questions")
    ),
    "torts": Kind("torts", "tort", "pilot", False, "scored as wrong", ()),
}


class RankedLimit(NamedTuple):
    """At most ``lines`` lines per query in files whose name holds ``marker`` (case-insensitive)."""

    marker: str
    lines: int
    files: str
    """What the files are called in messages."""


class Task(NamedTuple):
    """One COLIEE task."""

    key: TaskKey
    title: str
    family: str
    """The dataset id component: ``coliee/{family}/{year}/{split}``."""
    formats: tuple[FormatName, ...]
    """Submission formats accepted; the first is the one written."""
    gold: GoldKind
    statute: bool = False
    """Queries are bar-exam questions (ids like ``H30-1-A``)."""
    doc_word: str = "document"
    """What a document is called in messages."""
    self_retrieval_forbidden: bool = False
    """A query case is not its own candidate (Task 1)."""
    unknown_doc: tuple[Level, str] = (
        "error",
        "{doc} {doc_id!r} is not a candidate of query {query_id!r}",
    )
    """How a run document absent from the collection is reported."""
    ranked_limit: Optional[RankedLimit] = None
    collection: bool = True
    """Systems are given a collection to retrieve from or reason over (Task 5 answers without articles)."""
    splits: tuple[Split, ...] = ("train", "test")
    """The splits of its datasets (Task 5 of 2021 had a test set only)."""
    gate: str = ""
    """The task whose Y/N answers gate this one from 2026 (Task 3: a question counts only if its Task 4
    answer is right and every gold article was retrieved)."""

    def readable(self) -> tuple[FormatName, ...]:
        """Formats a run of this task is scored from: every format of its gold's kind (a Task 1
        experiment ranked in TREC format is scored; only the official ``formats`` are submitted)."""
        if not self.formats:
            return ()
        return tuple(name for name, f in FORMATS.items() if bool(f.labels) == self.kind.labels)

    @property
    def label(self) -> str:
        return "the pilot" if self.key == "pilot" else f"Task {self.key}"

    @property
    def kind(self) -> Kind:
        """What its gold holds and how its runs are scored."""
        return KINDS[self.gold]


_TASK4 = Task(
    "4", "statute law entailment", "task4", ("answers",), "answers", statute=True, doc_word="answer"
)
TASKS: dict[str, Task] = {
    "1": Task(
        "1",
        "case law retrieval",
        "task1",
        ("pairs",),
        "documents",
        doc_word="case",
        self_retrieval_forbidden=True,
    ),
    "2": Task(
        "2",
        "case law entailment",
        "task2",
        ("pairs",),
        "documents",
        doc_word="paragraph",
        unknown_doc=("error", "{doc} {doc_id!r} is not a paragraph of case {query_id!r}"),
    ),
    "3": Task(
        "3",
        "statute law retrieval",
        "task3",
        ("trec", "pairs"),
        "documents",
        statute=True,
        doc_word="article",
        # real gold cites articles the Civil Code file lacks (e.g. 213-2): legal, but worth a look
        unknown_doc=("warning", "{doc} {doc_id!r} is not in the Civil Code file"),
        ranked_limit=RankedLimit("-L", 100, "task3-L"),
        gate="4",
    ),
    "4": _TASK4,
    "5": _TASK4._replace(
        key="5",
        title="statute law Y/N without articles",
        family="task5",
        collection=False,
        splits=("test",),
    ),
    "pilot": Task("pilot", "Japanese tort cases", "pilot", (), "torts", doc_word="claim"),
}
TASK_KEYS: tuple[str, ...] = tuple(TASKS)


def task_of(task: TaskLike) -> Task:
    """The task named ``task`` (``1``..``5``, ``"pilot"``; ints and ``task3`` are accepted)."""
    key = str(task).lower().removeprefix("task")
    if key not in TASKS:
        raise ColieeArgumentError(
            f"unknown COLIEE task {task!r}; expected one of {', '.join(TASK_KEYS)}"
        )
    return TASKS[key]


def kind_of_labels(labels: bool) -> GoldKind:
    """The kind of gold whose runs do (or do not) hold labels in their second column."""
    return next(k.name for k in KINDS.values() if k.labels == labels and k.scorer == "measures")


def guess_task(gold: GoldKind, statute: bool) -> Task:
    """The task a gold of this kind most likely belongs to: the first with that gold and, where there
    is one, with bar-exam question ids when the queries have them (Task 3 or 4), else without (Task 1)."""
    kind = [t for t in TASKS.values() if t.gold == gold]
    return next((t for t in kind if t.statute == statute), kind[0])


def sibling_dataset(dataset_id: str, task: TaskLike) -> str:
    """The dataset of ``task`` with the same edition, split and language as ``dataset_id``
    (``coliee/task3/2026/test/ja`` -> ``coliee/task4/2026/test/ja``)."""
    parts = dataset_id.split("/")
    parts[1] = task_of(task).family
    return "/".join(parts)


def dataset_id(task: TaskLike, year: int, split: str, lang: str = "") -> str:
    """``coliee/task3/2024/test``, ``coliee/task3/2026/test/ja``."""
    return "/".join(p for p in (NAME, task_of(task).family, str(year), split, lang) if p)


#: The family of the Civil Code entries: documents only, no task of their own.
CIVIL_CODE = "civil-code"


def civil_code_id(year: int, lang: str = "") -> str:
    """``coliee/civil-code/2024``, ``coliee/civil-code/2026/ja``: the Civil Code an edition's statute
    datasets read in one language, their common ``ir_datasets.docs_parent_id``."""
    return "/".join(p for p in (NAME, CIVIL_CODE, str(year), lang) if p)


_CIVIL_CODE_ID = re.compile(rf"{NAME}/{CIVIL_CODE}/(\d{{4}})(?:/(ja))?")


def civil_code_of_id(dataset_id: str) -> Optional[tuple[int, str]]:
    """The edition and language a :func:`civil_code_id` names (``coliee/civil-code/2024/ja`` ->
    ``(2024, "ja")``); ``None`` for any other id."""
    m = _CIVIL_CODE_ID.fullmatch(dataset_id)
    return None if m is None else (int(m[1]), m[2] or "")
