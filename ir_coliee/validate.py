"""Checking a submission against the official rules of its task and edition before the organisers do.

:func:`validate_run` returns the findings as data; ``ir_coliee validate`` prints them with file:line
(grouped: a handful per rule) and exits non-zero on errors. Each line is read with the run reader's own
:func:`~ir_coliee.runs.parse_line`, so a malformed line is described in the reader's words; the rules
of the task (from :mod:`ir_coliee.model`) come on top. Errors break an official rule (format, run tag,
two answers to one question, ids the test collection does not have); warnings point at what is legal
but likely a mistake (duplicates, unanswered questions, articles missing from the Civil Code file).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Callable, Optional

from ir_coliee.datasets.check import dataset_entry
from ir_coliee.datasets.common import released_query_ids
from ir_coliee.datasets.files import ColieeDataError
from ir_coliee.errors import ColieeError, ColieeFormatError, PathLike
from ir_coliee.findings import ERROR, WARNING, Finding, Level, some
from ir_coliee.formats.pilot import read_torts, remaining_nulls
from ir_coliee.model import FORMATS, Task, TaskLike, edition_dataset, editions_of, expected_any, sniff, task_of
from ir_coliee.runs import RUN_TAG, RunLine, data_lines, parse_line
from ir_coliee.textfile import regular_file

Add = Callable[[Level, Optional[int], str, str], None]

__all__ = ["Finding", "validate_run"]


def _read_lines(readable: PathLike, path: str, task: Task, add: Add) -> list[RunLine]:
    """Every line checked on its own, so that one bad line does not hide the next."""
    lines: list[RunLine] = []
    fmt = None
    try:
        for lineno, parts in data_lines(readable):
            if fmt is None:
                looks = sniff(parts)
                if looks not in task.formats:
                    kind = f"{looks} format" if looks else "no official format"
                    expected = expected_any(task.formats)
                    add(ERROR, lineno, f"{len(parts)} columns ({kind}); {task.label} takes {expected}", "format")
                    return []
                fmt = FORMATS[looks]
            try:
                lines.append(parse_line(fmt, parts, path, lineno))
            except ColieeFormatError as e:
                add(ERROR, lineno, f"{e.problem}; expected {e.expected}", "format")
    except ColieeFormatError as e:
        add(ERROR, e.line, e.problem, "encoding")
    if fmt is None and not lines:
        add(ERROR, None, "the file holds no run lines", "empty")
    return lines


def _check_tags(lines: list[RunLine], add: Add) -> None:
    first: dict[str, int] = {}
    for ln in lines:
        if not ln.tag:
            add(ERROR, ln.line, "no run tag; the official format ends each line with the run tag", "no-tag")
        elif ln.tag not in first:
            first[ln.tag] = ln.line
            if not RUN_TAG.fullmatch(ln.tag):
                add(ERROR, ln.line, f"run tag {ln.tag!r}: use 1 to 12 letters or digits, no punctuation", "tag")
    if len(first) > 1:
        add(ERROR, None, f"{len(first)} run tags ({', '.join(first)}); a file holds one run, with one tag", "tags")


def _check_pairs(lines: list[RunLine], task: Task, path: str, add: Add) -> None:
    seen: dict[tuple[str, str], int] = {}
    answered: dict[str, tuple[str, int]] = {}
    one_answer = all(FORMATS[f].labels for f in task.formats)
    for ln in lines:
        key = (ln.query_id, ln.doc_id)
        if key in seen:
            add(WARNING, ln.line, f"duplicate of line {seen[key]}: counted once", "duplicate")
        seen.setdefault(key, ln.line)
        if one_answer:
            if ln.query_id in answered and answered[ln.query_id][0] != ln.doc_id:
                first_label, first_line = answered[ln.query_id]
                add(
                    ERROR,
                    ln.line,
                    f"question {ln.query_id!r} answered {ln.doc_id} here and {first_label} on line {first_line}",
                    "two-answers",
                )
            answered.setdefault(ln.query_id, (ln.doc_id, ln.line))
        if task.self_retrieval_forbidden and ln.query_id == ln.doc_id:
            add(ERROR, ln.line, f"query {ln.query_id!r} returns itself; a query case is not its own candidate", "self")
    limit = task.ranked_limit
    if limit and limit.marker.lower() in os.path.basename(path).lower():
        for qid, n in Counter(ln.query_id for ln in lines).items():
            if n > limit.lines:
                line = [ln.line for ln in lines if ln.query_id == qid][limit.lines]
                add(
                    ERROR,
                    line,
                    f"question {qid!r} has {n} lines; {limit.files} files allow {limit.lines} per question",
                    "limit",
                )


def _gold_queries(dataset) -> Optional[set[str]]:
    """The queries that have gold, ``None`` while the gold is not out (test labels come after the competition)."""
    try:
        return {q.query_id for q in dataset.qrels_iter()}
    except ColieeDataError:
        return None


def _check_against_dataset(lines: list[RunLine], task: Task, dataset_id: str, add: Add) -> None:
    import ir_datasets

    dataset = ir_datasets.load(dataset_id)
    released = set(released_query_ids(dataset))
    graded = _gold_queries(dataset)
    for ln in lines:
        if ln.query_id not in released:
            add(ERROR, ln.line, f"query {ln.query_id!r} is not a query of {dataset_id}", "unknown-query")
        elif graded is not None and ln.query_id not in graded:
            add(WARNING, ln.line, f"query {ln.query_id!r} was released but has no gold: it is not scored", "no-gold")
    known = [ln for ln in lines if ln.query_id in released]
    if task.gold == "documents":
        _check_docs(known, task, dataset_id, dataset, add)
    answered = {ln.query_id for ln in lines}
    missing = sorted((graded if graded is not None else released) - answered)
    if missing:
        add(
            WARNING,
            None,
            f"{len(missing)} questions unanswered (scored as wrong): {some(missing, 10)}"
            if task.gold == "answers"
            else f"{len(missing)} queries of {dataset_id} have no line (scored as nothing retrieved): {some(missing, 10)}",
            "absent-queries",
        )


def _check_docs(known: list[RunLine], task: Task, dataset_id: str, dataset, add: Add) -> None:
    scoped = dataset_entry(dataset_id).scoped

    def doc_of(ln: RunLine) -> str:
        return f"{ln.query_id}/{ln.doc_id}" if scoped else ln.doc_id

    found = set(dataset.docs_store().get_many({doc_of(ln) for ln in known}))
    level, template = task.unknown_doc
    for ln in known:
        if doc_of(ln) not in found:
            add(
                level,
                ln.line,
                template.format(doc=task.doc_word, doc_id=ln.doc_id, query_id=ln.query_id),
                "unknown-doc",
            )


def _test_dataset(task: Task, year: Optional[int], dataset: Optional[str]) -> Optional[str]:
    """The dataset whose ids to check: the one named, or the test set of ``year``; an error if it does not exist."""
    if dataset is None and year is not None:
        if year not in editions_of(task.key):
            raise ColieeError(
                f"COLIEE {task.label} has no {year} edition (editions: {', '.join(map(str, editions_of(task.key)))})"
            )
        dataset = edition_dataset(task.key, year)
    if dataset is not None:
        try:
            dataset_entry(dataset)
        except KeyError:
            raise ColieeError(f"{dataset!r} is not a COLIEE dataset id (see: ir_coliee datasets list)") from None
    return dataset


def validate_run(
    path: PathLike, task: TaskLike, year: Optional[int] = None, dataset: Optional[str] = None
) -> list[Finding]:
    """Check a submission file against the rules of ``task`` (1-5 or ``"pilot"``) and, given a dataset
    id (or a ``year``, meaning that edition's test dataset), against the collection's ids.

    A dataset id or year that does not exist is an error (:class:`~ir_coliee.errors.ColieeError`);
    a collection whose files are not under the data root leaves the ids unchecked, with a warning.
    """
    path = os.fspath(path)
    spec = task_of(task)
    findings: list[Finding] = []

    def add(level: Level, line: Optional[int], message: str, rule: str) -> None:
        findings.append(Finding(level, path, line, message, rule))

    checked = _test_dataset(spec, year, dataset)
    if spec.gold == "torts":
        try:
            torts = read_torts(path)
        except ColieeFormatError as e:
            add(ERROR, e.line, e.problem, "format")
            return findings
        for null in remaining_nulls(torts):
            add(ERROR, None, f"null left at {null.where()}: {null.subtask} is disqualified", "null")
        return findings
    with regular_file(path) as readable:
        lines = _read_lines(readable, path, spec, add)
    _check_tags(lines, add)
    _check_pairs(lines, spec, path, add)
    if checked and lines:
        try:
            _check_against_dataset(lines, spec, checked, add)
        except ColieeDataError as e:
            add(WARNING, None, f"ids not checked against {checked}: {e.short()}", "not-checked")
        except ColieeError as e:
            add(WARNING, None, f"ids not checked against {checked}: {e}", "not-checked")
    return sorted(findings, key=lambda f: f.line or 0)
