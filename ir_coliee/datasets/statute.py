"""COLIEE statute law: Task 3 (article retrieval), Task 4 (Y/N entailment), Task 5 (Y/N, 2021).

Data (COLIEE-SPEC section 4): the organisers' packages ``COLIEE{year}statute_data-English/`` and
``-Japanese/`` with ``train/riteval_{exam}_{en|jp}.xml`` and ``text/civil_code_{en|jp}-*.txt``, and the
test questions (``riteval_{exam}`` or ``TestData_{en|jp}.xml``). Test gold is a labelled copy of the
test exam's riteval file from a later package.

Dataset ids: ``coliee/task3/{year}/{train|test}``, ``coliee/task4/...``, ``coliee/task5/2021/test``;
Japanese with a ``/ja`` suffix (2026 is Japanese only); per-exam subsets ``.../train/h30[/ja]``.
"""

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, Optional

import ir_datasets
from ir_datasets.datasets.base import Dataset
from ir_datasets.formats import BaseDocs, BaseQrels, BaseQueries, TrecQrel

from ir_coliee.datasets.common import NAME, DictDocstore, DocsIter, Documentation, Source, register, source_of
from ir_coliee.datasets.files import LOCATOR, DataFile, Locator, missing
from ir_coliee.formats.civil_code import ColieeArticle, parse_civil_code
from ir_coliee.formats.civil_xml import parse_civil_xml, parse_egov_law
from ir_coliee.formats.riteval import ColieeStatuteQuestion, parse_riteval
from ir_coliee.model import DOCUMENTS, EDITIONS, STATUTE_FILES, TASKS, editions_of, statute_exams, task_of
from ir_coliee.model import dataset_id as model_dataset_id
from ir_coliee.textfile import decode_text

_logger = ir_datasets.log.easy()

#: Bar exams in order: Heisei 18-30, then Reiwa 1, 2, ... (H31 and R01 are one year).
EXAMS: tuple[str, ...] = statute_exams()
#: id suffix -> (language name, language code of the model and of ir_datasets)
LANGUAGES: dict[str, tuple[str, str]] = {"": ("English", "en"), "ja": ("Japanese", "ja")}

QREL_DEFS_ARTICLES = {
    1: "Relevant: the question can be answered Yes/No, entailed from the meaning of the article "
    "(alone or combined with the other relevant articles).",
}
QREL_DEFS_ANSWERS = {
    1: "The gold answer: doc_id Y (the question is confirmed true by the relevant articles) or N (false).",
}


class ColieeQuestion(NamedTuple):
    """A bar-exam question as a query: exactly ``(query_id, text)``, so PyTerrier takes it as a topic."""

    query_id: str
    """The question id as in the exam file and in runs: ``H30-1-A``, ``R03-01-E``."""
    text: str
    """The question (``t2``)."""

    def default_text(self) -> str:
        """The question."""
        return self.text


def test_exam(year: int) -> str:
    return EDITIONS[year].statute_exam


def train_exams(year: int) -> tuple[str, ...]:
    """The labelled exams of an edition's package: every exam before its test exam."""
    return EXAMS[: EXAMS.index(test_exam(year))]


def _has_language(year: int, lang: str) -> bool:
    return LANGUAGES[lang][1] in EDITIONS[year].statute_languages


# --- finding the files ---------------------------------------------------------------------------------

_PARSED: dict[tuple[str, int], list[ColieeStatuteQuestion]] = {}


def _questions_of(f: DataFile) -> list[ColieeStatuteQuestion]:
    key = f.version()
    if key not in _PARSED:
        _PARSED[key] = parse_riteval(decode_text(f.read_bytes(), f.describe()), f.describe())
    return _PARSED[key]


def _labelled(f: DataFile) -> bool:
    return any(q.label for q in _questions_of(f))


