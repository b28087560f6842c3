"""COLIEE case law: Task 1 (noticed-case retrieval) and Task 2 (entailing-paragraph identification).

Layouts (COLIEE-SPEC sections 2-3):

* Task 1, 2022-2026: flat folders ``task1_{train|test}_files_{Y}/NNNNNN.txt``; query cases sit among
  the candidates; a query's candidates are every file of its split except itself. Labels
  ``task1_{split}_labels_{Y}.json``; ``task1_test_no_labels_{Y}.json`` lists the test queries.
* Task 1, 2021: one pool ``task1_files/`` shared by the train and test queries.
* Task 1, 2020: one folder per query, ``NNN/base_case.txt`` and ``NNN/candidates/NNN.txt``; candidate
  ``058`` of query ``001`` and of ``002`` are different cases, so document ids are ``001/058``.
* Task 2, 2020-2026: one folder per case, ``{id}/base_case.txt``, ``{id}/entailed_fragment.txt``,
  ``{id}/paragraphs/NNN.txt``; documents are paragraphs with ids ``{case}/{paragraph}``.
* 2019, both tasks: the same per-query folders beside an index ``task1.xml`` / ``task2.xml`` that
  holds the training gold; test gold in ``task{n}_test_golden-labels.xml``.
* 2018 is not supported: its layout is not known well enough to parse safely.

Runs name documents as in the submission format (``001 013 tag``); ``ir_coliee eval`` maps them onto
the scoped ids of these datasets (:func:`ir_coliee.shapes.align` maps runs onto them).
"""

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple, Optional, cast

import ir_datasets
from ir_datasets.datasets.base import Dataset
from ir_datasets.formats import BaseDocs, BaseQrels, BaseQueries, BaseScoredDocs, GenericScoredDoc, TrecQrel
from ir_datasets.indices import Docstore

from ir_coliee.datasets.common import DocsIter, Documentation, Source, register, sliced, source_of
from ir_coliee.datasets.files import LOCATOR, DataFile, Locator, missing
from ir_coliee.errors import ColieeDataError
from ir_coliee.formats.xmlsafe import parse_xml
from ir_coliee.gold import parse_labels
from ir_coliee.model import EDITIONS, CaseLawFiles, editions_of
from ir_coliee.model import dataset_id as model_dataset_id
from ir_coliee.textfile import decode_text, strip_txt

_logger = ir_datasets.log.easy()

SCOPE = "/"
_PARAGRAPH = re.compile(r"^\s*\[(\d+)\]\s*", re.MULTILINE)

QREL_DEFS_NOTICED = {1: "Noticed: the case is cited by (supports the decision of) the query case."}
QREL_DEFS_ENTAILING = {1: "Entailing: the paragraph of the noticed case entails the decision fragment."}


class ColieeCaseDoc(NamedTuple):
    """A case of the Task 1 pool (Federal Court of Canada decisions)."""

    doc_id: str
    """The id as in runs: the file name without ``.txt`` (``000028``); ``001/058`` where candidate
    folders are per query (2020)."""
    text: str
    """The whole case file (paragraphs start with ``[N]``; removed citations read ``<FRAGMENT_SUPPRESSED>``)."""

    def default_text(self) -> str:
        """The case text."""
        return self.text

    def paragraphs(self) -> list[tuple[int, str]]:
        """``(N, text)`` of each paragraph marked ``[N]``; text before the first marker is left out."""
        return paragraphs_of(self.text)


class ColieeCaseQuery(NamedTuple):
    """A query case of Task 1: find the cases it notices."""

    query_id: str
    """The query case's id (``078507``; ``001`` for 2020)."""
    text: str
    """The query case's text."""

    def default_text(self) -> str:
        """The case text."""
        return self.text


