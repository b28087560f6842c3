"""The COLIEE editions as data: which tasks each year ran, the official file names of its packages
(the role ir_datasets' ``downloads.json`` plays) and its statute test exam; the official measures of each
task and edition are in :mod:`ir_coliee.model.official`.

A new edition is one :class:`Edition` entry (plus an :data:`OFFICIAL` row if its measures change).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple, Optional

from ir_coliee.model.tasks import TaskLike, dataset_id, task_of

LayoutKind = Literal["flat", "folders", "xml-index"]


class CaseLawFiles(NamedTuple):
    """Where a case-law edition keeps its files. Names are templates over ``{split}`` and ``{year}``."""

    layout: LayoutKind
    """``flat``: one folder of case files per split (query cases among the candidates);
    ``folders``: one folder per query; ``xml-index``: per-query folders listed by an XML index (2019)."""
    folders: tuple[str, ...] = ()
    """The folder holding a split's files (alternatives, first match wins)."""
    gold: tuple[str, ...] = ()
    """The label file of a split (alternatives)."""
    test_queries: tuple[str, ...] = ()
    """Files that list the test queries before the test labels are out."""
    query_file: str = ""
    """In a query's folder: the query text (``base_case.txt`` for Task 1, ``entailed_fragment.txt`` for Task 2)."""
    candidates: str = ""
    """In a query's folder: the folder of its candidates (``candidates``, ``paragraphs``)."""
    index_file: str = ""
    """The 2019 index file (``task1.xml``), which holds the training gold too."""
    gold_element: str = ""
    """The element of the 2019 index and golden labels that lists the gold ids."""
    gold_family: tuple[str, ...] = ("",)
    """Prefixes the organisers put before a label file's name, best first: the 2026 training release
    ships ``clean_task1_train_labels_2026.json`` (COLIEE-SPEC section 2); found anywhere below the root,
    inside the split's folder or beside it."""

    @property
    def scoped(self) -> bool:
        """Document ids are scoped by query (``001/058``): per-query folders reuse file names."""
        return self.layout != "flat"

    def names(
        self, field: Literal["folders", "gold", "test_queries"], split: str, year: int
    ) -> list[str]:
        family = self.gold_family if field == "gold" else ("",)
        return [p + t.format(split=split, year=year) for t in getattr(self, field) for p in family]


_TEST_LIST = ("task1_test_no_labels_{year}.json",)
_LABEL_FAMILY = ("", "clean_")
_FLAT = CaseLawFiles(
    "flat",
    ("task1_{split}_files_{year}",),
    ("task1_{split}_labels_{year}.json",),
    _TEST_LIST,
    gold_family=_LABEL_FAMILY,
)
# one pool for train and test; every public copy carries bare label names (train_labels.json) and a test list
# that is a JSON list of file names (COLIEE-SPEC section 2): both are read, the official names first
_TASK1_2021 = _FLAT._replace(
    folders=("task1_files", "task1_files_{year}"),
    gold=(*_FLAT.gold, "{split}_labels.json"),
    test_queries=(*_TEST_LIST, "test_no_labels.json"),
    gold_family=("",),
)
_TASK1_2020 = CaseLawFiles(
    "folders",
    ("task1_{split}_{year}",),
    ("task1_{split}_{year}_labels.json", "task1_{split}_labels_{year}.json"),
    query_file="base_case.txt",
    candidates="candidates",
)
_TASK2 = CaseLawFiles(
    "folders",
    ("task2_{split}_files_{year}", "task2_{split}_{year}"),
    ("task2_{split}_labels_{year}.json",),
    query_file="entailed_fragment.txt",
    candidates="paragraphs",
    gold_family=_LABEL_FAMILY,
)
_TASK1_2019 = CaseLawFiles(
    "xml-index",
    gold=("task1_test_golden-labels.xml",),
    query_file="base_case.txt",
    candidates="candidates",
    index_file="task1.xml",
    gold_element="cases_noticed",
)
_TASK2_2019 = _TASK2._replace(
    layout="xml-index",
    folders=(),
    gold=("task2_test_golden-labels.xml",),
    gold_family=("",),
    index_file="task2.xml",
    gold_element="entailing_paragraphs",
)


