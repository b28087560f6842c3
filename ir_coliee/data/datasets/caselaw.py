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
the scoped ids of these datasets (:func:`ir_coliee.table.tables.align` maps runs onto them).
"""

import functools
import re
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import NamedTuple, cast

from ir_datasets.datasets.base import Dataset
from ir_datasets.formats import BaseScoredDocs, GenericScoredDoc

from ir_coliee.data.catalog import Registered, catalog
from ir_coliee.data.datasets.common import (
    Docs,
    Documentation,
    Qrels,
    Queries,
    TextQuery,
    register,
    register_parent,
)
from ir_coliee.data.files import DataFile
from ir_coliee.data.layouts import CaseFolders, Layout
from ir_coliee.model import dataset_id as model_dataset_id
from ir_coliee.progress import progress
from ir_coliee.table.tables import SCOPE

_PARAGRAPH = re.compile(r"^\s*\[(\d+)\]\s*", re.MULTILINE)

QREL_DEFS_NOTICED = {1: "Noticed: the case is cited by (supports the decision of) the query case."}
QREL_DEFS_ENTAILING = {
    1: "Entailing: the paragraph of the noticed case entails the decision fragment."
}


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
        # the text before the first marker, then each marker's number and text
        pieces = _PARAGRAPH.split(self.text)
        return [(int(n), body.strip()) for n, body in zip(pieces[1::2], pieces[2::2])]


class ColieeCaseQuery(TextQuery):
    """A query case of Task 1: find the cases it notices. Its id: ``078507``; ``001`` for 2020."""


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


class ColieeFragmentQuery(TextQuery):
    """A Task 2 query: the decision fragment (``entailed_fragment.txt``) to match against its case's
    paragraphs. Its id is the case's (``001``; ids pass 999 in 2026 and are not fixed width)."""


class ColieeBaseCase(TextQuery):
    """The base case (``base_case.txt``) of a Task 2 query, context for the fragment, from
    ``base_cases_iter()``."""


# --- ir_datasets handlers ------------------------------------------------------------------------------


def _read_docs(layout: Layout, make: Callable[[str, DataFile], NamedTuple]) -> Iterator[NamedTuple]:
    """The documents, read from the case files, with progress shown while iterating a large folder."""
    files = layout.docs()
    desc = f"{layout.dataset_id}: reading {len(files)} documents"
    # ir_coliee's bar, not ir_datasets' logger's, which logs "[error]" when a reader stops early
    for doc_id, f in progress(files.items(), desc, total=len(files), unit="doc"):
        yield make(doc_id, f)


def _read_queries(
    layout: Layout, query_cls: type, file_of: Callable[[str], DataFile]
) -> Iterator[NamedTuple]:
    """Each query's file (its text, or for Task 2 its base case), read as ``query_cls``."""
    for qid in layout.query_ids():
        yield query_cls(qid, file_of(qid).read_text())


class Candidates(BaseScoredDocs):
    """Each query's candidates with score 0, so re-rankers (``pt.get_dataset(...).get_results()``) can use them."""

    def __init__(self, layout: Layout):
        super().__init__()
        self._layout = layout

    def scoreddocs_iter(self) -> Iterator[GenericScoredDoc]:
        for qid in self._layout.query_ids():
            for did in self._layout.candidates(qid):
                # scoreddocs_cls(): BaseScoredDocs' own, GenericScoredDoc
                yield GenericScoredDoc(qid, did, 0.0)


# --- registration --------------------------------------------------------------------------------------


def _case_doc(doc_id: str, f: DataFile) -> ColieeCaseDoc:
    return ColieeCaseDoc(doc_id, f.read_text())


def _paragraph(doc_id: str, f: DataFile) -> ColieeParagraph:
    case, _, paragraph = doc_id.partition(SCOPE)
    return ColieeParagraph(doc_id, case, paragraph, f.read_text())


class _Records(NamedTuple):
    """The record types and reader of one case-law task."""

    doc_cls: type
    make: Callable[[str, DataFile], NamedTuple]
    query_cls: type
    qrel_defs: dict[int, str]
    base_cases: bool


_RECORDS = {
    "1": _Records(ColieeCaseDoc, _case_doc, ColieeCaseQuery, QREL_DEFS_NOTICED, base_cases=False),
    "2": _Records(
        ColieeParagraph, _paragraph, ColieeFragmentQuery, QREL_DEFS_ENTAILING, base_cases=True
    ),
}


def caselaw_dataset(entry: Registered) -> Dataset:
    """The ir_datasets entry of a case-law dataset of the catalog."""
    layout = cast(Layout, entry.files)
    records = _RECORDS[entry.task]
    corpus = (type(layout), layout.pool())  # one pool, whichever split reads it
    stream = functools.partial(_read_docs, layout, records.make)
    docs = Docs(records.doc_cls, layout.dataset_id, "en", corpus, stream, layout.docs, records.make)
    read_queries = functools.partial(_read_queries, layout, records.query_cls, layout.query_file)
    queries = Queries(records.query_cls, layout.dataset_id, "en", read_queries)
    extra = None
    if records.base_cases:
        base_case = cast(CaseFolders, layout).base_case
        extra = SimpleNamespace(
            base_cases_iter=functools.partial(_read_queries, layout, ColieeBaseCase, base_case)
        )
    qrels = Qrels(layout, records.qrel_defs)
    about = {"split": entry.split, "layout": type(layout).__name__}
    doc = Documentation(f"task{entry.task}", entry.task, entry.year, about)
    return Dataset(docs, queries, qrels, Candidates(layout), extra, doc)


def register_caselaw() -> None:
    """Register every case-law dataset id of every edition whose layout is known (idempotent; reads no file)."""
    pools: dict[Docs, list[Registered]] = {}
    for entry in catalog().values():
        if isinstance(entry.files, Layout):
            dataset = register(entry, caselaw_dataset(entry))
            pools.setdefault(dataset.docs_handler(), []).append(entry)
    for docs, entries in pools.items():
        if len(entries) > 1:  # splits over one pool: the edition's id is their docs parent
            first = entries[0]
            parent = model_dataset_id(first.task, first.year, "")
            about = Documentation(f"task{first.task}", first.task, first.year, {"part": "the pool"})
            register_parent(parent, docs, about)