class ColieeParagraph(NamedTuple):
    """A paragraph of the noticed case of a Task 2 query."""

    doc_id: str
    """Unique in the collection: ``{case}/{paragraph}`` (``001/013``); runs give ``001 013``."""
    case_id: str
    """The Task 2 case (query) the paragraph belongs to."""
    paragraph: str
    """The paragraph file name without ``.txt`` (``013``), as in runs and label files."""
    text: str
    """The paragraph text (it starts with its original bracketed number, `` [13] ``)."""

    def default_text(self) -> str:
        """The paragraph text."""
        return self.text


class ColieeFragmentQuery(NamedTuple):
    """A Task 2 query: the decision fragment to match against its case's paragraphs."""

    query_id: str
    """The case id (``001``; ids pass 999 in 2026 and are not fixed width)."""
    text: str
    """The entailed fragment (``entailed_fragment.txt``)."""

    def default_text(self) -> str:
        """The entailed fragment."""
        return self.text


class ColieeBaseCase(NamedTuple):
    """The base case of a Task 2 query (context for the fragment), from ``base_cases_iter()``."""

    query_id: str
    """The case id."""
    text: str
    """The base case (``base_case.txt``)."""


def paragraphs_of(text: str) -> list[tuple[int, str]]:
    marks = list(_PARAGRAPH.finditer(text))
    return [
        (int(m.group(1)), text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)].strip())
        for i, m in enumerate(marks)
    ]


def _read(f: DataFile) -> str:
    return decode_text(f.read_bytes(), f.describe())


def _is_text(parts: tuple[str, ...]) -> bool:
    return parts[-1].endswith(".txt") and not parts[-1].startswith(".")


# --- layouts --------------------------------------------------------------------------------------------


class Layout:
    """Where the documents, queries and gold of one split are; subclasses know one file layout."""

    def __init__(self, dataset_id: str, year: int, split: str, files: CaseLawFiles, locator: Locator = LOCATOR):
        self.dataset_id, self.year, self.split, self.files, self.locator = dataset_id, year, split, files, locator
        self.scoped = files.scoped
        self._memo: dict[str, tuple[int, object]] = {}

    def _remember(self, key: str, compute: Callable[[], object]):
        """``compute()`` once per scan of the data root (folder listings are costly to redo per query)."""
        hit = self._memo.get(key)
        if hit is None or hit[0] != self.locator.generation:
            hit = (self.locator.generation, compute())
            self._memo[key] = hit
        return hit[1]

    def _first(self, names: list[str], what: str) -> DataFile:
        for name in names:
            found = self.locator.pick(self.locator.find(name), lambda f: (f.edition != self.year,))
            if found:
                return found[0]
        raise missing(what, names, self.dataset_id)

    def _folder(self, names: list[str], what: str) -> dict[tuple[str, ...], DataFile]:
        for name in names:
            files = self.locator.under(name)
            if files:
                return files
        raise missing(what, [f"{n}/ (a folder)" for n in names], self.dataset_id)

    def folder_names(self) -> list[str]:
        return self.files.names("folders", self.split, self.year)

    def gold_names(self) -> list[str]:
        return self.files.names("gold", self.split, self.year)

    def gold(self) -> DataFile:
        return self._first(self.gold_names(), f"the {self.split} labels")

    def labels(self) -> dict[str, list[str]]:
        """The gold as ``{query: [doc ids of this dataset]}``."""
        f = self.gold()
        labels = parse_labels(_read(f), f.describe())
        if not self.scoped:
            return labels
        return {q: [f"{q}{SCOPE}{d}" for d in docs] for q, docs in labels.items()}

    def docs(self) -> dict[str, DataFile]:
        raise NotImplementedError

    def query_ids(self) -> list[str]:
        raise NotImplementedError

    def query_file(self, query_id: str) -> DataFile:
        raise NotImplementedError

    def candidates(self, query_id: str) -> Iterator[str]:
        raise NotImplementedError

    def sources(self) -> list[Source]:
        parts = [("docs", self._docs_source), ("queries", self._queries_source), ("qrels", self.gold)]
        return [source_of(part, resolve) for part, resolve in parts]

    def _docs_source(self) -> DataFile:
        return next(iter(self.docs().values()))

    def _queries_source(self) -> DataFile:
        return self.query_file(self.query_ids()[0])