class StatuteNames(NamedTuple):
    """The statute packages' file names per language (``en``, ``ja``), the same in every edition;
    exam names are templates over ``{exam}`` (``R05``); each list best first."""

    exams: dict[str, tuple[str, ...]]
    """An exam's questions (labelled in ``train/``): for Japanese, 2026's ``simple/`` files first (they
    list the gold articles), then the riteval files."""
    test_input: dict[str, tuple[str, ...]]
    """An edition's unlabelled test questions, when not in an exam file of their own."""
    civil_code: dict[str, tuple[str, ...]]
    """The Civil Code per language (``en``, ``ja``): the text file; for Japanese from 2026 on, the
    organisers' ``civil.xml`` or the e-Gov law XML (law id 129AC0000000089) it is built from."""
    civil_code_note: dict[str, str]
    """Where the Civil Code comes from, per language, for messages."""
    aliases: dict[str, tuple[str, ...]]
    """Other names of an exam in file names (R01 is also H31)."""
    gold_elsewhere: dict[str, dict[str, tuple[str, ...]]]
    """Per language, exams whose gold was distributed only in another language's files, and those files: the
    R06 (2025) gold is only in the 2026 Japanese package, ``simple/simple_R06_jp.xml`` (COLIEE-SPEC 10). An
    exam's question ids, labels and gold articles are the same in every language."""


STATUTE_FILES = StatuteNames(
    exams={
        "en": ("riteval_{exam}_en.xml",),
        "ja": ("simple_{exam}_jp.xml", "riteval_{exam}_jp.xml"),
    },
    test_input={"en": ("TestData_en.xml",), "ja": ("TestData_jp.xml",)},
    civil_code={
        "en": ("civil_code_en*.txt",),
        "ja": ("civil_code_jp*.txt", "civil.xml", "129AC0000000089*.xml"),
    },
    civil_code_note={
        "en": "text/ of the English package",
        "ja": "text/ of the Japanese package; from 2026, civil.xml, which the package's makeData.sh builds "
        "from the e-Gov law XML it downloads",
    },
    aliases={"R01": ("H31",)},
    gold_elsewhere={"en": {"R06": ("simple_R06_jp.xml",)}, "ja": {}},
)


class PilotNames(NamedTuple):
    """How the pilot's JSONL files are recognised: the organisers' names are not documented beyond their
    template (``dataset/LJPJT26-test001.jsonl``), so by what a path says."""

    pattern: str
    """The files: JSONL."""
    markers: tuple[str, ...]
    """A pilot file's path holds one of these (lower case)."""
    years: tuple[str, ...]
    """Patterns that give the edition from a file name: ``2026``, or ``LJPJT26`` (two digits, 20xx)."""

    def year_of(self, name: str) -> Optional[int]:
        for pattern in self.years:
            m = re.search(pattern, name, re.IGNORECASE)
            if m:
                year = int(m.group(1))
                return year if year > 100 else 2000 + year
        return None


PILOT_FILES = PilotNames(
    "*.jsonl", ("pilot", "tort", "ljpjt"), (r"(?<!\d)(20[2-9]\d)(?!\d)", r"LJPJT(\d\d)(?!\d)")
)


class Edition(NamedTuple):
    """One year of COLIEE."""

    year: int
    tasks: tuple[str, ...]
    """The tasks run that year."""
    statute_exam: str
    """The bar exam of the statute test set (``R05`` in 2024)."""
    statute_languages: tuple[str, ...] = ("en", "ja")
    """Languages of the statute package (2026 ships Japanese only)."""
    task1: Optional[CaseLawFiles] = None
    """Task 1's files, ``None`` where the layout is not known well enough to read (2018)."""
    task2: Optional[CaseLawFiles] = None

    def caselaw(self, task: TaskLike) -> Optional[CaseLawFiles]:
        return {"1": self.task1, "2": self.task2}.get(task_of(task).key)


EDITIONS: dict[int, Edition] = {
    e.year: e
    for e in (
        # 2018's H29 is not confirmed by an official page
        Edition(2018, ("1", "2", "3", "4"), "H29"),
        Edition(2019, ("1", "2", "3", "4"), "H30", task1=_TASK1_2019, task2=_TASK2_2019),
        Edition(2020, ("1", "2", "3", "4"), "R01", task1=_TASK1_2020, task2=_TASK2),
        Edition(2021, ("1", "2", "3", "4", "5"), "R02", task1=_TASK1_2021, task2=_TASK2),
        Edition(2022, ("1", "2", "3", "4"), "R03", task1=_FLAT, task2=_TASK2),
        Edition(2023, ("1", "2", "3", "4"), "R04", task1=_FLAT, task2=_TASK2),
        Edition(2024, ("1", "2", "3", "4"), "R05", task1=_FLAT, task2=_TASK2),
        Edition(2025, ("1", "2", "3", "4", "pilot"), "R06", task1=_FLAT, task2=_TASK2),
        Edition(2026, ("1", "2", "3", "4", "pilot"), "R07", ("ja",), task1=_FLAT, task2=_TASK2),
    )
}


