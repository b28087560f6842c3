"""The one door: every run shape and id convention becomes one normalised table, read once, and every
check and finding is computed on the table the scorer then reads.

A run may be a path, ``-`` or another stream (copied once, with a size cap), a parsed file, a DataFrame
of any dtype, a dict of dicts, a list, generator or other one-shot iterable of rows
(:mod:`ir_coliee.table.tables` turns the in-memory ones into codes, consuming an iterator exactly once). Its
ids are then aligned with the gold's convention (``.txt``, zero padding, case-scoped ids).

The invariant that follows: a run that shares no query with the gold is refused; a run whose lines for
gold queries share no id with the gold is refused when its ids look like another convention than the
gold's (saying which), else reported with counts. A silent 0.0000 cannot come out of the door.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import filterfalse
from typing import NamedTuple, Optional, Union, cast

from ir_measures.util import TYPE_RUN

from ir_coliee.errors import (
    WARNING,
    ColieeError,
    ColieeFormatError,
    ColieeScoringError,
    Finding,
    PathLike,
    some,
)
from ir_coliee.formats.textfile import Input, is_input, regular_file, stream_name
from ir_coliee.inputs.walk import files_of, skipped
from ir_coliee.model import ANSWER_LABELS, FORMATS, FormatName, Task, expected_any, task_of
from ir_coliee.table.run_lines import first_format
from ir_coliee.table.runs import FormatOption, ParsedRun, parse_run
from ir_coliee.table.tables import (
    CodedRun,
    GoldIds,
    Table,
    align,
    as_dicts,
    coded_run,
    describe,
    gold_ids,
    id_kinds,
    no_shared_query,
)

RunLike = Union[str, "os.PathLike[str]", TYPE_RUN, ParsedRun]
RunsLike = Union[RunLike, Sequence[RunLike], Mapping[str, RunLike]]
#: A run at the door: a file that can be read again, a parsed file, or codes.
Opened = Union[str, "os.PathLike[str]", ParsedRun, CodedRun]


class RunInfo(NamedTuple):
    """One scored run: the name of its table row and where it came from."""

    name: str
    """Unique among the runs of one call: the run tag, then the file name where tags collide."""
    path: Optional[str]
    format: Optional[FormatName]
    """The submission format of a file; ``None`` for a run given in memory or a pilot file."""
    tags: list[str]


class Ingested(NamedTuple):
    """One run through the door."""

    info: RunInfo
    run: CodedRun
    """The run as scored: codes, ids in the gold's convention."""


# --- what a run is: one run, or several ----------------------------------------------------------------


def _is_row(item: object) -> bool:
    """One line of a run: a namedtuple with a ``query_id``, a plain tuple, or a mapping with the fields."""
    if isinstance(item, tuple):
        fields = getattr(type(item), "_fields", None)
        return fields is None or "query_id" in fields
    return isinstance(item, Mapping) and {"query_id", "doc_id"} <= set(item)


def _is_whole_run(value: object) -> bool:
    """A run on its own: a file, a table, codes or a parsed file, rows, an iterator, a dict of dicts, a ranx
    ``Run``."""
    value = as_dicts(value)
    if (
        isinstance(value, (CodedRun, str, list, Iterator))
        or hasattr(value, "__fspath__")
        or hasattr(value, "columns")
    ):
        return True
    if isinstance(value, tuple):
        return not _is_row(value)  # a parsed file (a NamedTuple of its own) rather than one line
    return (
        isinstance(value, Mapping)
        and bool(value)
        and all(isinstance(v, Mapping) for v in value.values())
    )


def named_runs(runs: RunsLike) -> dict[str, RunLike]:
    """``{name: run}``: a list of runs (not a list of rows), a mapping of names to runs, or else one run (a
    dict of dicts of scores, a list of rows and a parsed file are one run each)."""
    if (
        isinstance(runs, (list, tuple))
        and not hasattr(runs, "_fields")
        and runs
        and not any(map(_is_row, runs))
    ):
        return {f"run{i}": r for i, r in enumerate(runs)}
    if isinstance(runs, Mapping) and runs and all(map(_is_whole_run, runs.values())):
        return {str(k): v for k, v in runs.items()}
    return {"run": cast(RunLike, runs)}


