"""COLIEE statute law: Task 3 (article retrieval), Task 4 (Y/N entailment), Task 5 (Y/N, 2021).

Data (COLIEE-SPEC section 4): the organisers' packages ``COLIEE{year}statute_data-English/`` and
``-Japanese/`` with ``train/riteval_{exam}_{en|jp}.xml`` and ``text/civil_code_{en|jp}-*.txt``, and the
test questions (``riteval_{exam}`` or ``TestData_{en|jp}.xml``). Test gold is a labelled copy of the
test exam's riteval file from a later package.

Dataset ids: ``coliee/task3/{year}/{train|test}``, ``coliee/task4/...``, ``coliee/task5/2021/test``;
Japanese with a ``/ja`` suffix (2026 is Japanese only); per-exam subsets ``.../train/h30[/ja]``; the
Civil Code alone, the docs parent of them all: ``coliee/civil-code/{year}[/ja]``.
"""

import functools
from collections.abc import Iterator
from types import SimpleNamespace
from typing import cast

import ir_datasets
from ir_datasets.datasets.base import Dataset

from ir_coliee.data.catalog import EXAM_SUBSET, Registered, catalog, civil_code_of, exam_subset
from ir_coliee.data.datasets.common import (
    Docs,
    Documentation,
    Qrels,
    Queries,
    TextQuery,
    register,
    register_parent,
)
from ir_coliee.data.files import DataFile, FileCache
from ir_coliee.data.statute_files import LANGUAGES, StatuteFiles, StatuteSet
from ir_coliee.formats.civil_code import ColieeArticle, parse_civil_code
from ir_coliee.formats.civil_xml import parse_civil_xml, parse_egov_law
from ir_coliee.model import ANSWERS, CIVIL_CODE, DOCUMENTS, NAME, GoldKind, civil_code_id
from ir_coliee.model import dataset_id as model_dataset_id

_logger = ir_datasets.log.easy()

QREL_DEFS: dict[GoldKind, dict[int, str]] = {
    DOCUMENTS: {
        1: "Relevant: the question can be answered Yes/No, entailed from the meaning of the article "
        "(alone or combined with the other relevant articles).",
    },
    ANSWERS: {
        1: "The gold answer: doc_id Y (the question is confirmed true by the relevant articles) or N (false).",
    },
}


class ColieeQuestion(TextQuery):
    """A bar-exam question as a query: its id as in the exam file and in runs (``H30-1-A``,
    ``R03-01-E``), and the question (``t2``)."""


# --- ir_datasets handlers ------------------------------------------------------------------------------


def _articles(f: DataFile) -> Iterator[ColieeArticle]:
    """The live articles of a Civil Code file: the text file, the organisers' ``civil.xml`` or e-Gov law XML."""
    _logger.debug(f"[coliee] reading Civil Code articles from {f.describe()}")
    text = f.read_text()
    if f.name.endswith(".txt"):
        yield from parse_civil_code(text)
    elif f.name == "civil.xml":
        yield from parse_civil_xml(text, f.describe())
    else:
        yield from parse_egov_law(text, f.describe())


@FileCache
def _by_id(f: DataFile) -> dict[str, ColieeArticle]:
    """Lookups by article id, kept while the Civil Code file is unchanged."""
    return {a.doc_id: a for a in _articles(f)}


def civil_code_docs(files: StatuteFiles) -> Docs:
    """The Civil Code articles of an edition (deleted articles are not documents): one corpus per edition and
    language, whichever dataset reads it, so Tasks 3 and 4, train and test, share one index."""
    # the Civil Code file is found when the articles are first read, or looked up
    stream = lambda: _articles(files.civil_code())  # noqa: E731
    by_id = lambda: _by_id(files.civil_code())  # noqa: E731
    namespace = f"{NAME}/civil-code/{files.iso}"
    return Docs(ColieeArticle, namespace, files.iso, (files.year, files.lang), stream, by_id)


def _graded(exams: StatuteSet) -> Iterator[ColieeQuestion]:
    """The questions that have gold (a labelled copy lists them), or every released question while
    no labelled copy exists (a test set before its gold is out). The 2019 H30 test input held 98
    questions, the labelled H30 of later packages 70: the queries are those 70."""
    for exam in exams.exams:
        graded = exams.graded(exam)
        for q in exams.questions_of_exam(exam):
            if graded is None or q.query_id in graded:
                yield ColieeQuestion(q.query_id, q.text)


# --- registration --------------------------------------------------------------------------------------


def statute_dataset(entry: Registered) -> Dataset:
    """The ir_datasets entry of a statute dataset of the catalog."""
    exams = cast(StatuteSet, entry.files)
    docs = civil_code_docs(exams.files) if exams.collection else None
    graded = functools.partial(_graded, exams)
    queries = Queries(ColieeQuestion, f"{NAME}/statute", exams.files.iso, graded)
    # the full records (label, t1 text, gold articles) of every released question
    questions = SimpleNamespace(questions_iter=exams.questions)
    extra = {
        "exams": ", ".join(exams.exams),
        "language": LANGUAGES[exams.files.lang][0],
        "split": entry.split,
    }
    doc = Documentation(f"task{entry.task}", entry.task, entry.year, extra)
    return Dataset(docs, queries, questions, Qrels(exams, QREL_DEFS[exams.gold]), doc)


def register_statute() -> None:
    """Register every statute dataset id (idempotent; reads no file), the Civil Code each edition's datasets
    read per language (the per-exam subsets' pattern is registered once, when this module is imported)."""
    codes: dict[tuple[int, str], None] = {}  # (edition, language), in order: the handlers' corpus
    for entry in catalog().values():
        if isinstance(entry.files, StatuteSet):
            register(entry, statute_dataset(entry))
            code = civil_code_of(entry)
            if code is not None:
                codes[code] = None
                # the English code under the task's id, as registered before it had an id of its own
                if not code[1]:
                    task_id = model_dataset_id(entry.task, entry.year, "")
                    docs = civil_code_docs(StatuteFiles(task_id, entry.year, ""))
                    about = {"part": "the Civil Code"}
                    doc = Documentation(f"task{entry.task}", entry.task, entry.year, about)
                    register_parent(task_id, docs, doc)
    # the Civil Code of an edition in one language as a dataset of documents only, the docs parent of every
    # dataset reading it (train and test, Tasks 3 and 4, per-exam subsets) through a link, as no id is
    # above them all
    for year, lang in codes:
        extra = {
            "language": LANGUAGES[lang][0],
            "part": f"the Civil Code of the {year} statute tasks",
        }
        code_id = civil_code_id(year, lang)
        docs = civil_code_docs(StatuteFiles(code_id, year, lang))
        register_parent(code_id, docs, Documentation(CIVIL_CODE, None, year, extra), linked=True)


def _exam_subset(dataset_id: str, groups: tuple[str, ...]) -> Dataset:
    entry = exam_subset(dataset_id)
    if entry is None:
        _, year, exam, _ = groups
        raise KeyError(f"{dataset_id}: the {year} package has no training exam {exam.upper()}")
    return register(entry, statute_dataset(entry), with_host=False)


#: The per-exam training subsets, loaded by id when asked for (once per process: a module is imported once).
ir_datasets.registry.register_pattern(EXAM_SUBSET, _exam_subset)
