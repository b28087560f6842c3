"""Checking a submission against the official rules of its task and edition before the organisers do.

:func:`validate_run` returns the findings as data; ``ir_coliee validate`` prints them with file:line
(grouped: a handful per rule) and exits non-zero on errors. Each line is read with the run reader's own
:func:`~ir_coliee.table.run_lines.parse_line`, so a malformed line is described in the reader's words; the rules
of the task (from :mod:`ir_coliee.model`) come on top. Errors break an official rule (format, run tag,
two answers to one question, ids the test collection does not have); warnings point at what is legal
but likely a mistake (duplicates, unanswered questions, articles missing from the Civil Code file).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, Optional, cast

from ir_coliee.errors import (
    ERROR,
    WARNING,
    ColieeDataError,
    ColieeError,
    ColieeFormatError,
    Finding,
    Level,
    PathLike,
    grouped,
    plain_text,
    some,
    total_count,
)
from ir_coliee.formats.pilot import read_torts, remaining_nulls
from ir_coliee.formats.textfile import regular_file
from ir_coliee.inputs.walk import files_of
from ir_coliee.model import (
    ANSWERS,
    DOCUMENTS,
    FORMATS,
    TORTS,
    RunFormat,
    Task,
    TaskLike,
    edition_dataset,
    editions_of,
    expected_any,
    sniff,
    task_of,
)
from ir_coliee.model.tasks import RankedLimit
from ir_coliee.table.run_lines import RUN_TAG, RunColumns, data_lines, read_columns

if TYPE_CHECKING:
    from ir_coliee.data.catalog import Registered

Add = Callable[[Level, Optional[int], str, str], None]
#: Findings kept per rule; the rest are counted in one more finding.
MAX_PER_RULE = 1000

__all__ = ["Finding", "validate_run"]


def _read_lines(readable: PathLike, path: str, task: Task, add: Add) -> Optional[RunColumns]:
    """Every line checked on its own with the reader's checks and the text rules, in one pass, so that one
    bad line does not hide the next."""
    try:
        first = next(data_lines(readable), None)
    except ColieeFormatError as e:
        add(ERROR, e.line, e.problem, "encoding")
        return None
    if first is None:
        add(ERROR, None, "the file holds no run lines", "empty")
        return None
    lineno, parts = first
    looks = sniff(parts)
    if looks not in task.formats:
        kind = f"{looks} format" if looks else "no official format"
        expected = expected_any(task.formats, official=True)
        said = f"{len(parts)} columns ({kind}); {task.label} takes {expected}"
        add(ERROR, lineno, said, "format")
        return None

    def bad_line(e: ColieeFormatError) -> None:
        said = f"{e.problem}; expected {e.expected}" if e.expected != "UTF-8 text" else e.problem
        add(ERROR, e.line, said, e.expected)

    # the official format: an answer line without its tag is refused here
    on_text = _TextRules(path, task, add)
    return read_columns(readable, FORMATS[looks].official(), on_error=bad_line, on_text=on_text)


class _TextRules:
    """The official rules a line's text breaks beyond its fields, seen line by line during the one reading
    pass: "a single ASCII text file", "a single space to separate columns", the constant ``Q0``, ranks 1..n
    that agree with the scores, question ids as written, and a ``/* ... */`` comment only as the first line
    of a ranked (``-L``) file."""

    def __init__(self, path: str, task: Task, add: Add):
        self.comments_allowed = _ranked_file(task, path) is not None
        self.task, self.add = task, add
        self.seen_data = False
        self.ranks: dict[str, tuple[int, float]] = {}  # per query: the last rank and score

    def __call__(self, lineno: int, line: str, parts: Optional[list[str]]) -> None:
        def warn(message: str, rule: str) -> None:
            self.add(WARNING, lineno, message, rule)

        if not line.isascii():
            warn("non-ASCII characters; the official files are ASCII text", "ascii")
        if parts is None:
            if line.strip(" \t\r").startswith("/*") and (
                self.seen_data or not self.comments_allowed
            ):
                where = (
                    "after the first line"
                    if self.seen_data
                    else "in a file that is not a ranked (-L) list"
                )
                warn(f"a /* */ comment {where}; only task3-L files may open with one", "comment")
            return
        self.seen_data = True
        if line != " ".join(parts):
            warn("columns separated by something other than a single space", "separator")
        if self.task.statute and parts[0].endswith(".txt"):
            warn(f"question id {parts[0]!r} carries .txt; runs echo the id as written", "txt")
        if ranked := [f for f in FORMATS.values() if f.width == len(parts) and f.rank is not None]:
            _check_ranked(ranked[0], parts, lineno, self.ranks, self.add)


def _ranked_file(task: Task, path: str) -> Optional[RankedLimit]:
    """The limit of the task's ranked lists where ``path`` is named as one (``task3-L``), else None."""
    limit = task.ranked_limit
    return limit if limit and limit.marker.lower() in os.path.basename(path).lower() else None