class FlatPool(Layout):
    """Task 1, 2021-2026: query cases and candidates in one folder per split (one shared pool in 2021)."""

    def docs(self) -> dict[str, DataFile]:
        return self._remember("docs", self._list_docs)

    def _list_docs(self) -> dict[str, DataFile]:
        files = self._folder(self.folder_names(), "the case files")
        return {strip_txt(parts[0]): f for parts, f in files.items() if len(parts) == 1 and _is_text(parts)}

    def query_list(self) -> DataFile:
        listed = self.files.names("test_queries", self.split, self.year) if self.split == "test" else []
        names = self.gold_names() + listed
        return self._first(names, "the list of query cases")

    def query_ids(self) -> list[str]:
        f = self.query_list()
        return list(parse_labels(_read(f), f.describe()))

    def query_file(self, query_id: str) -> DataFile:
        return self.docs()[query_id]

    def candidates(self, query_id: str) -> Iterator[str]:
        return (d for d in self.docs() if d != query_id)

    def _queries_source(self) -> DataFile:
        listed = self.query_list()
        try:
            self.docs()  # a query's text is its case file: the list alone does not make the queries readable
        except ColieeDataError as e:
            raise missing(f"the query cases listed in {listed.name}", e.names, self.dataset_id) from None
        return listed


class CaseFolders(Layout):
    """One folder per query: Task 1 in 2020 (``base_case.txt`` + ``candidates/``) and Task 2
    (``entailed_fragment.txt`` + ``base_case.txt`` + ``paragraphs/``)."""

    def __init__(self, dataset_id: str, year: int, split: str, files: CaseLawFiles, locator: Locator = LOCATOR):
        super().__init__(dataset_id, year, split, files, locator)
        self.query_name, self.candidates_dir = files.query_file, files.candidates

    def _cases(self) -> dict[tuple[str, ...], DataFile]:
        return self._remember("cases", lambda: self._folder(self.folder_names(), "the case folders"))

    def query_ids(self) -> list[str]:
        found = {parts[0] for parts in self._cases() if len(parts) == 2 and parts[1] == self.query_name}
        return sorted(found, key=lambda q: (len(q), q))

    def query_file(self, query_id: str) -> DataFile:
        return self._cases()[(query_id, self.query_name)]

    def base_case(self, query_id: str) -> DataFile:
        return self._cases()[(query_id, "base_case.txt")]

    def docs(self) -> dict[str, DataFile]:
        return self._remember("docs", self._list_docs)

    def _list_docs(self) -> dict[str, DataFile]:
        docs = {}
        for parts, f in self._cases().items():
            if len(parts) == 3 and parts[1] == self.candidates_dir and _is_text(parts):
                docs[f"{parts[0]}{SCOPE}{strip_txt(parts[2])}"] = f
        return dict(sorted(docs.items(), key=lambda item: _case_order(item[0])))

    def candidates(self, query_id: str) -> Iterator[str]:
        by_case = self._remember("by_case", self._docs_by_case)
        return iter(by_case.get(query_id, []))

    def _docs_by_case(self) -> dict[str, list[str]]:
        by_case: dict[str, list[str]] = {}
        for doc_id in self.docs():
            by_case.setdefault(doc_id.partition(SCOPE)[0], []).append(doc_id)
        return by_case


