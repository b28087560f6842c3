"""The facts about COLIEE, as data in one place: tasks, submission formats, editions and their files,
official measures. Every other module asks these records instead of branching on task numbers."""

from ir_coliee.model.editions import (
    EDITION_IN_NAME,
    EDITIONS,
    KNOWN_SIZES,
    NOT_REGISTERED,
    PILOT_FILES,
    STATUTE_FILES,
    YEAR_IN_NAME,
    CaseLawFiles,
    edition_dataset,
    edition_of_file,
    editions_of,
    known_sizes,
    name_says,
    statute_exams,
)
from ir_coliee.model.formats import (
    ANSWER_LABELS,
    FORMATS,
    FormatName,
    RunFormat,
    expected_any,
    sniff,
)
from ir_coliee.model.official import OFFICIAL, official_entry, official_measures
from ir_coliee.model.tasks import (
    ANSWERS,
    CIVIL_CODE,
    DOCUMENTS,
    KINDS,
    NAME,
    QUESTION_ID,
    TASK_KEYS,
    TASKS,
    TORTS,
    GoldKind,
    Task,
    TaskLike,
    civil_code_id,
    civil_code_of_id,
    dataset_id,
    guess_task,
    kind_of_labels,
    sibling_dataset,
    task_of,
)
