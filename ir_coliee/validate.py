"""Checking a submission against the official rules of its task and edition before the organisers do.

:func:`validate_run` returns the findings as data; ``ir_coliee validate`` prints them with file:line
and exits non-zero on errors. Errors break an official rule (format, run tag, two answers to one
question, ids the test collection does not have); warnings point at what is legal but likely a
mistake (duplicates, unanswered questions, articles missing from the Civil Code file).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Callable, NamedTuple, Optional

import ir_datasets

from ir_coliee.datasets.caselaw import SCOPE
from ir_coliee.datasets.check import dataset_entry
from ir_coliee.datasets.files import ColieeDataError
from ir_coliee.errors import ColieeError, ColieeFormatError, PathLike
from ir_coliee.formats.pilot import read_torts, remaining_nulls
from ir_coliee.runs import ANSWER_LABELS, RUN_TAG, data_lines, detect_format

ERROR, WARNING = "error", "warning"
MAX_TASK3_L = 100
_FORMAT_OF_TASK = {"1": ("pairs",), "2": ("pairs",), "3": ("pairs", "trec"), "4": ("answers",), "5": ("answers",)}


class Finding(NamedTuple):
    """One problem of a submission file."""

    level: str
    """``error`` (breaks an official rule) or ``warning``."""
    path: str
    line: Optional[int]
    """1-based line, or ``None`` for the file as a whole."""
    message: str

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.level}: {self.message}"


class _Line(NamedTuple):
    line: int
    query_id: str
    doc_id: str
    tag: str


def _strip(name: str) -> str:
    return name[:-4] if name.endswith(".txt") else name


def _read_lines(path: str, task: str, add: Callable[..., None]) -> list[_Line]:
    """Every line checked on its own, so that one bad line does not hide the next."""
    lines: list[_Line] = []
    fmt = None
    try:
        for lineno, parts in data_lines(path):
            if fmt is None:
                fmt = detect_format(parts, path, lineno) if len(parts) in (3, 6) else None
                if fmt is None or fmt not in _FORMAT_OF_TASK[task]:
                    allowed = " or ".join(_FORMAT_OF_TASK[task])
                    add(ERROR, lineno, f"{len(parts)} columns ({fmt or 'unknown'} format); Task {task} takes {allowed}")
                    return []
            width = 6 if fmt == "trec" else 3
            if len(parts) != width:
                add(ERROR, lineno, f"{len(parts)} columns; the file's format ({fmt}) has {width}")
                continue
            if fmt == "trec":
                try:
                    float(parts[4])
                except ValueError:
                    add(ERROR, lineno, f"score {parts[4]!r} is not a number")
                    continue
            doc = parts[2] if fmt == "trec" else parts[1]
            if fmt == "answers" and doc not in ANSWER_LABELS:
                add(ERROR, lineno, f"answer {doc!r} is not Y or N")
                continue
            lines.append(_Line(lineno, _strip(parts[0]), doc if fmt == "answers" else _strip(doc), parts[-1]))
    except ColieeFormatError as e:
        add(ERROR, e.line, e.problem)
    if fmt is None and not lines:
        add(ERROR, None, "the file holds no run lines")
    return lines


def _check_tags(lines: list[_Line], add: Callable[..., None]) -> None:
    first: dict[str, int] = {}
    for ln in lines:
        if ln.tag not in first:
            first[ln.tag] = ln.line
            if not RUN_TAG.fullmatch(ln.tag):
                add(ERROR, ln.line, f"run tag {ln.tag!r}: use 1 to 12 letters or digits, no punctuation")
    if len(first) > 1:
        add(ERROR, None, f"{len(first)} run tags ({', '.join(first)}); a file holds one run, with one tag")


def _check_pairs(lines: list[_Line], task: str, path: str, add: Callable[..., None]) -> None:
    seen: dict[tuple[str, str], int] = {}
    answered: dict[str, tuple[str, int]] = {}
    for ln in lines:
        key = (ln.query_id, ln.doc_id)
        if key in seen:
            add(WARNING, ln.line, f"duplicate of line {seen[key]}: counted once")
        seen.setdefault(key, ln.line)
        if task in ("4", "5"):
            if ln.query_id in answered and answered[ln.query_id][0] != ln.doc_id:
                first_label, first_line = answered[ln.query_id]
                add(
                    ERROR,
                    ln.line,
                    f"question {ln.query_id!r} answered {ln.doc_id} here and {first_label} on line {first_line}",
                )
            answered.setdefault(ln.query_id, (ln.doc_id, ln.line))
        if task == "1" and ln.query_id == ln.doc_id:
            add(ERROR, ln.line, f"query {ln.query_id!r} returns itself; a query case is not its own candidate")
    if task == "3" and "-L" in os.path.basename(path):
        for qid, n in Counter(ln.query_id for ln in lines).items():
            if n > MAX_TASK3_L:
                line = [ln.line for ln in lines if ln.query_id == qid][MAX_TASK3_L]
                add(ERROR, line, f"question {qid!r} has {n} lines; task3-L files allow {MAX_TASK3_L} per question")


def _check_against_dataset(lines: list[_Line], task: str, dataset_id: str, add: Callable[..., None]) -> None:
    dataset = ir_datasets.load(dataset_id)
    queries = {q.query_id for q in dataset.queries_iter()}
    for ln in lines:
        if ln.query_id not in queries:
            add(ERROR, ln.line, f"query {ln.query_id!r} is not a query of {dataset_id}")
    known = [ln for ln in lines if ln.query_id in queries]
    if task in ("1", "2", "3"):
        scoped = dataset_entry(dataset_id).scoped
        wanted = {(f"{ln.query_id}{SCOPE}{ln.doc_id}" if scoped else ln.doc_id) for ln in known}
        found = set(dataset.docs_store().get_many(wanted))
        for ln in known:
            did = f"{ln.query_id}{SCOPE}{ln.doc_id}" if scoped else ln.doc_id
            if did not in found:
                if task == "3":
                    add(WARNING, ln.line, f"article {ln.doc_id!r} is not in the Civil Code file")
                elif task == "2":
                    add(ERROR, ln.line, f"paragraph {ln.doc_id!r} is not a paragraph of case {ln.query_id!r}")
                else:
                    add(ERROR, ln.line, f"case {ln.doc_id!r} is not a candidate of query {ln.query_id!r}")
    if task in ("4", "5"):
        answered = {ln.query_id for ln in lines}
        missing = sorted(queries - answered)
        if missing:
            shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
            add(WARNING, None, f"{len(missing)} questions unanswered (scored as wrong): {shown}")


def _default_dataset(task: str, year: Optional[int]) -> Optional[str]:
    if year is None:
        return None
    return f"coliee/pilot/{year}/test" if task == "pilot" else f"coliee/task{task}/{year}/test"


def validate_run(
    path: PathLike, task: object, year: Optional[int] = None, dataset: Optional[str] = None
) -> list[Finding]:
    """Check a submission file against the rules of ``task`` (1-5 or ``"pilot"``) and, given a dataset
    id (or a ``year``, meaning that edition's test dataset), against the collection's ids."""
    path = os.fspath(path)
    task = str(task).lower()
    if task not in (*_FORMAT_OF_TASK, "pilot"):
        raise ValueError(f"unknown COLIEE task {task!r}")
    findings: list[Finding] = []

    def add(level: str, line: Optional[int], message: str) -> None:
        findings.append(Finding(level, path, line, message))

    dataset_id = dataset or _default_dataset(task, year)
    if task == "pilot":
        try:
            torts = read_torts(path)
        except ColieeFormatError as e:
            add(ERROR, e.line, e.problem)
            return findings
        for null in remaining_nulls(torts):
            add(ERROR, None, f"null left at {null.where()}: {null.subtask} is disqualified")
        return findings
    lines = _read_lines(path, task, add)
    _check_tags(lines, add)
    _check_pairs(lines, task, path, add)
    if dataset_id and lines:
        try:
            _check_against_dataset(lines, task, dataset_id, add)
        except KeyError:
            add(WARNING, None, f"ids not checked: {dataset_id!r} is not a COLIEE dataset id")
        except ColieeDataError as e:
            add(WARNING, None, f"ids not checked against {dataset_id}: {e.short()}")
        except ColieeError as e:
            add(WARNING, None, f"ids not checked against {dataset_id}: {e}")
    return sorted(findings, key=lambda f: f.line or 0)
