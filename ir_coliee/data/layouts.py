"""Where the files of a case-law split are, one class per file layout (COLIEE-SPEC sections 2-3): a flat
pool of case files (2021-2026), one folder per query (2020, Task 2), and per-query folders beside an XML
index (2019). Document ids of the per-query layouts are scoped by query (``001/058``)."""

import contextlib
import itertools
from collections.abc import Callable, Iterator

from ir_measures import Qrel

from ir_coliee.data.files import DataFile
from ir_coliee.data.locator import LOCATOR, Source, missing, source_of
from ir_coliee.errors import ColieeDataError, counted, some
from ir_coliee.formats.labels import parse_labels, parse_query_list
from ir_coliee.formats.textfile import strip_txt
from ir_coliee.formats.xmlsafe import parse_xml
from ir_coliee.model import CaseLawFiles
from ir_coliee.table.tables import SCOPE


def _is_text(parts: tuple[str, ...]) -> bool:
    return parts[-1].endswith(".txt") and not parts[-1].startswith(".")


class Layout:
    """Where the documents, queries and gold of one split are; subclasses know one file layout."""

    def __init__(self, dataset_id: str, year: int, split: str, files: CaseLawFiles):
        self.dataset_id, self.year, self.split = dataset_id, year, split
        self.files, self.locator = files, LOCATOR
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
        empty = [path for name in names for path in self.locator.folders(name)]
        if empty:  # there, but without a file at any depth
            raise self._no_document(empty[0], {})
        raise missing(what, [f"{n}/ (a folder)" for n in names], self.dataset_id)

    def folder_names(self) -> list[str]:
        return self.files.names("folders", self.split, self.year)

    def pool(self) -> tuple[int, tuple[str, ...]]:
        """Which pool the documents are: the edition and its folder names (2021's train and test splits
        share ``task1_files/``, so one pool; later editions have a folder per split)."""
        return self.year, tuple(self.folder_names())

    def gold_names(self) -> list[str]:
        return self.files.names("gold", self.split, self.year)

    def gold(self) -> DataFile:
        return self._first(self.gold_names(), f"the {self.split} labels")

    def labels(self) -> dict[str, list[str]]:
        """The gold as ``{query: [doc ids of this dataset]}``."""
        f = self.gold()
        labels = parse_labels(f.read_text(), f.describe())
        if not self.scoped:
            return labels
        return {q: [f"{q}{SCOPE}{d}" for d in docs] for q, docs in labels.items()}

    def qrels(self) -> Iterator[Qrel]:
        """The gold pairs, each relevant (1)."""
        for qid, docs in self.labels().items():
            for did in docs:
                yield Qrel(qid, did, 1)

    def docs(self) -> dict[str, DataFile]:
        return self._remember("docs", self._served_docs)

    #: What :meth:`_list_docs` reads in the split's folder, for the error when it finds none.
    _EXPECTED_DOCS = "case files (NNNNNN.txt), directly inside or in a folder below"

    def _served_docs(self) -> dict[str, DataFile]:
        """The documents; a folder that holds none is an error naming it, never 0 documents served."""
        files = self._split_files()
        docs = self._list_docs(files)
        if not docs:
            parts, f = next(iter(files.items()))
            raise self._no_document(f.describe()[: -len("/".join(parts)) - 1], files)
        return docs

    def _no_document(self, folder: str, files: dict[tuple[str, ...], DataFile]) -> ColieeDataError:
        expected = self._EXPECTED_DOCS.format(candidates=self.files.candidates)
        held = f"{counted(len(files), 'other file')}: {some(['/'.join(p) for p in files], 5)}"
        return ColieeDataError(
            f"{self.dataset_id}: {folder} holds no document: expected {expected}; "
            f"it holds {held if files else 'no file'}"
        )

    #: What the split's folder holds, for the error when it is missing.
    _HOLDS = "the case files"

    def _split_files(self) -> dict[tuple[str, ...], DataFile]:
        """Every file of the split's folder, by its path inside it (never empty: else the folder is missing)."""
        return self._remember("cases", lambda: self._folder(self.folder_names(), self._HOLDS))

    # what each layout defines: the documents among the split's files, the queries, their files, and each
    # query's candidates
    _list_docs: Callable[[dict[tuple[str, ...], DataFile]], dict[str, DataFile]]
    query_ids: Callable[[], list[str]]
    query_file: Callable[[str], DataFile]
    candidates: Callable[[str], Iterator[str]]

    def released(self) -> list[str]:
        """Every query handed out."""
        return self.query_ids()

    def sources(self) -> list[Source]:
        return [
            source_of("docs", lambda: next(iter(self.docs().values()))),
            source_of("queries", self._queries_source),
            source_of("qrels", self._gold_source),
        ]

    def _queries_source(self) -> DataFile:
        return self.query_file(self.query_ids()[0])

    def _gold_source(self) -> DataFile:
        """The gold's file, read: one that cannot be parsed serves no qrels."""
        self.labels()
        return self.gold()


