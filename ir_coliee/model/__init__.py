"""The facts about COLIEE, as data in one place: tasks, submission formats, editions and their files,
official measures. Every other module asks these records instead of branching on task numbers."""

from ir_coliee.model.editions import (
    EDITIONS,
    OFFICIAL,
    CaseLawFiles,
    Edition,
    OfficialEntry,
    editions_of,
    newest,
    official_entry,
    official_measures,
    statute_exams,
    test_dataset,
)
from ir_coliee.model.formats import ANSWER_LABELS, FORMATS, FormatName, RunFormat, expected_any, sniff
from ir_coliee.model.tasks import NAME, QUESTION_ID, TASK_KEYS, TASKS, GoldKind, Task, TaskKey, dataset_id, task_of

__all__ = [
    "ANSWER_LABELS",
    "EDITIONS",
    "FORMATS",
    "NAME",
    "OFFICIAL",
    "QUESTION_ID",
    "TASKS",
    "TASK_KEYS",
    "CaseLawFiles",
    "Edition",
    "FormatName",
    "GoldKind",
    "OfficialEntry",
    "RunFormat",
    "Task",
    "TaskKey",
    "dataset_id",
    "editions_of",
    "expected_any",
    "newest",
    "official_entry",
    "official_measures",
    "sniff",
    "statute_exams",
    "task_of",
    "test_dataset",
]
