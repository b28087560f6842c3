"""Where ``ir_coliee benchmark`` finds its runs: a manifest file, or folders named as dataset ids.

A manifest is a text file with one run per line, ``BENCHMARK SYSTEM PATH`` separated by spaces or tabs
(``#`` starts a comment), or a JSON object ``{"BENCHMARK": {"SYSTEM": "PATH"}}``. Every relative path in
it, a run's or a gold file's (a BENCHMARK that is no dataset id), is relative to the manifest's folder,
wherever the command runs. A folder holds one folder per benchmark, named by its dataset id
(``runs/coliee/task1/2025/test/``); each file in it is a system, named by the file name without its
official prefix (``task1.``, ``R06.task4.``) and without ``.txt`` (``task1.bm25`` -> ``bm25``).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import NamedTuple, Optional

from ir_coliee.data.catalog import catalog, dataset_entry, exam_subset
from ir_coliee.errors import (
    WARNING,
    ColieeError,
    ColieeFormatError,
    ColieeScoringError,
    Finding,
    PathLike,
)
from ir_coliee.formats.textfile import iter_lines, parse_json, read_text
from ir_coliee.inputs.gold import is_dataset_id, load_gold
from ir_coliee.inputs.ingest import RunLike, parsed_or_skipped, shared_run
from ir_coliee.inputs.walk import skipped, walk
from ir_coliee.model import name_says, task_of
from ir_coliee.table.runs import ParsedRun
from ir_coliee.table.tables import Table

_EXPECTED = (
    "BENCHMARK SYSTEM PATH (spaces or tabs between), or a JSON object {benchmark: {system: path}}"
)

Manifest = dict[str, dict[str, str]]
#: A folder named by a dataset id, as the messages show one.
_EXAMPLE = "e.g. coliee/task1/2025/test/"


def read_manifest(path: PathLike) -> Manifest:
    """The runs a manifest lists, ``{benchmark: {system: path}}``, in its order."""
    folder = os.path.dirname(os.fspath(path))
    if os.fspath(path).endswith(".json"):
        doc = parse_json(read_text(path), path, _EXPECTED)
        if not isinstance(doc, dict) or not all(isinstance(v, dict) for v in doc.values()):
            raise ColieeFormatError(
                path, None, "a JSON value that is not an object of objects", _EXPECTED
            )
        return {
            _gold_path(folder, str(b)): {str(s): os.path.join(folder, str(p)) for s, p in v.items()}
            for b, v in doc.items()
        }
    runs: Manifest = {}
    for lineno, text in iter_lines(path):
        fields = text.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 3:
            raise ColieeFormatError(path, lineno, f"{len(fields)} fields", _EXPECTED)
        benchmark, system, run = fields
        benchmark = _gold_path(folder, benchmark)
        if system in runs.setdefault(benchmark, {}):
            raise ColieeFormatError(
                path, lineno, f"a second run of {system} on {benchmark}", "one run per system"
            )
        runs[benchmark][system] = os.path.join(folder, run)
    if not runs:
        raise ColieeFormatError(path, None, "no runs listed", _EXPECTED)
    return runs


def _gold_path(folder: str, benchmark: str) -> str:
    """A benchmark as the manifest names it: a gold file relative to the manifest's folder (a file found
    only from the working folder is not taken: its name, joined, is then said missing), else a dataset id."""
    joined = os.path.join(folder, benchmark)
    if is_dataset_id(benchmark) or not (os.path.isfile(joined) or os.path.isfile(benchmark)):
        return benchmark
    return joined


class Found(NamedTuple):
    runs: dict[str, dict[str, RunLike]]
    """Each file read, as a run of its benchmark's task."""
    findings: list[Finding]
    """Files left out (unreadable, special, empty, ...) and systems named by their file names."""


def runs_in_folder(folder: PathLike) -> Found:
    """The runs below ``folder`` in folders whose path below it is a COLIEE dataset id (per-exam subsets
    such as ``coliee/task3/2024/train/h30`` too), walked as every folder is (:mod:`ir_coliee.inputs.walk`).
    A team folder below a dataset-id folder belongs to that benchmark; a file under no dataset-id folder is
    skipped and said, and so is a file that is no run of the benchmark's task (a log, a README). Two files
    of one benchmark whose names give one system (``task1.bm25`` and ``bm25.txt``; ``task3.X`` and
    ``task3-L.X``) are each named by their path below the benchmark's folder, and said: never one replacing
    the other."""
    walked = walk([folder])
    golds: dict[str, Optional[Table]] = {}
    by_benchmark: dict[str, list[tuple[str, ParsedRun]]] = {}
    findings = list(walked.skipped)
    for found in walked.files:
        depth = next(
            (n for n in range(len(found.folders), 0, -1) if _known("/".join(found.folders[:n]))), 0
        )
        if not depth:
            findings.append(
                skipped(found.path, f"not in a folder named by a dataset id ({_EXAMPLE})")
            )
            continue
        benchmark = "/".join(found.folders[:depth])
        # a log beside the runs, or a README of 3 words that reads as one: skipped and said
        run = parsed_or_skipped(found.path, dataset_entry(benchmark).task, "auto")
        if not isinstance(run, Finding) and _shares_no_query(run, benchmark, golds):
            run = skipped(found.path, f"shares no query with the gold of {benchmark}")
        if isinstance(run, Finding):
            findings.append(run)
            continue
        # the path below the benchmark
        below = "/".join((*found.folders[depth:], os.path.basename(run.path)))
        by_benchmark.setdefault(benchmark, []).append((below, run))
    runs: dict[str, dict[str, RunLike]] = {}
    for benchmark, files in by_benchmark.items():
        # task1.bm25, bm25.txt: bm25
        said = [name_says(os.path.basename(below)).system for below, _ in files]
        names = Counter(said)
        for system, (below, run) in zip(said, files):
            if names[system] > 1:
                message = f"{names[system]} files of {benchmark} name the system {system!r}: this one is named {below!r}"
                findings.append(Finding(WARNING, run.path, None, message, "same-system"))
                system = below
            # a renamed file's name may be another file's system
            if system in runs.setdefault(benchmark, {}):
                raise ColieeFormatError(
                    run.path, None, f"a second {system!r} on {benchmark}", "one run per system"
                )
            runs[benchmark][system] = run
    if not runs:
        raise ColieeFormatError(
            folder, None, "no folder named by a dataset id holds runs", _EXAMPLE
        )
    return Found(runs, findings)


def _shares_no_query(run: ParsedRun, benchmark: str, golds: dict[str, Optional[Table]]) -> bool:
    """Whether a file found beside the runs shares no query with the benchmark's gold, as the one door
    (:func:`ir_coliee.inputs.ingest.shared_run`) decides it: a log or README that happens to read as a run."""
    if benchmark not in golds:
        try:
            golds[benchmark] = load_gold(benchmark).table(task_of(dataset_entry(benchmark).task))
        except ColieeError:  # no gold to tell by: scoring the benchmark says what is missing
            golds[benchmark] = None
    table = golds[benchmark]
    if table is None:
        return False
    try:  # the door's own rule: ids in the gold's convention first
        shared_run(run.coded, table, run.path)
    except ColieeScoringError:
        return True
    return False


def _known(path: str) -> bool:
    return path in catalog() or exam_subset(path) is not None  # as dataset_entry finds it, no error