#: Editions whose files are known to exist but are not registered, and why.
NOT_REGISTERED: dict[int, str] = {
    2017: "its Civil Code comes as civcode*.xml, whose structure is not known from any public copy, so a 2017 "
    "dataset would have no documents; its training exams (riteval_H18.xml ... riteval_H27.xml) and its test exam "
    "H28 (Testdata.xml) are labelled in every later package: use e.g. coliee/task3/2018/train/h28",
}


def editions_of(task: TaskLike) -> list[int]:
    """The years in which ``task`` ran."""
    key = task_of(task).key
    return [year for year, e in EDITIONS.items() if key in e.tasks]


def statute_exams() -> tuple[str, ...]:
    """Every bar exam up to the newest edition's, in order: Heisei 18-30, then Reiwa 1, 2, ... (H31 is R01)."""
    last = int(EDITIONS[max(EDITIONS)].statute_exam[1:])
    return tuple(f"H{n}" for n in range(18, 31)) + tuple(f"R{n:02d}" for n in range(1, last + 1))


def edition_dataset(task: TaskLike, year: int, split: str = "test") -> str:
    """The id of ``year``'s ``split`` of ``task`` (in Japanese where the statute package has no English)."""
    t = task_of(task)
    english = "en" in EDITIONS[year].statute_languages
    return dataset_id(t.key, year, split, "" if not t.statute or english else "ja")


# --- sizes of complete official copies ---------------------------------------------------------------


class Sizes(NamedTuple):
    """What a complete official copy holds (COLIEE-SPEC sections 6 and 8); ``None`` where not known."""

    docs: Optional[int] = None
    queries: Optional[int] = None
    """Queries with gold (the released questions without gold are not queries)."""
    qrels: Optional[int] = None
    scoreddocs: Optional[int] = None
    """Task 1's candidates: in a flat pool, every other case of the pool for each query (queries x (docs - 1));
    Task 2's: the docs (each paragraph is a candidate of its own case's query only)."""


#: Questions with gold per exam: the English riteval files of the 2025 package (H18-R05) and the
#: Japanese simple/ files of the 2026 package (H18-R06).
_EN_2025 = (36, 37, 41, 54, 47, 41, 79, 60, 74, 49, 49, 58, 70, 111, 81, 109, 101, 109)
_JA_2026 = (28, 36, 35, 45, 46, 41, 79, 57, 71, 48, 47, 41, 67, 110, 81, 108, 101, 109, 73)


def _exam_sizes(docs: Optional[int], questions: int, answers: bool) -> Sizes:
    """An exam set's sizes: with ``answers`` gold (Tasks 4, 5), one gold answer per question."""
    return Sizes(docs, questions, questions if answers else None)


def _known_sizes() -> dict[str, Sizes]:
    sizes = {
        # Task 1: 2022's train list counts 14 duplicate entries in its 4,192 (which way is not known)
        "coliee/task1/2022/train": Sizes(queries=898),
        "coliee/task1/2022/test": Sizes(queries=300, qrels=1263),
        "coliee/task1/2023/train": Sizes(4400, 959, 4451, 959 * 4399),
        "coliee/task1/2023/test": Sizes(queries=319, qrels=859),
        "coliee/task1/2024/test": Sizes(queries=400, qrels=1562),
        "coliee/task1/2025/train": Sizes(7350, 1678, 6844, 1678 * 7349),
        "coliee/task1/2025/test": Sizes(2159, 400, 1759, 400 * 2158),
        "coliee/task1/2026/train": Sizes(7708, 2001, 8251, 2001 * 7707),
        "coliee/task1/2026/test": Sizes(1848, 400, 1750, 400 * 1847),
        "coliee/task2/2024/test": Sizes(queries=100, qrels=147),
        "coliee/task2/2025/train": Sizes(29434, 825, 1001, 29434),
        "coliee/task2/2025/test": Sizes(3283, 100, 181, 3283),
        # 2026's training set is 2025's train and test together (COLIEE-SPEC section 3)
        "coliee/task2/2026/train": Sizes(29434 + 3283, 825 + 100, 1001 + 181, 29434 + 3283),
        "coliee/task2/2026/test": Sizes(queries=100, qrels=294),
    }
    en, ja = dict(zip(statute_exams(), _EN_2025)), dict(zip(statute_exams(), _JA_2026))
    for task in ("3", "4"):
        answers = task_of(task).gold == "answers"
        sizes[f"coliee/task{task}/2025/train"] = _exam_sizes(768, sum(en.values()), answers)
        sizes[f"coliee/task{task}/2024/test"] = _exam_sizes(768, en["R05"], answers)
        sizes[f"coliee/task{task}/2026/train/ja"] = Sizes(
            787, sum(ja.values()), sum(ja.values()) if answers else 1540
        )
        sizes[f"coliee/task{task}/2026/test/ja"] = Sizes(docs=787)
        sizes[f"coliee/task{task}/2025/test/ja"] = _exam_sizes(None, ja["R06"], answers)
        for exam, n in en.items():
            sizes[f"coliee/task{task}/2025/train/{exam.lower()}"] = _exam_sizes(768, n, answers)
        for exam, n in ja.items():
            sizes[f"coliee/task{task}/2026/train/{exam.lower()}/ja"] = _exam_sizes(787, n, answers)
    return sizes