class FlatPool(Layout):
    """Task 1, 2021-2026: query cases and candidates in one folder per split (one shared pool in 2021)."""

    def _list_docs(self, files: dict[tuple[str, ...], DataFile]) -> dict[str, DataFile]:
        """The case files at any depth below the folder (2026's training release has them in ``cases/``),
        the shallowest copy of a name first, sorted by path: one order whether the release is extracted
        or zipped (a zip's entries come in the order its maker wrote them)."""
        docs: dict[str, DataFile] = {}
        for parts, f in sorted(files.items(), key=lambda item: (len(item[0]), item[0])):
            if _is_text(parts):
                docs.setdefault(strip_txt(parts[-1]), f)
        return docs

    def _test_lists(self) -> list[str]:
        """The files listing the test queries before the test labels are out (none for training)."""
        return (
            self.files.names("test_queries", self.split, self.year) if self.split == "test" else []
        )

    def query_list(self) -> DataFile:
        return self._first(self.gold_names() + self._test_lists(), "the list of query cases")

    def query_ids(self) -> list[str]:
        f = self.query_list()
        return parse_query_list(f.read_text(), f.describe())

    def released(self) -> list[str]:
        """Every query handed out: the gold's queries, then those of the test list (``test_no_labels``)
        that the gold leaves out (released, not scored)."""
        ids = self.query_ids()
        with contextlib.suppress(ColieeDataError):
            f = self._first(self._test_lists(), "the list of test queries")
            ids += [q for q in parse_query_list(f.read_text(), f.describe()) if q not in set(ids)]
        return ids

    def query_file(self, query_id: str) -> DataFile:
        found = self.docs().get(query_id)
        if found is None:
            raise self._unlisted([query_id])
        return found

    def candidates(self, query_id: str) -> Iterator[str]:
        return (d for d in self.docs() if d != query_id)

    def _unlisted(self, query_ids: list[str]) -> ColieeDataError:
        listed = self.query_list()
        shown = some([f"{q}.txt" for q in query_ids], 5)
        what = f"the case files of {len(query_ids)} query cases listed in {listed.describe()}"
        names = [f"{name}/{query_ids[0]}.txt" for name in self.folder_names()]
        return missing(f"{what} ({shown})", names, self.dataset_id)

    def _queries_source(self) -> DataFile:
        listed = self.query_list()
        try:
            # a query's text is its case file: the list alone does not make the queries readable
            docs = self.docs()
        except ColieeDataError as e:
            if not e.names:  # the folder is there but holds no case file: its own error says so
                raise
            raise missing(
                f"the query cases listed in {listed.name}", e.names, self.dataset_id
            ) from None
        absent = [q for q in self.query_ids() if q not in docs]
        if absent:
            raise self._unlisted(absent)
        return listed


