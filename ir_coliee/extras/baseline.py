"""Lexical baselines on the user's own data: BM25 (the ``bm25s`` package) over a COLIEE dataset, written as an
official submission. ``ir_coliee baseline bm25 DATASET --write FILE`` and the demo use these."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Optional

from ir_coliee.errors import ColieeError
from ir_coliee.outputs.plots import require
from ir_coliee.progress import shown

#: Kana, CJK ideographs and half-width katakana: Japanese is written without spaces, so words are not
#: found by splitting; characters and overlapping character pairs are (the statute data of 2026 is
#: Japanese only). Chosen by measuring (bench/bench_baseline_languages.py): on collections written without
#: spaces, words find nothing, trigrams about half of what bigrams find, characters with bigrams a little more.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]+")
_WORD = re.compile(r"(?u)\b\w\w+\b")
#: A run as the baselines give it: ``{query_id: {doc_id: score}}``.
Run = dict[str, dict[str, float]]


def japanese_tokens(text: str) -> list[str]:
    """The characters and character bigrams of each run of Japanese characters, and the words of the rest,
    lower-cased: ``民法第九条`` -> ``民 法 第 九 条 民法 法第 第九 九条``."""
    out: list[str] = []
    at = 0
    for run in _CJK.finditer(text):
        out.extend(w.lower() for w in _WORD.findall(text, at, run.start()))
        chars = run.group()
        out.extend(chars)
        out.extend(chars[i : i + 2] for i in range(len(chars) - 1))
        at = run.end()
    out.extend(w.lower() for w in _WORD.findall(text, at))
    return out


def _tokenized(texts: list[str], japanese: bool, progress: bool) -> Any:
    if japanese:
        return [japanese_tokens(t) for t in texts]
    import bm25s

    return bm25s.tokenize(texts, show_progress=progress)


def bm25_top(
    doc_ids: Sequence[str],
    doc_texts: Sequence[str],
    queries: Sequence[str],
    k: int,
    progress: bool = False,
) -> list[list[tuple[str, float]]]:
    """The ``k`` best documents of each query by BM25, with their scores (progress bars with ``progress``).
    A Japanese collection is tokenised into characters and character bigrams (:func:`japanese_tokens`), any
    other as ``bm25s`` does (words, English stop words removed)."""
    require("bm25s", "the BM25 baseline")
    import bm25s

    progress = progress and shown()  # bm25s draws its bars wherever it is asked to: logs too
    japanese = any(_CJK.search(t) for t in doc_texts)
    retriever = bm25s.BM25()
    retriever.index(_tokenized(list(doc_texts), japanese, progress), show_progress=progress)
    k = min(k, len(doc_ids))
    asked = _tokenized(list(queries), japanese, progress)
    found, scores = retriever.retrieve(asked, k=k, show_progress=progress)
    # each query's documents (their positions) and their scores
    return [[(doc_ids[i], float(s)) for i, s in zip(*hits)] for hits in zip(found, scores)]


def _each_query(
    dataset, text: Callable[[Any], str], k: int, progress: bool
) -> Iterator[tuple[str, list[tuple[str, float]]]]:
    """Each query's id and BM25's ``k`` best documents of the whole collection (``text`` of each)."""
    docs, queries = list(dataset.docs_iter()), list(dataset.queries_iter())
    texts = ([d.doc_id for d in docs], [text(d) for d in docs], [q.text for q in queries])
    ranked = bm25_top(*texts, k=k, progress=progress)
    return ((q.query_id, hits) for q, hits in zip(queries, ranked))


def task1_run(dataset, k: int = 5, progress: bool = False) -> Run:
    """BM25's ``k`` best cases of each query case."""
    # a query case is not its own candidate
    ranked = _each_query(dataset, lambda d: d.text, k + 1, progress)
    return {q: dict([(d, s) for d, s in hits if d != q][:k]) for q, hits in ranked}


def task2_run(dataset, k: int = 1, progress: bool = False) -> Run:
    """BM25's ``k`` best paragraphs of each fragment's own case."""
    by_case: dict[str, list] = {}
    for doc in dataset.docs_iter():
        by_case.setdefault(doc.case_id, []).append(doc)
    run = {}
    for q in dataset.queries_iter():
        of_case = by_case.get(q.query_id, [])  # the paragraphs of the fragment's own case
        hits = bm25_top([p.paragraph for p in of_case], [p.text for p in of_case], [q.text], k=k)[0]
        run[q.query_id] = dict(hits)
    return run


def task3_run(dataset, k: int = 10, progress: bool = False) -> Run:
    """BM25's ``k`` best articles of each question (caption and text)."""
    ranked = _each_query(dataset, lambda d: d.default_text(), k, progress)
    return {q: dict(hits) for q, hits in ranked}


#: The BM25 baseline of each task that retrieves (Tasks 4, 5 and the pilot answer questions), each
#: with its default depth.
BM25: dict[str, Callable[..., Run]] = {"1": task1_run, "2": task2_run, "3": task3_run}


def bm25(dataset_id: str, k: Optional[int] = None, progress: bool = True) -> Run:
    """The BM25 run of a dataset of Tasks 1-3 (``k`` documents per query; each task's default otherwise)."""
    import ir_datasets

    from ir_coliee.data.catalog import known_dataset

    task = known_dataset(dataset_id).task
    if task not in BM25:
        raise ColieeError(
            f"{dataset_id} answers questions: the BM25 baseline is for Tasks {', '.join(BM25)}"
        )
    if k is not None and k < 1:
        raise ColieeError(f"--k must be at least 1, got {k}")
    depth = {} if k is None else {"k": k}  # else the task's default
    return BM25[task](ir_datasets.load(dataset_id), progress=progress, **depth)