@contextlib.contextmanager
def opened(named: dict[str, RunLike]) -> Iterator[dict[str, Opened]]:
    """Each run ready to be read as often as needed: a file as itself, a stream as a temporary copy
    (removed on exit), an in-memory run as codes (an iterator consumed here, once)."""
    with contextlib.ExitStack() as streams:
        out: dict[str, Opened] = {}
        for name, run in named.items():
            if is_input(run):
                out[name] = streams.enter_context(regular_file(cast(Input, run)))
            elif isinstance(run, (ParsedRun, CodedRun)):
                out[name] = run
            else:
                out[name] = coded_run(run, f"run {name!r}" if name != "run" else "the run")
        yield out


def holds_labels(runs: list[Opened]) -> bool:
    """Whether the second column of the first run that reads as a run holds Y/N answers (decides the task
    when none is given; a log found first in a folder is not asked); the last one's error where none
    reads."""
    for run in runs[:-1]:
        with contextlib.suppress(ColieeFormatError):
            return holds_labels([run])
    run = runs[-1]
    if isinstance(run, CodedRun):
        docs = set(run.doc_ids)
        return bool(docs) and docs <= set(ANSWER_LABELS)
    fmt = run.format if isinstance(run, ParsedRun) else first_format(run)[1]
    return FORMATS[fmt].labels != ()


# --- reading ----------------------------------------------------------------------------------------


def _read(
    name: str, run: Opened, task: Task, forced: FormatOption, gold_source: str, shown_as: object
) -> tuple[RunInfo, CodedRun, Optional[ParsedRun]]:
    """One run as its task reads it; ``shown_as``: the name to report for a stream's temporary copy."""
    if isinstance(run, CodedRun):
        return RunInfo(name, None, None, []), run, None
    if isinstance(run, ParsedRun):
        shown, looks = run.path, run.format
    else:
        shown = stream_name(shown_as) if is_input(shown_as) else os.fspath(run)
        looks = forced if forced != "auto" else first_format(run)[1]
    # before a file is read: a run of another task is not read at all
    if looks not in task.readable():
        wanted = expected_any(task.readable()) if task.formats else "a pilot JSONL file"
        raise ColieeScoringError(
            f"{shown} holds {looks} lines (e.g. '{FORMATS[looks].example}'), but {task.label} "
            f"({task.title}, gold {gold_source}) takes {wanted}"
        )
    # no second sniff
    parsed = run if isinstance(run, ParsedRun) else parse_run(run, looks)._replace(path=shown)
    label = "+".join(parsed.run_tags) or os.path.basename(parsed.path)
    return RunInfo(label, parsed.path, parsed.format, parsed.run_tags), parsed.coded, parsed


def unique_names(infos: Sequence[RunInfo]) -> list[RunInfo]:
    """Row names that tell the runs apart: the tag; where two files share it, the tag and the file name
    (then the path, then a number)."""
    given = Counter(i.name for i in infos)
    seen: set[str] = set()
    out = []
    for info in infos:
        name = info.name
        if given[name] > 1 and info.path:
            name = f"{name} ({os.path.basename(info.path)})"
            if name in seen:
                name = f"{info.name} ({info.path})"
        base, n = name, 1
        while name in seen:
            n += 1
            name = f"{base} #{n}"
        seen.add(name)
        out.append(info._replace(name=name))
    return out


def ingest(
    named: dict[str, RunLike],
    readable: dict[str, Opened],
    task: Task,
    forced: FormatOption,
    gold: Table,
    gold_source: str,
    found: Collection[str] = (),
) -> tuple[list[Ingested], list[Finding]]:
    """Every run read in its task's format, aligned with the gold, checked (see the module text); the
    findings are those of the aligned runs, the tables the scorer reads. A file ``found`` in a folder that
    is no run of the task (a log, a README, another task's run) is skipped with a finding, each file read
    once; a run given itself is refused."""
    ids = gold_ids(gold)
    kept = []
    findings: list[Finding] = []
    for name, run in named.items():
        try:
            info, coded, parsed = _read(name, readable[name], task, forced, gold_source, run)
            aligned = align(coded, ids)
            checked = check_run(aligned.run, ids, task, info.path or info.name, gold_source)
        except (ColieeFormatError, ColieeScoringError) as e:
            if not isinstance(run, (str, os.PathLike)) or os.fspath(run) not in found:
                raise
            findings.append(not_a_run(os.fspath(run), task, e))
            continue
        kept.append((info, aligned, checked, parsed))
    infos = unique_names([info for info, _, _, _ in kept])
    runs: list[Ingested] = []
    for info, (_, aligned, checked, parsed) in zip(infos, kept):
        where = info.path or info.name
        findings.extend(Finding(WARNING, where, None, note, "mapped-ids") for note in aligned.notes)
        findings.extend(checked)
        if parsed is not None:
            findings.extend(file_findings(parsed, where))
        runs.append(Ingested(info, aligned.run))
    return runs, findings