def _check_ranked(
    fmt: RunFormat, parts: list[str], lineno: int, ranks: dict[str, tuple[int, float]], add: Add
) -> None:
    for column, value in fmt.fixed:
        if parts[column] != value:
            add(ERROR, lineno, f"column {column + 1} is {parts[column]!r}, not {value!r}", "q0")
    rank_text, score_text = parts[cast(int, fmt.rank)], parts[cast(int, fmt.score)]
    try:
        rank = int(rank_text)
    except ValueError:
        add(ERROR, lineno, f"rank {rank_text!r} is not a whole number", "rank")
        return
    try:
        score = float(score_text)
    except ValueError:
        return  # the reader's check reports it
    last_rank, last_score = ranks.get(parts[fmt.query], (0, float("inf")))
    if rank != last_rank + 1:
        message = f"rank {rank} after rank {last_rank} of this question; ranks run 1, 2, 3, ..."
        add(ERROR, lineno, message, "rank")
    elif score > last_score:
        message = (
            f"score {score_text} above the score of rank {last_rank}: ranks contradict the scores"
        )
        add(ERROR, lineno, message, "rank")
    ranks[parts[fmt.query]] = (rank, score)


def _rows(columns: RunColumns) -> dict[int, list[int]]:
    """The lines of each query code."""
    out: dict[int, list[int]] = {}
    for q, line in zip(columns.queries, columns.lines):
        out.setdefault(q, []).append(line)
    return out


def _check_tags(columns: RunColumns, add: Add) -> None:
    for tag, line in columns.tags.items():
        if not RUN_TAG.fullmatch(tag):
            message = f"run tag {tag!r}: use 1 to 12 letters or digits, no punctuation"
            add(ERROR, line, message, "tag")
    if len(columns.tags) > 1:
        message = f"{len(columns.tags)} run tags ({', '.join(columns.tags)}); a file holds one run, with one tag"
        add(ERROR, None, message, "tags")


def _check_pairs(
    columns: RunColumns, task: Task, path: str, add: Add, scoped: bool = False
) -> None:
    """Duplicates, a query case returned as its own candidate (not where candidates are scoped by query:
    in 2019 and 2020, candidate 001 of query 001 is another case), and the ranked list's limit."""
    for again in columns.duplicates():
        add(WARNING, again.line, f"duplicate of line {again.first_line}: counted once", "duplicate")
    # line by line in Python, as the file was read: no numpy for a file of a few thousand lines
    if task.self_retrieval_forbidden and not scoped:
        ids = columns.doc_ids
        own = {q: ids[qid] for qid, q in columns.query_ids.items() if qid in ids}
        names = list(columns.query_ids)
        for q, doc, line in zip(columns.queries, columns.docs, columns.lines):
            if own.get(q, -1) == doc:
                message = (
                    f"query {names[q]!r} returns itself; a query case is not its own candidate"
                )
                add(ERROR, line, message, "self")
    if limit := _ranked_file(task, path):
        rows = _rows(columns)
        for qid, q in columns.query_ids.items():
            if len(rows[q]) > limit.lines:
                message = f"question {qid!r} has {len(rows[q])} lines; {limit.files} files allow {limit.lines} per question"
                add(ERROR, rows[q][limit.lines], message, "limit")


def _check_against_dataset(columns: RunColumns, task: Task, entry: Registered, add: Add) -> None:
    import ir_datasets

    dataset_id = entry.dataset_id
    dataset = ir_datasets.load(dataset_id)
    released = set(entry.files.released())
    try:  # the queries that have gold
        graded: Optional[set[str]] = {q.query_id for q in dataset.qrels_iter()}
    except ColieeDataError:  # not out yet: test labels come after the competition
        graded = None
    rows = _rows(columns)
    for qid, q in columns.query_ids.items():
        if qid not in released:
            for line in rows[q]:
                add(ERROR, line, f"query {qid!r} is not a query of {dataset_id}", "unknown-query")
        elif graded is not None and qid not in graded:
            message = f"query {qid!r} was released but has no gold: it is not scored"
            for line in rows[q]:
                add(WARNING, line, message, "no-gold")
    if task.gold == DOCUMENTS:
        _check_docs(columns, task, entry.scoped, dataset, released, add)
    if missing := sorted((graded if graded is not None else released) - set(columns.query_ids)):
        said = f"{len(missing)} queries of {dataset_id} have no line (scored as nothing retrieved)"
        if task.gold == ANSWERS:
            said = f"{len(missing)} questions unanswered (scored as wrong)"
        add(WARNING, None, f"{said}: {some(missing, 10)}", "absent-queries")


