"""The gold a run is scored against: a dataset id, a gold file of any kind, or qrels in any shape."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, Optional, Union, cast

from ir_measures.util import TYPE_QREL

from ir_coliee.errors import (
    WARNING,
    ColieeError,
    ColieeFormatError,
    ColieeScoringError,
    Finding,
)
from ir_coliee.formats.gold import gold_kind, read_gold
from ir_coliee.formats.textfile import Input, is_input, regular_file, stream_name
from ir_coliee.model import (
    NAME,
    QUESTION_ID,
    TORTS,
    GoldKind,
    Task,
    TaskLike,
    guess_task,
    kind_of_labels,
    official_entry,
    sibling_dataset,
    task_of,
)
from ir_coliee.table.tables import CheckedGold, Table, gold_table

if TYPE_CHECKING:
    from ir_coliee.data.catalog import Registered
    from ir_coliee.data.pilot_files import PilotSet
    from ir_coliee.formats.pilot import ColieeTort

GoldLike = Union[str, "os.PathLike[str]", TYPE_QREL]


class Gold(NamedTuple):
    """The gold as read, once, with what is known of where it came from: what the verbs ask of it (the
    task it is for, the qrels of that task, the answers gating it, the pilot's decisions) is asked here,
    never converted again."""

    tables: dict[GoldKind, Table]
    """Qrels (``{query_id: {doc_id: relevance}}``) per kind; a labelled riteval file holds two kinds."""
    source: str
    dataset: Optional[Registered] = None
    """The registered dataset, when the gold is a dataset id."""
    torts: Optional[list[ColieeTort]] = None
    """The pilot's gold torts."""
    unreadable: Optional[dict[GoldKind, ColieeFormatError]] = None
    """Kinds the file holds but cannot serve whole (see :func:`ir_coliee.formats.gold.read_gold`)."""
    note: str = ""
    """Where the gold came from when that is not the dataset's own files (a finding of the report)."""

    def table(self, task: Task) -> Table:
        """The qrels ``task`` is scored against; refused when the gold holds another kind, none, or a
        kind it cannot read whole."""
        if self.unreadable and task.gold in self.unreadable:
            raise self.unreadable[task.gold]
        if task.gold not in self.tables:
            held = " and ".join(self.tables) or "pilot torts"
            raise ColieeScoringError(
                f"{task.label} ({task.title}) is scored against {task.gold} gold, but {self.source} holds {held}"
            )
        table = self.tables[task.gold]
        if not table:
            raise ColieeError(
                f"{self.source}: the gold holds no relevant (query, {task.kind.unit}) pair"
            )
        return table

    def scored_as(
        self,
        task: Optional[TaskLike],
        year: Optional[int],
        labels: Callable[[], bool],
        findings: list[Finding],
        measures_named: bool = False,
    ) -> tuple[Task, Optional[int], Table]:
        """The task (as given, else the dataset's, else guessed from the gold and whether the runs hold
        Y/N answers, ``labels``, asked only then), its edition (as given, else the dataset's; refused when
        there is no such edition) and the qrels it is scored against (none for the pilot, scored against
        its torts). A guess is said unless the measures are named (then it only decides how runs are
        read, and no report claims that the gold is a COLIEE task's: another benchmark's TREC qrels,
        say)."""
        if self.dataset is not None:
            resolved = task_of(self.dataset.task)
            if task is not None and task_of(task).key != resolved.key:
                raise ColieeError(
                    f"--task {task} contradicts the dataset {self.source}, which is {resolved.label}"
                )
            year = self.dataset.year if year is None else year
        elif task is not None:
            resolved = task_of(task)
        elif self.torts is not None:
            resolved = guess_task(TORTS, statute=False)
        else:
            kind = kind_of_labels(labels())
            table = self.tables.get(kind, next(iter(self.tables.values())))
            resolved = guess_task(kind, bool(table) and all(QUESTION_ID.match(q) for q in table))
            if not measures_named:
                message = f"scoring as COLIEE {resolved.label} (guessed from the files); pass task= (--task on the command line) to choose"
                findings.append(Finding(WARNING, self.source, None, message, "guess"))
        official_entry(resolved.key, year)  # the edition exists
        return resolved, year, {} if resolved.gold == TORTS else self.table(resolved)

    def answers(self, task: Task, answers_gold: Optional[GoldLike]) -> Table:
        """The Y/N gold that gates ``task``'s runs (2026 Task 3): ``answers_gold``, else this gold's own
        (a labelled riteval file holds both), else the gate's dataset of the same edition, split and
        language; refused for a task that no answers gate."""
        if not task.gate:
            raise ColieeScoringError(
                f"--answers gates the runs of a task scored with answers (2026 Task 3), not {task.label}"
            )
        gate = task_of(task.gate)
        if answers_gold is not None:
            return load_gold(answers_gold).table(gate)
        if gate.gold in self.tables:
            return self.tables[gate.gold]
        if self.dataset is not None:
            return load_gold(sibling_dataset(self.source, gate.key)).table(gate)
        raise ColieeError(
            "--answers needs the gold answers: give --answers-gold FILE, or a coliee/task3/... dataset as GOLD"
        )

    def pilot_torts(self) -> list[ColieeTort]:
        """The pilot's gold torts: refused for any other gold (the door asks before any run is read)."""
        if self.torts is None:
            raise ColieeScoringError(
                f"the pilot is scored against gold torts (a JSONL file or a coliee/pilot/... dataset), not {self.source}"
            )
        return self.torts


def is_dataset_id(gold: object) -> bool:
    # a folder is no gold
    return isinstance(gold, str) and gold.startswith(f"{NAME}/") and not os.path.isfile(gold)


def _dataset_gold(dataset_id: str) -> Gold:
    """The gold of a COLIEE dataset id, read from its official files through the catalog (not through
    ir_datasets, whose entries read the same files the same way)."""
    from ir_coliee.data.catalog import known_dataset

    entry = known_dataset(dataset_id, "is neither a file nor a COLIEE dataset id")
    if task_of(entry.task).gold == TORTS:
        files = cast("PilotSet", entry.files).files
        return Gold({}, dataset_id, entry, files.gold_torts())
    table = gold_table(entry.files.qrels())
    return Gold({task_of(entry.task).gold: table}, dataset_id, entry, note=entry.gold_note())


def load_gold(gold: GoldLike) -> Gold:
    """The gold from a dataset id, a file (TREC qrels, label JSON, Y/N answers with or without a tag,
    labelled riteval XML, pilot JSONL) or qrels in any shape (a DataFrame with ids of any dtype, a dict
    of dicts, an iterable of ``TrecQrel``, consumed once)."""
    if is_dataset_id(gold):
        return _dataset_gold(cast(str, gold))
    if not is_input(gold):
        table = gold_table(gold, "the gold qrels")
        return Gold({gold_kind(table): table}, "<qrels>")
    name = stream_name(cast(Input, gold))
    if name.endswith(".jsonl"):  # the pilot's gold torts
        from ir_coliee.formats.pilot import read_torts

        return Gold({}, name, None, read_torts(cast(Input, gold)))
    with regular_file(cast(Input, gold)) as readable:
        read, unreadable = read_gold(readable, name)
    # checked once, here: the layers the gold passes through hand it back as it is (see CheckedGold)
    tables: dict[GoldKind, Table] = {kind: CheckedGold(table) for kind, table in read.items()}
    return Gold(tables, name, None, None, unreadable)