def not_a_run(path: str, task: Task, e: ColieeError) -> Finding:
    """Why a file found beside the runs is skipped: it is no run of ``task`` (at which line, and why)."""
    what = f"not a {task.label.removeprefix('the ')} run"  # (not "a the pilot run")
    if isinstance(e, ColieeFormatError):
        where = f" (line {e.line})" if e.line else ""
        return skipped(path, f"{what}{where}: {e.problem}")
    return skipped(path, f"{what}: {str(e).removeprefix(path).lstrip(': ')}")


def parsed_or_skipped(path: str, task: str, run_format: FormatOption) -> Union[ParsedRun, Finding]:
    """The file as a run of ``task``, or why it is skipped (a log beside the runs, a file of another task)."""
    try:
        return parse_run(path, run_format, allowed=task_of(task).readable())
    except ColieeFormatError as e:
        return not_a_run(path, task_of(task), e)


def read_apart(run: RunLike, task: Task, gold_source: str) -> tuple[CodedRun, list[Finding]]:
    """One run read in its task's format, as given, with what its file says: not aligned with any gold (a
    test run that a cutoff learned on training gold cuts shares no query with that gold, and is written
    back with its own ids)."""
    named = named_runs(run)
    with opened(named) as readable:
        ((info, coded, parsed),) = [
            _read(name, readable[name], task, "auto", gold_source, named[name]) for name in named
        ]
    return coded, [] if parsed is None else file_findings(parsed, info.path or info.name)


def walked(runs: RunsLike) -> tuple[RunsLike, set[str], list[Finding]]:
    """Runs given as paths of files and folders, walked as every verb walks them
    (:mod:`ir_coliee.inputs.walk`: each file once): the files, those of them found in a folder (skipped,
    not refused, when they are no run), and what the walk left out; runs given otherwise as they are."""
    given = [runs] if isinstance(runs, (str, os.PathLike)) else runs
    if not isinstance(given, (list, tuple)) or not all(
        isinstance(p, (str, os.PathLike)) for p in given
    ):
        return runs, set(), []
    paths = [os.fspath(cast(PathLike, p)) for p in given]
    if len(paths) == 1 and not os.path.isdir(paths[0]):
        return runs, set(), []  # one file: nothing to walk
    walk = files_of(paths)
    files = [f.path for f in walk.files]
    return files, {f for f in files if f not in paths}, walk.skipped


# --- the checks ---------------------------------------------------------------------------------------


def _same_convention(run: set[tuple[str, int]], gold: set[tuple[str, int]]) -> bool:
    """Whether two sets of id kinds can be one convention; where the gold numbers articles (some with a
    branch, 3-2), plain numbers of any width are articles too."""
    if any(kind == "article numbers with a branch (3-2)" for kind, _ in gold):
        articles = {"numbers", "article numbers with a branch (3-2)"}
        run = {("article", 0) if kind in articles else (kind, w) for kind, w in run}
        gold = {("article", 0) if kind in articles else (kind, w) for kind, w in gold}
    return bool(run & gold)


def shared_run(run: object, gold: Table, where: str = "run") -> CodedRun:
    """A run in memory read once, refused as :func:`check_run` refuses a run that shares no query with
    ``gold`` (``evaluate`` and ``compare`` of plain shapes: never a silent 0; the ids mapped to the gold's
    convention are said where the run is scored)."""
    coded = coded_run(run, where)
    ids = gold_ids(gold)
    _shared_lines(align(coded, ids).run, ids, where, "<qrels>")
    return coded