class XmlIndexed(CaseFolders):
    """2019: the same per-query folders, listed by an index ``task1.xml`` / ``task2.xml`` beside them
    that also holds the training gold (``cases_noticed`` / ``entailing_paragraphs``, e.g. ``013,045``);
    test gold is ``task{n}_test_golden-labels.xml`` of the same shape. Which index serves which split
    is read from its path (a folder or zip named with ``test``); not checked on real 2019 files."""

    _EXPECTED = "a COLIEE 2019 index: <instance id=...> elements with the gold as comma-separated ids"

    def index(self) -> DataFile:
        name = self.files.index_file
        for f in self.locator.find(name):
            is_test = any("test" in part.lower() for part in f.parts[:-1])
            if f.edition == self.year and is_test == (self.split == "test"):
                return f
        raise missing(f"the {self.split} index", [f"{name} (in a {self.year} {self.split} folder)"], self.dataset_id)

    def gold_names(self) -> list[str]:
        return super().gold_names() if self.split == "test" else [self.files.index_file]

    def gold(self) -> DataFile:
        return self.index() if self.split == "train" else super().gold()

    def _cases(self) -> dict[tuple[str, ...], DataFile]:
        return self._remember("cases", lambda: self.locator.beside(self.index()))

    def labels(self) -> dict[str, list[str]]:
        f = self.gold()
        text = _read(f)
        root = parse_xml(text, f.describe(), self._EXPECTED)
        labels: dict[str, list[str]] = {}
        for instance in root.iter("instance"):
            qid = (instance.get("id") or "").strip()
            ids = (instance.findtext(self.files.gold_element) or "").replace(",", " ").split()
            labels[qid] = [f"{qid}{SCOPE}{strip_txt(d)}" for d in dict.fromkeys(ids)]
        return labels


def _case_order(doc_id: str) -> tuple[int, str, str]:
    case, _, rest = doc_id.partition(SCOPE)
    return (len(case), case, rest)


# --- ir_datasets handlers ------------------------------------------------------------------------------


class FileDocstore(Docstore):
    """``docs_store()`` that reads each requested document from its file (or open zip): the folder
    listing is the index, so there is no cache to build or to leave half-written."""

    def __init__(self, layout: Layout, make: Callable[[str, DataFile], NamedTuple], doc_cls: type):
        super().__init__(doc_cls, "doc_id")
        self._layout, self._make = layout, make
        self._files: Optional[dict[str, DataFile]] = None

    def get_many_iter(self, doc_ids):
        if self._files is None:
            self._files = self._layout.docs()
        for doc_id in doc_ids:
            f = self._files.get(doc_id)
            if f is not None:
                yield self._make(doc_id, f)

    def clear_cache(self) -> None:
        self._files = None


class CaseDocs(BaseDocs):
    """Documents read from the case files, with progress shown while iterating a large folder."""

    def __init__(self, layout: Layout, doc_cls: type, make: Callable[[str, DataFile], NamedTuple]):
        super().__init__()
        self._layout, self._doc_cls, self._make = layout, doc_cls, make

    def docs_iter(self) -> DocsIter:
        return DocsIter(self._stream, self._slice)

    def _slice(self, key: slice) -> Iterator[NamedTuple]:
        return sliced(list(self._layout.docs().items()), key, lambda item: self._make(*item))

    def _stream(self) -> Iterator[NamedTuple]:
        files = self._layout.docs()
        desc = f"{self._layout.dataset_id}: reading {len(files)} documents"
        small = len(files) < 1000  # no progress bar for a folder read in a blink
        for doc_id, f in _logger.pbar(
            files.items(), desc=desc, total=len(files), unit="doc", quiet=small, disable=small
        ):
            yield self._make(doc_id, f)

    def docs_cls(self) -> type:
        return self._doc_cls

    def docs_store(self, field: str = "doc_id") -> FileDocstore:
        return FileDocstore(self._layout, self._make, self._doc_cls)

    def docs_count(self) -> int:
        return len(self._layout.docs())

    def docs_namespace(self) -> str:
        return self._layout.dataset_id

    def docs_lang(self) -> str:
        return "en"


class CaseQueries(BaseQueries):
    def __init__(self, layout: Layout, query_cls: type):
        super().__init__()
        self._layout, self._query_cls = layout, query_cls

    def queries_iter(self) -> Iterator[NamedTuple]:
        for qid in self._layout.query_ids():
            yield self._query_cls(qid, _read(self._layout.query_file(qid)))

    def queries_cls(self) -> type:
        return self._query_cls

    def queries_namespace(self) -> str:
        return self._layout.dataset_id

    def queries_lang(self) -> str:
        return "en"