#: Sizes of complete official copies by dataset id (per-exam subsets in lower case).
KNOWN_SIZES: dict[str, Sizes] = _known_sizes()


def known_sizes(dataset_id: str) -> Sizes:
    return KNOWN_SIZES.get(dataset_id.lower(), Sizes())


# --- submission file names -> their edition --------------------------------------------------------

_TASK_IN_NAME = re.compile(r"task\s*([1-5])(?!\d)", re.IGNORECASE)
_EXAM_IN_NAME = re.compile(r"H\d{2}|R\d{2}")
#: A year in a file or folder name (``task1_test_files_2024``), and a package named by its edition
#: (``COLIEE2025statute_data-English``): how the data root and file names tell the edition.
YEAR_IN_NAME = re.compile(r"(?<!\d)(20[12]\d)(?!\d)")
EDITION_IN_NAME = re.compile(r"coliee[ _-]?(20\d\d)", re.IGNORECASE)


class NameSays(NamedTuple):
    """What a submission file's name says: ``R04.task4.RUN`` is the exam R04's Task 4 run ``RUN``."""

    task: Optional[str]
    """The task key of a ``task1``, ``task3-L``, ``task4`` component."""
    exam: Optional[str]
    """An exam named before the task (``R04.task4.X``), or first without a task (``H30.bert-large``); never
    from the run tag (``task1.R04`` is the Task 1 run ``R04``)."""
    year: Optional[int]
    """A year in the name up to the task (``task1_test_answer_2024_run1.txt``), never in the run tag."""
    system: str
    """The run's name: what follows the task (or the exam), without ``.txt``; else the whole name."""


def name_says(name: str) -> NameSays:
    """The one rule from a file name to (task, exam, year, system), for every door that reads names."""
    stem = name[:-4] if name.lower().endswith(".txt") else name
    parts = stem.split(".")
    at = next((i for i, p in enumerate(parts) if _TASK_IN_NAME.search(p)), None)
    head = parts[: at + 1] if at is not None else parts[:1]
    task = _TASK_IN_NAME.search(parts[at]) if at is not None else None
    exam = next((p for p in head if _EXAM_IN_NAME.fullmatch(p)), None)
    year = next((int(m.group(1)) for p in head if (m := YEAR_IN_NAME.search(p))), None)
    tail = parts[at + 1 :] if at is not None else parts[1:] if exam else []
    return NameSays(task.group(1) if task else None, exam, year, ".".join(tail) or stem)


def edition_of_file(
    name: str, year: Optional[int] = None, task: Optional[TaskLike] = None
) -> Optional[tuple[str, int]]:
    """``(task, year)`` that an official submission file name says (:func:`name_says`): ``R04.task4.X`` ->
    (4, 2023), as R04 was 2023's test exam; ``task1_test_answer_2024_run1.txt`` -> (1, 2024); a name without
    its year takes ``year``, one without its task (a team's ``H30.bert-large``) takes ``task``. ``None`` when
    the name contradicts ``task``, or the task or the year is not known."""
    said = name_says(name)
    key = said.task or (task_of(task).key if task is not None else None)
    if key is None or (task is not None and key != task_of(task).key):
        return None
    if said.exam is not None:
        found = next((e.year for e in EDITIONS.values() if e.statute_exam == said.exam), None)
    else:
        found = said.year or year
    if found is None or found not in editions_of(key):
        return None
    return key, found