class CaseFolders(Layout):
    """One folder per query: Task 1 in 2020 (``base_case.txt`` + ``candidates/``) and Task 2
    (``entailed_fragment.txt`` + ``base_case.txt`` + ``paragraphs/``)."""

    _EXPECTED_DOCS = "one folder per case, its documents in it as {{case}}/{candidates}/NNN.txt"
    _HOLDS = "the case folders"

    def query_ids(self) -> list[str]:
        query_file = self.files.query_file
        found = {
            parts[0] for parts in self._split_files() if len(parts) == 2 and parts[1] == query_file
        }
        return sorted(found, key=lambda q: (len(q), q))

    def query_file(self, query_id: str) -> DataFile:
        return self._split_files()[(query_id, self.files.query_file)]

    def base_case(self, query_id: str) -> DataFile:
        return self._split_files()[(query_id, "base_case.txt")]

    def _list_docs(self, files: dict[tuple[str, ...], DataFile]) -> dict[str, DataFile]:
        docs = {}
        for parts, f in files.items():
            if len(parts) == 3 and parts[1] == self.files.candidates and _is_text(parts):
                docs[f"{parts[0]}{SCOPE}{strip_txt(parts[2])}"] = f
        return dict(sorted(docs.items(), key=lambda item: case_order(item[0])))

    def candidates(self, query_id: str) -> Iterator[str]:
        return iter(self._remember("by_case", self._docs_by_case).get(query_id, []))

    def _docs_by_case(self) -> dict[str, list[str]]:
        """Each case's documents, which the documents' case order (:func:`case_order`) keeps together."""
        return {
            case: list(ids)
            for case, ids in itertools.groupby(self.docs(), lambda d: d.partition(SCOPE)[0])
        }


class XmlIndexed(CaseFolders):
    """2019: the same per-query folders, listed by an index ``task1.xml`` / ``task2.xml`` beside them
    that also holds the training gold (``cases_noticed`` / ``entailing_paragraphs``, e.g. ``013,045``);
    test gold is ``task{n}_test_golden-labels.xml`` of the same shape. Which index serves which split
    is read from its path (a folder or zip named with ``test``); not checked on real 2019 files."""

    _EXPECTED = (
        "a COLIEE 2019 index: <instance id=...> elements with the gold as comma-separated ids"
    )

    def index(self) -> DataFile:
        name = self.files.index_file
        for f in self.locator.find(name):
            is_test = any("test" in part.lower() for part in f.parts[:-1])
            if f.edition == self.year and is_test == (self.split == "test"):
                return f
        where = [f"{name} (in a {self.year} {self.split} folder)"]
        raise missing(f"the {self.split} index", where, self.dataset_id)

    def gold_names(self) -> list[str]:
        return super().gold_names() if self.split == "test" else [self.files.index_file]

    def gold(self) -> DataFile:
        return self.index() if self.split == "train" else super().gold()

    def _split_files(self) -> dict[tuple[str, ...], DataFile]:
        return self._remember("cases", lambda: self.locator.beside(self.index()))

    def labels(self) -> dict[str, list[str]]:
        f = self.gold()
        root = parse_xml(f.read_text(), f.describe(), self._EXPECTED)
        labels: dict[str, list[str]] = {}
        for instance in root.iter("instance"):
            qid = (instance.get("id") or "").strip()
            ids = (instance.findtext(self.files.gold_element) or "").replace(",", " ").split()
            labels[qid] = [f"{qid}{SCOPE}{strip_txt(d)}" for d in dict.fromkeys(ids)]
        return labels


def case_order(doc_id: str) -> tuple[int, str, str]:
    case, _, rest = doc_id.partition(SCOPE)
    return (len(case), case, rest)


LAYOUTS: dict[str, type[Layout]] = {
    "flat": FlatPool,
    "folders": CaseFolders,
    "xml-index": XmlIndexed,
}
