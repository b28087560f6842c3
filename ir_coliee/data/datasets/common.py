"""What every COLIEE collection shares: registration, documentation, and the ir_datasets handlers of
documents, queries and qrels, each built from data (a record type, a namespace, where the records come from)."""

from __future__ import annotations

import functools
import pkgutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple, Optional, TypeVar, Union, get_type_hints

import ir_datasets
from ir_datasets.datasets.base import Dataset
from ir_datasets.formats import BaseDocs, BaseQrels, BaseQueries, TrecQrel
from ir_datasets.indices import Docstore

from ir_coliee.data.catalog import Registered
from ir_coliee.model import NAME, known_sizes, official_entry

Doc = TypeVar("Doc", bound=tuple)


class DocsIter(Iterator[Doc]):
    """What ``docs_iter()`` returns: an iterator that also slices as ir_datasets' own handlers do
    (``ds.docs_iter()[1:3]``, ``ds.docs_iter()[5]``), so PyTerrier's ``get_corpus_iter(start=, count=)``
    works. Iterating streams the documents; a slice reads only the ones it holds."""

    def __init__(
        self, stream: Callable[[], Iterator[Doc]], sliced: Callable[[slice], Iterator[Doc]]
    ):
        self._stream, self._sliced = stream, sliced
        self._it: Optional[Iterator[Doc]] = None

    def __next__(self) -> Doc:  # __iter__ is Iterator's own: the iterator itself
        if self._it is None:
            self._it = self._stream()
        return next(self._it)

    def close(self) -> None:
        """Stop an iteration early, as a generator's ``close()`` does (open files are released)."""
        close = getattr(self._it, "close", None)
        if close is not None:
            close()

    def __getitem__(self, key: Union[int, slice]) -> Union[Doc, Iterator[Doc]]:
        if isinstance(key, slice):
            return self._sliced(key)
        if isinstance(key, int) and not isinstance(key, bool):
            found = list(self._sliced(slice(key, key + 1 if key != -1 else None)))
            if not found:
                raise IndexError(f"document index {key} out of range")
            return found[0]
        raise TypeError(f"docs_iter() takes an int or a slice, not {type(key).__name__}")


class TextQuery(NamedTuple):
    """A query as PyTerrier takes a topic: exactly ``(query_id, text)``. Each collection's query type is a
    subclass, under a name of its own."""

    query_id: str
    text: str

    def default_text(self) -> str:
        """The query's text."""
        return self.text

    @classmethod
    def __init_subclass__(cls) -> None:
        # ir_datasets reads a record's field types from the class's own annotations, as types
        cls.__annotations__ = get_type_hints(TextQuery)


def _itself(doc_id: str, doc: Doc) -> Doc:
    return doc


class Docs(BaseDocs):
    """``docs_*()`` of a collection, from data: its record type, namespace and language; ``stream()``, its
    documents in order; ``by_id()``, each document id with what ``make(doc_id, it)`` turns into its
    record (a case file, read when asked), by default the stream's records by id. Handlers of one
    ``corpus`` are equal, whichever dataset reads it: ``ir_datasets.docs_parent_id`` compares handlers, so
    one corpus is indexed once (2021's train and test share ``task1_files/``; Tasks 3 and 4 one Civil Code)."""

    def __init__(
        self,
        doc_cls: type,
        namespace: str,
        lang: str,
        corpus: tuple,
        stream: Callable[[], Iterator[NamedTuple]],
        by_id: Optional[Callable[[], Mapping[str, Any]]] = None,
        make: Callable[[str, Any], NamedTuple] = _itself,
    ):
        super().__init__()
        self._cls, self._namespace, self._lang = doc_cls, namespace, lang
        self._corpus = (doc_cls, *corpus)
        self._stream, self._by_id, self.make = stream, by_id, make

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Docs) and self._corpus == other._corpus

    def __hash__(self) -> int:
        return hash(self._corpus)

    def by_id(self) -> Mapping[str, Any]:
        return self._by_id() if self._by_id is not None else {d.doc_id: d for d in self._stream()}  # type: ignore[attr-defined]

    def docs_iter(self) -> DocsIter:
        return DocsIter(
            self._stream, lambda key: (self.make(*item) for item in list(self.by_id().items())[key])
        )

    def docs_store(self, field: str = "doc_id") -> Store:
        return Store(self._cls, "doc_id", self.by_id, self.make)

    def docs_count(self) -> int:
        return len(self.by_id())

    def docs_cls(self) -> type:
        return self._cls

    def docs_namespace(self) -> str:
        return self._namespace

    def docs_lang(self) -> str:
        return self._lang