def _shared_lines(
    run: CodedRun, ids: GoldIds, where: str, gold_source: str
) -> tuple[set[str], list[str], int]:
    """The run's queries, the distinct documents of its lines for gold queries, and how many such lines;
    refused when there are none."""
    lines_of = run.lines_per_query()
    known = list(map(ids.position.__contains__, run.query_ids))
    lines = sum(n for n, k in zip(lines_of, known) if k)
    queries = {q for q, n in zip(run.query_ids, lines_of) if n}
    if not lines:
        said = f"{where} shares no query with the gold {gold_source}"
        raise ColieeScoringError(no_shared_query(queries, ids.queries, said))
    return queries, run.docs_of_queries(known), lines


def warned(where: str, said: Iterable[tuple[object, str, str]]) -> list[Finding]:
    """A warning for each ``(holds, message, rule)`` that holds."""
    return [Finding(WARNING, where, None, message, rule) for holds, message, rule in said if holds]


def check_run(
    run: CodedRun, ids: GoldIds, task: Task, where: str, gold_source: str
) -> list[Finding]:
    """Refuse a run that cannot be scored meaningfully; the warnings about what it misses."""
    queries, docs, lines = _shared_lines(run, ids, where, gold_source)
    miss = ""
    if ids.docs.isdisjoint(docs):
        gold_docs = sorted(ids.docs)
        run_kinds, gold_kinds = id_kinds(docs), id_kinds(gold_docs)
        miss = (
            f"none of the {len(docs)} {task.doc_word} ids on the run's {lines} lines for gold queries is in the gold "
            f"(run: {describe(run_kinds)}, e.g. {some(docs, 3)}; gold: {describe(gold_kinds)}, e.g. {some(gold_docs, 3)})"
        )
        if not _same_convention(run_kinds, gold_kinds):
            raise ColieeScoringError(
                f"{where}: {miss}: the run follows another id convention than the gold"
            )
    extra = sorted(queries - ids.position.keys())
    absent = list(filterfalse(queries.__contains__, ids.queries))
    return warned(
        where,
        [
            (miss, f"{miss}: every line is a miss", "no-shared-ids"),
            (
                extra,
                f"{len(extra)} run queries are not in the gold and are ignored: {some(extra)}",
                "unknown-query",
            ),
            (
                absent,
                f"{len(absent)} of {len(ids.queries)} gold queries have no line in the run "
                f"({task.kind.absent}): {some(absent)}",
                "absent-queries",
            ),
        ],
    )


def file_findings(parsed: ParsedRun, where: str) -> list[Finding]:
    """What the file as read says: duplicate lines, several run tags, lines without a tag."""
    duplicates, tags = parsed.duplicates, parsed.run_tags
    shown = ", ".join(f"line {d.line} (first on {d.first_line})" for d in duplicates[:5])
    return warned(
        where,
        [
            (
                duplicates,
                f"{len(duplicates)} duplicate lines, each counted once: {shown}",
                "duplicate",
            ),
            (len(tags) > 1, f"{len(tags)} run tags in {parsed.path}: {some(tags)}", "tags"),
            (
                parsed.untagged,
                f"{parsed.untagged} lines without a run tag (scored; an official submission needs one)",
                "no-tag",
            ),
        ],
    )


#: 2026 Task 3's answer files: one for a run, else one for each run, in order
Answers = Union[PathLike, Sequence[PathLike], None]


def ingest_answers(
    truth: Table, task: Task, runs: list[Ingested], answers: Answers
) -> tuple[list[Ingested], list[Finding]]:
    """Each run's answer file read through the door against the answer gold ``truth`` (refused when it
    shares no question with the gold; its absent, duplicate and untagged lines reported)."""
    single = isinstance(answers, (str, os.PathLike))
    files = [answers] if single else list(cast(list, answers))
    if single and len(runs) > 1:
        raise ColieeError("--answers goes with one run; score each run with its answer file")
    if len(files) != len(runs):
        raise ColieeError(
            f"{len(runs)} runs but {len(files)} answer files: give one answer file per run"
        )
    named: dict[str, RunLike] = {f"answer file {i}": f for i, f in enumerate(files)}
    with opened(named) as readable:
        return ingest(named, readable, task_of(task.gate), "auto", truth, "the gold answers")