class StatuteFiles:
    """Which file serves each part of an edition, in one language.

    The edition's own package wins; when it is absent, later packages serve (closest first), then
    files of no recognisable package, then earlier packages. Gold comes from the first labelled copy.
    """

    def __init__(self, dataset_id: str, year: int, lang: str, locator: Locator = LOCATOR):
        self.dataset_id, self.year, self.lang, self.locator = dataset_id, year, lang, locator
        self.iso = LANGUAGES[lang][1]

    def _ranked(self, found: Sequence[tuple[DataFile, int]]) -> list[DataFile]:
        """Files ``(file, preference of its name)`` by edition first, then by the preference, then
        (copies of one file) by the data root's copy rule."""
        preference = dict(found)

        def rank(f: DataFile) -> tuple[int, int, int]:
            e = f.edition
            if e == self.year:
                return (0, 0, preference[f])
            if e is not None and e > self.year:
                return (1, e, preference[f])
            if e is None:
                return (2, 0, preference[f])
            return (3, -e, preference[f])

        return self.locator.pick(preference, rank)

    def civil_code_names(self) -> list[str]:
        return list(STATUTE_FILES.civil_code[self.iso])

    def civil_code(self) -> DataFile:
        """The Civil Code: the closest edition's copy, and within one package the first kind of file listed."""
        names = self.civil_code_names()
        found = [(f, names.index(n)) for n in names for f in self.locator.find(n)]
        if not found:
            what = f"the Civil Code ({STATUTE_FILES.civil_code_note[self.iso]})"
            raise missing(what, names, self.dataset_id)
        return self._ranked(found)[0]

    def exam_names(self, exam: str) -> list[str]:
        spellings = (exam, *STATUTE_FILES.aliases.get(exam, ()))
        return [t.format(exam=e) for t in STATUTE_FILES.exams[self.iso] for e in spellings]

    def _exam_files(self, exam: str) -> list[DataFile]:
        names = self.exam_names(exam)
        found = [(f, names.index(n)) for n in names for f in self.locator.find(n)]
        if exam == test_exam(self.year):
            for name in STATUTE_FILES.test_input[self.iso]:
                found += [(f, len(names)) for f in self.locator.find(name) if f.edition == self.year]
        return self._ranked(found)

    def t1_texts(self, exam: str) -> dict[str, str]:
        """``t1`` text of each question from the first copy of the exam that has it."""
        texts: dict[str, str] = {}
        for f in self._exam_files(exam):
            for q in _questions_of(f):
                if q.articles_text:
                    texts.setdefault(q.query_id, q.articles_text)
        return texts

    def exam_input(self, exam: str) -> DataFile:
        found = self._exam_files(exam)
        if not found:
            raise missing(f"the {exam} exam questions", self.exam_names(exam), self.dataset_id)
        return found[0]

    def exam_gold(self, exam: str) -> DataFile:
        labelled = [f for f in self._exam_files(exam) if _labelled(f)]
        if labelled:
            return labelled[0]
        raise missing(
            f"a labelled copy of the {exam} exam (the gold, which a later package holds)",
            self.exam_names(exam),
            self.dataset_id,
        )


# --- ir_datasets handlers ------------------------------------------------------------------------------


class CivilCodeDocs(BaseDocs):
    """The Civil Code articles of an edition (deleted articles are not documents)."""

    def __init__(self, files: StatuteFiles):
        super().__init__()
        self._files = files
        self._store: Optional[tuple[tuple[str, int], DictDocstore]] = None

    def docs_iter(self) -> DocsIter:
        return DocsIter(self._stream, lambda key: iter(self.docs_store().docs()[key]))

    def _stream(self) -> Iterator[ColieeArticle]:
        f = self._files.civil_code()
        _logger.debug(f"[coliee] reading Civil Code articles from {f.describe()}")
        text = decode_text(f.read_bytes(), f.describe())
        if f.name.endswith(".txt"):
            yield from parse_civil_code(text)
        elif f.name == "civil.xml":
            yield from parse_civil_xml(text, f.describe())
        else:
            yield from parse_egov_law(text, f.describe())

    def docs_cls(self) -> type:
        return ColieeArticle

    def docs_store(self, field: str = "doc_id") -> DictDocstore:
        """Lookups by article id; built on first use and kept while the Civil Code file is unchanged."""
        f = self._files.civil_code()
        key = f.version()
        if self._store is None or self._store[0] != key:
            self._store = (key, DictDocstore(self._stream, ColieeArticle))
        return self._store[1]

    def docs_count(self) -> Optional[int]:
        return len(self.docs_store().docs())

    def docs_namespace(self) -> str:
        return f"{NAME}/civil-code/{self._files.iso}"

    def docs_lang(self) -> str:
        return LANGUAGES[self._files.lang][1]

    def data_sources(self) -> list[Source]:
        return [source_of("docs", self._files.civil_code)]


class StatuteQuestions(BaseQueries):
    """The questions of some exams. ``questions_iter()`` gives the full records (label, t1 text, gold)."""

    def __init__(self, files: StatuteFiles, exams: Sequence[str]):
        super().__init__()
        self._files, self._exams = files, tuple(exams)

    def questions_iter(self) -> Iterator[ColieeStatuteQuestion]:
        """Every released question with its Y/N label, the ``t1`` articles text and the gold article ids
        (from the labelled copy when the input file has no labels; ``t1`` text from another copy of
        the exam when the one read has none, as 2026's ``simple/`` files)."""
        for exam in self._exams:
            yield from self._questions_of_exam(exam)

    def _questions_of_exam(self, exam: str) -> list[ColieeStatuteQuestion]:
        questions = _questions_of(self._files.exam_input(exam))
        if not any(q.label for q in questions):
            try:
                gold = {q.query_id: q for q in _questions_of(self._files.exam_gold(exam))}
            except LookupError:
                gold = {}
            questions = [gold.get(q.query_id, q) for q in questions]
        if any(not q.articles_text for q in questions):
            texts = self._files.t1_texts(exam)
            questions = [
                q if q.articles_text else q._replace(articles_text=texts.get(q.query_id, "")) for q in questions
            ]
        return questions

    def queries_iter(self) -> Iterator[ColieeQuestion]:
        """The questions that have gold (a labelled copy lists them), or every released question while
        no labelled copy exists (a test set before its gold is out). The 2019 H30 test input held 98
        questions, the labelled H30 of later packages 70: the queries are those 70."""
        for exam in self._exams:
            graded = self._graded(exam)
            for q in self._questions_of_exam(exam):
                if graded is None or q.query_id in graded:
                    yield ColieeQuestion(q.query_id, q.text)

    def _graded(self, exam: str) -> Optional[set[str]]:
        try:
            return {q.query_id for q in _questions_of(self._files.exam_gold(exam)) if q.label}
        except LookupError:
            return None

    def queries_cls(self) -> type:
        return ColieeQuestion

    def queries_namespace(self) -> str:
        return f"{NAME}/statute"

    def queries_lang(self) -> str:
        return LANGUAGES[self._files.lang][1]

    def data_sources(self) -> list[Source]:
        return [source_of(f"queries {exam}", functools.partial(self._files.exam_input, exam)) for exam in self._exams]