class Store(Docstore):
    """``docs_store()`` (and ``queries_store()``): lookups in an index of the records by id, each record
    made when asked (a case file read from its file or open zip: the folder listing is the index, with no
    cache to build)."""

    def __init__(
        self,
        cls: type,
        field: str,
        index: Callable[[], Mapping[str, Any]],
        make: Callable[[str, Any], NamedTuple],
    ):
        super().__init__(cls, field)
        self._index, self._make = index, make

    @functools.cached_property
    def _found(self) -> Mapping[str, Any]:
        """The index, made once per store (a collection without one of its own, the pilot's claims, is
        read whole to make it: not once per lookup)."""
        return self._index()

    def get_many(self, doc_ids: Iterable[str], field: Optional[str] = None) -> dict[str, Any]:
        """The records (or their ``field``) by id, keyed by the store's id field: ir_datasets 0.5.5 and
        before key them by ``doc_id``, which a query has not (``lookup --qid``)."""
        at = self._doc_cls._fields.index(field) if field is not None else None
        return {
            getattr(r, self._id_field): r if at is None else r[at]
            for r in self.get_many_iter(doc_ids)
        }

    def get_many_iter(self, doc_ids: Iterable[str]) -> Iterator[NamedTuple]:
        found = self._found
        for doc_id in doc_ids:
            if doc_id in found:
                yield self._make(doc_id, found[doc_id])


class Queries(BaseQueries):
    """``queries_*()`` of a collection, from data: the record type, namespace and language, and the queries
    (read when the iteration starts)."""

    def __init__(
        self,
        query_cls: type,
        namespace: str,
        lang: str,
        queries: Callable[[], Iterable[Any]],
    ):
        super().__init__()
        self._cls, self._namespace, self._lang, self._queries = query_cls, namespace, lang, queries

    def queries_iter(self) -> Iterator[NamedTuple]:
        yield from self._queries()

    def queries_cls(self) -> type:
        return self._cls

    def queries_namespace(self) -> str:
        return self._namespace

    def queries_lang(self) -> str:
        return self._lang

    def queries_store(self) -> Store:
        """The queries by id: what ``ir_datasets lookup --qid`` asks for."""
        return Store(
            self._cls, "query_id", lambda: {q.query_id: q for q in self._queries()}, _itself
        )


@functools.cache
def _families() -> dict:
    """The text of each family in ``coliee.yaml``, read once."""
    data = pkgutil.get_data("ir_coliee", "data/datasets/coliee.yaml")
    return ir_datasets.lazy_libs.yaml().safe_load(data or b"") or {}


class Documentation:
    """``documentation()`` of a dataset: the family's text from ``coliee.yaml`` plus its official measures."""

    def __init__(
        self,
        family: str,
        task: Optional[str],
        year: Optional[int],
        extra: Optional[dict[str, str]] = None,
    ):
        self._family, self._task, self._year, self._extra = family, task, year, extra or {}

    def documentation(self) -> dict[str, object]:
        doc = {**_families().get(self._family, {}), **self._extra}
        if self._task is None:  # the top-level entry: no task, no measures of its own
            return doc
        entry = official_entry(self._task, self._year)
        doc["official_measures"] = [str(m) for m in entry.measures]
        if entry.ranked:
            doc["ranked_measures"] = [str(m) for m in entry.ranked]
        doc["official_note"] = entry.note
        return doc


#: The parts whose sizes are known, with what they are called in messages.
PARTS = {"docs": "documents", "queries": "queries", "qrels": "qrels", "scoreddocs": "candidates"}