def _check_docs(
    columns: RunColumns, task: Task, scoped: bool, dataset, released: set[str], add: Add
) -> None:
    """Each line whose document the collection lacks, looking up each distinct pair of a released query once."""
    query_ids, doc_ids = list(columns.query_ids), list(columns.doc_ids)
    names = {
        (q, d): f"{query_ids[q]}/{doc_ids[d]}" if scoped else doc_ids[d]
        for q, d in dict.fromkeys(zip(columns.queries, columns.docs))
        if query_ids[q] in released
    }
    found = set(dataset.docs_store().get_many(set(names.values())))
    level, template = task.unknown_doc
    for q, d, line in zip(columns.queries, columns.docs, columns.lines):
        if (q, d) in names and names[q, d] not in found:
            message = template.format(doc=task.doc_word, doc_id=doc_ids[d], query_id=query_ids[q])
            add(level, line, message, "unknown-doc")


def _test_dataset(task: Task, year: Optional[int], dataset: Optional[str]) -> Optional[Registered]:
    """The dataset whose ids to check: the one named, or the test set of ``year``; an error if it does not exist."""
    if dataset is None and year is not None:
        if year not in editions_of(task.key):
            raise ColieeError(
                f"COLIEE {task.label} has no {year} edition (editions: {', '.join(map(str, editions_of(task.key)))})"
            )
        dataset = edition_dataset(task.key, year)
    if dataset is None:
        return None
    from ir_coliee.data.catalog import known_dataset  # here: a check without one loads no catalog

    return known_dataset(dataset)


def validate_run(
    path: PathLike, task: TaskLike, year: Optional[int] = None, dataset: Optional[str] = None
) -> list[Finding]:
    """Check a submission file against the rules of ``task`` (1-5 or ``"pilot"``) and, given a dataset
    id (or a ``year``, meaning that edition's test dataset), against the collection's ids.

    A dataset id or year that does not exist is an error (:class:`~ir_coliee.errors.ColieeError`);
    a collection whose files are not under the data root leaves the ids unchecked, with a warning.
    """
    path = os.fspath(path)
    task_record = task_of(task)
    findings: list[Finding] = []
    per_rule: Counter[tuple[Level, str]] = Counter()

    def add(level: Level, line: Optional[int], message: str, rule: str) -> None:
        per_rule[level, rule] += 1
        # a 10M-line file of one mistake must not fill the memory
        if per_rule[level, rule] <= MAX_PER_RULE:
            findings.append(Finding(level, path, line, message, rule))

    checked = _test_dataset(task_record, year, dataset)
    if task_record.gold == TORTS:
        try:
            torts = read_torts(path)
        except ColieeFormatError as e:
            add(ERROR, e.line, e.problem, "format")
            return findings
        for null in remaining_nulls(torts):
            add(ERROR, None, f"null left at {null.where()}: {null.subtask} is disqualified", "null")
        return findings
    with regular_file(path) as readable:
        columns = _read_lines(readable, path, task_record, add)
    if columns is not None:
        _check_tags(columns, add)
        _check_pairs(columns, task_record, path, add, scoped=checked is not None and checked.scoped)
    if checked and columns is not None and len(columns):
        try:
            _check_against_dataset(columns, task_record, checked, add)
        except ColieeError as e:
            why = e.short() if isinstance(e, ColieeDataError) else e
            add(
                WARNING, None, f"ids not checked against {checked.dataset_id}: {why}", "not-checked"
            )
    for (level, rule), n in per_rule.items():
        if n > MAX_PER_RULE:
            more = n - MAX_PER_RULE
            said = f"{more:,} more lines like these ({n:,} in all)"
            findings.append(Finding(level, path, None, said, rule, more))
    return sorted(findings, key=lambda f: f.line or 0)


#: The columns of :meth:`Intake.rows`.
INTAKE = ["path", "verdict", "errors", "warnings", "findings"]


class Intake(NamedTuple):
    """:func:`validate_files`: each file's findings, in the order the walk found them, and what the walk
    left out (rule ``skipped``)."""

    files: list[tuple[str, list[Finding]]]
    skipped: list[Finding]

    def rows(self) -> list[list[object]]:
        """One row per file: its verdict, its counts, and its findings on one line (one per rule, then
        how many more)."""
        rows: list[list[object]] = []
        for path, findings in self.files:
            errors = total_count(f for f in findings if f.level == ERROR)
            named = (line.removeprefix(plain_text(path)) for line in grouped(findings, 1))
            lines = (line.removeprefix(":").lstrip() for line in named)  # as grouped names it
            said = "; ".join(f"line {line}" if line[:1].isdigit() else line for line in lines)
            verdict = "not valid" if errors else "valid"
            rows.append([path, verdict, errors, total_count(findings) - errors, said])
        return rows


def validate_files(
    paths: Sequence[PathLike],
    task: TaskLike,
    year: Optional[int] = None,
    dataset: Optional[str] = None,
) -> Intake:
    """:func:`validate_run` of each file of ``paths`` and of the folders among them, walked as every verb
    walks them (:mod:`ir_coliee.inputs.walk`): an organiser's intake of a folder of submissions."""
    walked = files_of(paths)
    return Intake(
        [(f.path, validate_run(f.path, task, year, dataset)) for f in walked.files], walked.skipped
    )