class _GoldQrels(BaseQrels):
    def __init__(self, questions: StatuteQuestions):
        super().__init__()
        self._questions = questions

    def _gold_questions(self) -> Iterator[ColieeStatuteQuestion]:
        files = self._questions._files
        for exam in self._questions._exams:
            asked = {q.query_id for q in _questions_of(files.exam_input(exam))}
            for q in _questions_of(files.exam_gold(exam)):
                if q.query_id in asked:  # a question removed from the inputs is not scored
                    yield q

    def qrels_cls(self) -> type:
        return TrecQrel

    def data_sources(self) -> list[Source]:
        files = self._questions._files
        return [source_of(f"qrels {e}", functools.partial(files.exam_gold, e)) for e in self._questions._exams]


class ArticleQrels(_GoldQrels):
    """Task 3 gold: the articles whose headers appear in each question's ``t1`` (or ``<article>`` elements).
    Gold article ids absent from the Civil Code file are kept: they are real gold."""

    def qrels_iter(self) -> Iterator[TrecQrel]:
        for q in self._gold_questions():
            for article in q.articles:
                yield TrecQrel(q.query_id, article, 1, "0")

    def qrels_defs(self) -> dict[int, str]:
        return QREL_DEFS_ARTICLES


class AnswerQrels(_GoldQrels):
    """Task 4 / 5 gold answers in the ``AnswerAccuracy`` encoding: ``(question, Y|N, 1)``."""

    def qrels_iter(self) -> Iterator[TrecQrel]:
        for q in self._gold_questions():
            if q.label:
                yield TrecQrel(q.query_id, q.label, 1, "0")

    def qrels_defs(self) -> dict[int, str]:
        return QREL_DEFS_ANSWERS


# --- registration --------------------------------------------------------------------------------------


def statute_dataset(
    dataset_id: str, task: str, year: int, exams: Sequence[str], lang: str, split: str
) -> tuple[Dataset, Callable[[], list[Source]]]:
    """The dataset of some exams of an edition, and the function that lists its files."""
    task_record = task_of(task)
    files = StatuteFiles(dataset_id, year, lang)
    questions = StatuteQuestions(files, exams)
    qrels = ArticleQrels(questions) if task_record.gold == DOCUMENTS else AnswerQrels(questions)
    docs = CivilCodeDocs(files) if task_record.collection else None
    doc = Documentation(
        f"task{task}",
        task,
        year,
        {"exams": ", ".join(exams), "language": LANGUAGES[lang][0], "split": split},
    )

    def sources() -> list[Source]:
        return [*(docs.data_sources() if docs else []), *questions.data_sources(), *qrels.data_sources()]

    return Dataset(docs, questions, qrels, doc), sources


#: Per-exam training subsets (not listed by ``ir_datasets list``; loadable by id).
EXAM_SUBSET = rf"^{NAME}/task([34])/(\d{{4}})/train/([hHrR]\d{{1,2}})(?:/(ja))?$"
_PATTERN_REGISTERED = False


def register_statute() -> None:
    """Register every statute dataset id (idempotent; reads no file)."""
    for task in (t.key for t in TASKS.values() if t.statute):
        for year in editions_of(task):
            for lang in LANGUAGES:
                if not _has_language(year, lang):
                    continue
                exams = {"test": (test_exam(year),), "train": train_exams(year)}
                for split in task_of(task).splits:
                    dataset_id = model_dataset_id(task, year, split, lang)
                    dataset, sources = statute_dataset(dataset_id, task, year, exams[split], lang, split)
                    register(dataset_id, dataset, task, year, sources)
    global _PATTERN_REGISTERED
    if not _PATTERN_REGISTERED:
        ir_datasets.registry.register_pattern(EXAM_SUBSET, _exam_subset)
        _PATTERN_REGISTERED = True


def _exam_subset(dataset_id: str, groups: tuple[str, ...]) -> Dataset:
    task, year_text, exam_text, lang = groups
    year, exam = int(year_text), exam_text.upper()
    if year not in editions_of(task) or exam not in train_exams(year) or not _has_language(year, lang or ""):
        raise KeyError(f"{dataset_id}: the {year} package has no training exam {exam}")
    dataset, sources = statute_dataset(dataset_id, task, year, [exam], lang or "", "train")
    return register(dataset_id, dataset, task, year, sources, with_host=False)