class SizeCounts:
    """``docs_count()``, ``docs_metadata()`` (queries, qrels and scoreddocs alike) and ``metadata()`` of a
    dataset, offered as ir_datasets' ``MetadataComponent`` offers them: for each part the dataset has, and
    for no other (``scoreddocs_count`` of a dataset without candidates is an ``AttributeError``, as in
    built-in entries). A count is what the user's files serve (a sample or partial copy serves fewer than
    the official release: a count of the release would mislead every loop and progress bar over it); the
    metadata holds the size of a complete official copy (``ir_coliee.model.KNOWN_SIZES``), known without
    reading a file (``{}`` where none is known)."""

    def __init__(self, dataset_id: str, dataset: Dataset):
        self._dataset_id, self._dataset = dataset_id, dataset
        for part in PARTS:
            if dataset.has(part):
                setattr(self, f"{part}_count", functools.partial(self.files_count, part))
                setattr(self, f"{part}_metadata", functools.partial(self._metadata, part))

    def known_count(self, part: str) -> Optional[int]:
        """The size of a complete official copy, ``None`` where not known."""
        return getattr(known_sizes(self._dataset_id), part, None)

    def files_count(self, part: str) -> int:
        """The count of the user's files."""
        if part == "docs":
            # the collection's own count (a folder listing for case law)
            return self._dataset.docs_count()
        return sum(1 for _ in getattr(self._dataset, f"{part}_iter")())

    def _metadata(self, part: str) -> dict[str, int]:
        known = self.known_count(part)
        return {} if known is None else {"count": known}

    def metadata(self) -> dict[str, dict[str, int]]:
        """The known sizes of the parts the dataset has, as ir_datasets' ``metadata()`` gives them:
        ``{"docs": {"count": 768}, "qrels": {}, ...}``."""
        return {part: self._metadata(part) for part in PARTS if self._dataset.has(part)}


def _host(dataset_id: str, dataset: Dataset) -> None:
    """Register ``dataset`` with ir_datasets under ``dataset_id``, once (the registry's ids are its
    iteration; registering an id again raises)."""
    if dataset_id not in ir_datasets.registry:
        ir_datasets.registry.register(dataset_id, dataset)


def register(entry: Registered, dataset: Dataset, with_host: bool = True) -> Dataset:
    """Register the dataset of a catalog entry with ir_datasets (``with_host``), its counts in front;
    returns the dataset as registered. Repeating a call registers nothing.

    Datasets built by an ir_datasets ``register_pattern`` initializer pass ``with_host=False``:
    ir_datasets registers what the initializer returns itself (after which it is in the registry, and a
    later registration of the catalog, which holds it now, passes it by).
    """
    counted = Dataset(SizeCounts(entry.dataset_id, dataset), dataset)
    if with_host:
        _host(entry.dataset_id, counted)
    return counted


#: ``(docs handler, dataset id)``: every dataset whose handler equals the first has the second as
#: ``ir_datasets.docs_parent_id``, wherever its id sits (``ir_coliee.hosts.register`` applies them).
DOCS_LINKS: list[tuple[object, str]] = []


def register_parent(
    dataset_id: str, docs: object, documentation: Documentation, linked: bool = False
) -> None:
    """A dataset of documents only, whose handler the datasets below its id share (or, ``linked``, every
    dataset whose handler equals ``docs``, wherever its id sits): the id ``ir_datasets.docs_parent_id``
    gives them, so one corpus is indexed once (idempotent)."""
    _host(dataset_id, Dataset(docs, documentation))
    if linked and (docs, dataset_id) not in DOCS_LINKS:
        DOCS_LINKS.append((docs, dataset_id))


class Qrels(BaseQrels):
    """The gold of a catalog entry as ir_datasets qrels: the ``(query, document, relevance)`` rows of its
    ``qrels()`` (case law: the labels; statute: articles or Y/N answers; pilot: claims or decisions)."""

    def __init__(self, gold: object, defs: dict[int, str]):
        super().__init__()
        self._gold, self._defs = gold, defs

    def qrels_iter(self) -> Iterator[TrecQrel]:
        for q in self._gold.qrels():  # type: ignore[attr-defined]
            yield TrecQrel(*q)  # iteration "0", as ir_measures.Qrel gives it

    def qrels_cls(self) -> type:
        return TrecQrel

    def qrels_defs(self) -> dict[int, str]:
        return self._defs


#: The ``coliee`` entry, as ir_datasets has one per collection: its ``documentation()`` (registered once, when
#: this module is imported, before any dataset of the catalog).
_host(NAME, Dataset(Documentation(NAME, None, None)))