class BaseCases:
    """Task 2: ``base_cases_iter()`` gives each query's base case (the context of the fragment)."""

    def __init__(self, layout: CaseFolders):
        self._layout = layout

    def base_cases_iter(self) -> Iterator[ColieeBaseCase]:
        for qid in self._layout.query_ids():
            yield ColieeBaseCase(qid, _read(self._layout.base_case(qid)))


class LabelQrels(BaseQrels):
    def __init__(self, layout: Layout, defs: dict[int, str]):
        super().__init__()
        self._layout, self._defs = layout, defs

    def qrels_iter(self) -> Iterator[TrecQrel]:
        for qid, docs in self._layout.labels().items():
            for did in docs:
                yield TrecQrel(qid, did, 1, "0")

    def qrels_cls(self) -> type:
        return TrecQrel

    def qrels_defs(self) -> dict[int, str]:
        return self._defs


class Candidates(BaseScoredDocs):
    """Each query's candidates with score 0, so re-rankers (``pt.get_dataset(...).get_results()``) can use them."""

    def __init__(self, layout: Layout):
        super().__init__()
        self._layout = layout

    def scoreddocs_iter(self) -> Iterator[GenericScoredDoc]:
        for qid in self._layout.query_ids():
            for did in self._layout.candidates(qid):
                yield GenericScoredDoc(qid, did, 0.0)

    def scoreddocs_cls(self) -> type:
        return GenericScoredDoc


# --- registration --------------------------------------------------------------------------------------


def _case_doc(doc_id: str, f: DataFile) -> ColieeCaseDoc:
    return ColieeCaseDoc(doc_id, _read(f))


def _paragraph(doc_id: str, f: DataFile) -> ColieeParagraph:
    case, _, paragraph = doc_id.partition(SCOPE)
    return ColieeParagraph(doc_id, case, paragraph, _read(f))


_LAYOUTS: dict[str, type[Layout]] = {"flat": FlatPool, "folders": CaseFolders, "xml-index": XmlIndexed}


class _Records(NamedTuple):
    """The record types and reader of one case-law task."""

    doc_cls: type
    make: Callable[[str, DataFile], NamedTuple]
    query_cls: type
    qrel_defs: dict[int, str]
    base_cases: bool


_RECORDS = {
    "1": _Records(ColieeCaseDoc, _case_doc, ColieeCaseQuery, QREL_DEFS_NOTICED, base_cases=False),
    "2": _Records(ColieeParagraph, _paragraph, ColieeFragmentQuery, QREL_DEFS_ENTAILING, base_cases=True),
}


def caselaw_dataset(task: str, year: int, split: str, files: CaseLawFiles) -> tuple[str, Dataset, Layout]:
    dataset_id = model_dataset_id(task, year, split)
    layout = _LAYOUTS[files.layout](dataset_id, year, split, files)
    records = _RECORDS[task]
    docs = CaseDocs(layout, records.doc_cls, records.make)
    queries = CaseQueries(layout, records.query_cls)
    extra = BaseCases(cast(CaseFolders, layout)) if records.base_cases else None
    qrels = LabelQrels(layout, records.qrel_defs)
    doc = Documentation(f"task{task}", task, year, {"split": split, "layout": type(layout).__name__})
    return dataset_id, Dataset(docs, queries, qrels, Candidates(layout), extra, doc), layout


def register_caselaw() -> None:
    """Register every case-law dataset id of every edition whose layout is known (idempotent; reads no file)."""
    for task in _RECORDS:
        for year in editions_of(task):
            files = EDITIONS[year].caselaw(task)
            if files is None:  # 2018: not known well enough to read
                continue
            for split in ("train", "test"):
                dataset_id, dataset, layout = caselaw_dataset(task, year, split, files)
                register(dataset_id, dataset, task, year, layout.sources, scoped=layout.scoped)
