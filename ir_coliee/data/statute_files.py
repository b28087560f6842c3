"""Which statute file serves each part of an edition, in one language, and an exam set's gold: free of
ir_datasets (the ir_datasets entries in :mod:`ir_coliee.data.datasets.statute` are built on these)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import NamedTuple, Optional

from ir_measures import Qrel

from ir_coliee.data.files import DataFile, FileCache
from ir_coliee.data.locator import LOCATOR, Source, first_of, source_of
from ir_coliee.formats.riteval import ColieeStatuteQuestion, parse_riteval
from ir_coliee.model import DOCUMENTS, EDITIONS, STATUTE_FILES, GoldKind, statute_exams

#: Bar exams in order: Heisei 18-30, then Reiwa 1, 2, ... (H31 and R01 are one year).
EXAMS: tuple[str, ...] = statute_exams()
#: id suffix -> (language name, language code of the model and of ir_datasets)
LANGUAGES: dict[str, tuple[str, str]] = {"": ("English", "en"), "ja": ("Japanese", "ja")}


def train_exams(year: int) -> tuple[str, ...]:
    """The labelled exams of an edition's package: every exam before its test exam."""
    return EXAMS[: EXAMS.index(EDITIONS[year].statute_exam)]


def has_language(year: int, lang: str) -> bool:
    return LANGUAGES[lang][1] in EDITIONS[year].statute_languages


# --- finding the files ---------------------------------------------------------------------------------


@FileCache
def _questions_of(f: DataFile) -> list[ColieeStatuteQuestion]:
    return parse_riteval(f.read_text(), f.describe())


class StatuteFiles:
    """Which file serves each part of an edition, in one language.

    The edition's own package wins; when it is absent, later packages serve (closest first), then
    files of no recognisable package, then earlier packages. Gold comes from the first labelled copy.
    """

    def __init__(self, dataset_id: str, year: int, lang: str):
        self.dataset_id, self.year, self.lang, self.locator = dataset_id, year, lang, LOCATOR
        self.iso = LANGUAGES[lang][1]

    def _ranked(self, names: Sequence[str], own: Sequence[str] = ()) -> list[DataFile]:
        """The files under ``names`` (and under ``own``, the edition's own copies only, after them) by edition
        first, then by the first name they are under, then (copies of one file) by the data root's copy rule."""
        preference = {f: i for i, name in enumerate(names) for f in self.locator.find(name)}
        own_copies = (f for name in own for f in self.locator.find(name) if f.edition == self.year)
        preference.update((f, len(names)) for f in own_copies)

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

    def civil_code(self) -> DataFile:
        """The Civil Code: the closest edition's copy, and within one package the first kind of file listed."""
        names = STATUTE_FILES.civil_code[self.iso]
        what = f"the Civil Code ({STATUTE_FILES.civil_code_note[self.iso]})"
        return first_of(self._ranked(names), what, list(names), self.dataset_id)

    def exam_names(self, exam: str) -> list[str]:
        """The exam's own files in this language; none where its gold is only elsewhere (no English R06 file
        was distributed: the English R06 questions are ``TestData_en.xml`` of the 2025 package)."""
        if exam in STATUTE_FILES.gold_elsewhere[self.iso]:
            return []
        spellings = (exam, *STATUTE_FILES.aliases.get(exam, ()))
        return [t.format(exam=e) for t in STATUTE_FILES.exams[self.iso] for e in spellings]

    def gold_names(self, exam: str) -> list[str]:
        """The files that hold an exam's gold: its own, or those of :data:`STATUTE_FILES`'s ``gold_elsewhere``."""
        return list(STATUTE_FILES.gold_elsewhere[self.iso].get(exam, ())) or self.exam_names(exam)

    def _test_input(self, exam: str) -> tuple[str, ...]:
        """The edition's unlabelled test input, when ``exam`` is its test exam."""
        return (
            STATUTE_FILES.test_input[self.iso] if exam == EDITIONS[self.year].statute_exam else ()
        )

    def _exam_files(self, exam: str, names: Sequence[str] = ()) -> list[DataFile]:
        """The copies of an exam (under ``names``, by default its own; the edition's unlabelled test input
        too), best first."""
        return self._ranked(names or self.exam_names(exam), self._test_input(exam))

    def t1_texts(self, exam: str) -> dict[str, str]:
        """``t1`` text of each question from the first copy of the exam that has it."""
        texts: dict[str, str] = {}
        for f in self._exam_files(exam):
            for q in _questions_of(f):
                if q.articles_text:
                    texts.setdefault(q.query_id, q.articles_text)
        return texts

    def exam_input(self, exam: str) -> DataFile:
        names = [*self.exam_names(exam), *self._test_input(exam)]
        what = f"the {exam} exam questions"
        return first_of(self._exam_files(exam), what, names, self.dataset_id)

    def exam_gold(self, exam: str) -> DataFile:
        """The first labelled copy of the exam among :meth:`gold_names`."""
        copies = self._exam_files(exam, self.gold_names(exam))
        labelled = [f for f in copies if any(q.label for q in _questions_of(f))]
        what = f"a labelled copy of the {exam} exam (its gold)"
        return first_of(labelled, what, self.gold_names(exam), self.dataset_id)


def _labelled_as(
    question: ColieeStatuteQuestion, gold: Optional[ColieeStatuteQuestion]
) -> ColieeStatuteQuestion:
    """``question`` with the label and gold articles of its labelled copy (which may be in another language:
    the text stays the dataset's)."""
    return question if gold is None else question._replace(label=gold.label, articles=gold.articles)


class StatuteSet(NamedTuple):
    """What one statute dataset id stands for: some exams of an edition in one language, and the kind of
    gold its questions are scored on."""

    files: StatuteFiles
    exams: tuple[str, ...]
    gold: GoldKind
    """``documents`` (Task 3: the gold articles) or ``answers`` (Tasks 4 and 5: Y/N)."""
    collection: bool
    """The Civil Code is the dataset's documents (not for Task 5)."""

    def questions_of_exam(self, exam: str) -> list[ColieeStatuteQuestion]:
        """An exam's released questions, labelled from the gold copy when the input has no labels, with
        ``t1`` text from another copy of the exam when the one read has none (2026's ``simple/`` files)."""
        questions = _questions_of(self.files.exam_input(exam))
        if not any(q.label for q in questions):
            try:
                gold = {q.query_id: q for q in _questions_of(self.files.exam_gold(exam))}
            except LookupError:
                gold = {}
            questions = [_labelled_as(q, gold.get(q.query_id)) for q in questions]
        if any(not q.articles_text for q in questions):
            texts = self.files.t1_texts(exam)
            questions = [
                q if q.articles_text else q._replace(articles_text=texts.get(q.query_id, ""))
                for q in questions
            ]
        return questions

    def questions(self) -> Iterator[ColieeStatuteQuestion]:
        """Every released question with its Y/N label, the ``t1`` articles text and the gold article ids
        (from the labelled copy when the input file has no labels; ``t1`` text from another copy of
        the exam when the one read has none, as 2026's ``simple/`` files)."""
        for exam in self.exams:
            yield from self.questions_of_exam(exam)

    def released(self) -> list[str]:
        """Every question handed out, with gold or not."""
        return [q.query_id for q in self.questions()]

    def graded(self, exam: str) -> Optional[set[str]]:
        """The questions a labelled copy labels; ``None`` while there is no labelled copy."""
        try:
            return {q.query_id for q in _questions_of(self.files.exam_gold(exam)) if q.label}
        except LookupError:
            return None

    def gold_questions(self) -> Iterator[ColieeStatuteQuestion]:
        """The labelled questions, those removed from the inputs left out (they are not scored); every
        labelled question where the inputs are not under the data root."""
        for exam in self.exams:
            gold = _questions_of(self.files.exam_gold(exam))
            try:
                asked = {q.query_id for q in _questions_of(self.files.exam_input(exam))}
            # the gold alone scores: the 2026 Japanese package without the English one
            except LookupError:
                asked = {q.query_id for q in gold}
            yield from (q for q in gold if q.query_id in asked)

    def gold_note(self) -> str:
        """Which exams' gold is read from another language's files (R06's, from the 2026 Japanese package, for
        the English 2025 test sets): said beside every score, as no file of the dataset's own holds it."""
        borrowed = [(exam, self.files.exam_gold(exam)) for exam in self.exams]
        notes = [
            f"{exam} gold from {f.describe()}"
            for exam, f in borrowed
            if f.name not in self.files.exam_names(exam)
        ]
        if not notes:
            return ""
        return f"{self.files.dataset_id}: the {'; the '.join(notes)} (never distributed in this language; the same question ids)"

    def qrels(self) -> Iterator[Qrel]:
        """Task 3: each gold article (ids absent from the Civil Code file kept: they are real gold);
        Tasks 4 and 5: the gold answer as ``(question, Y|N, 1)``, the ``AnswerAccuracy`` encoding."""
        for q in self.gold_questions():
            if self.gold == DOCUMENTS:
                yield from (Qrel(q.query_id, article, 1) for article in q.articles)
            elif q.label:
                yield Qrel(q.query_id, q.label, 1)

    def sources(self) -> list[Source]:
        files = self.files
        docs = [source_of("docs", files.civil_code)] if self.collection else []
        queries = [
            source_of(f"queries {e}", functools.partial(files.exam_input, e)) for e in self.exams
        ]
        qrels = [source_of(f"qrels {e}", functools.partial(files.exam_gold, e)) for e in self.exams]
        return [*docs, *queries, *qrels]
