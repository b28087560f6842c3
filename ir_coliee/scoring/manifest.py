"""Where ``ir_coliee benchmark`` finds its runs: a manifest file, or folders named as dataset ids.

A manifest is a text file with one run per line, ``BENCHMARK SYSTEM PATH`` separated by spaces or tabs
(``#`` starts a comment; a relative path is relative to the manifest's folder), or a JSON object
``{"BENCHMARK": {"SYSTEM": "PATH"}}``. A folder holds one folder per benchmark, named by its dataset id
(``runs/coliee/task1/2025/test/``); each file in it is a system, named by the file name without its
official prefix (``task1.``, ``R06.task4.``) and without ``.txt`` (``task1.bm25`` -> ``bm25``).
"""

from __future__ import annotations

import os
import re

from ir_coliee.errors import ColieeFormatError, PathLike
from ir_coliee.releases.catalog import dataset_entry
from ir_coliee.textfile import iter_lines, parse_json, read_text

#: The official prefix of a submission file's name: the task, after the exam for Tasks 4 and 5.
_OFFICIAL_PREFIX = re.compile(r"^(?:[HR]\d+\.)?task\d[\w-]*\.", re.IGNORECASE)
_EXPECTED = "BENCHMARK SYSTEM PATH (spaces or tabs between), or a JSON object {benchmark: {system: path}}"

Manifest = dict[str, dict[str, str]]


def system_name(file_name: str) -> str:
    """``task1.bm25``, ``task3-L.bm25``, ``R06.task4.bm25``, ``bm25.txt``: ``bm25``."""
    name = _OFFICIAL_PREFIX.sub("", file_name)
    return name[:-4] if name.endswith(".txt") else name


def read_manifest(path: PathLike) -> Manifest:
    """The runs a manifest lists, ``{benchmark: {system: path}}``, in its order."""
    folder = os.path.dirname(os.fspath(path))
    if os.fspath(path).endswith(".json"):
        doc = parse_json(read_text(path), path, _EXPECTED)
        if not isinstance(doc, dict) or not all(isinstance(v, dict) for v in doc.values()):
            raise ColieeFormatError(path, None, "a JSON value that is not an object of objects", _EXPECTED)
        return {str(b): {str(s): os.path.join(folder, str(p)) for s, p in v.items()} for b, v in doc.items()}
    runs: Manifest = {}
    for lineno, text in iter_lines(path):
        fields = text.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 3:
            raise ColieeFormatError(path, lineno, f"{len(fields)} fields", _EXPECTED)
        benchmark, system, run = fields
        if system in runs.setdefault(benchmark, {}):
            raise ColieeFormatError(path, lineno, f"a second run of {system} on {benchmark}", "one run per system")
        runs[benchmark][system] = os.path.join(folder, run)
    if not runs:
        raise ColieeFormatError(path, None, "no runs listed", _EXPECTED)
    return runs


def runs_in_folder(folder: PathLike) -> Manifest:
    """The runs below ``folder`` in folders whose path below it is a COLIEE dataset id (per-exam subsets
    such as ``coliee/task3/2024/train/h30`` too), in path order."""
    runs: Manifest = {}
    root = os.fspath(folder)
    for here, _, files in sorted(os.walk(root)):
        benchmark = os.path.relpath(here, root).replace(os.sep, "/")
        if _known(benchmark):
            for name in sorted(f for f in files if not f.startswith(".")):
                runs.setdefault(benchmark, {})[system_name(name)] = os.path.join(here, name)
    if not runs:
        raise ColieeFormatError(
            folder, None, "no folder named by a dataset id holds runs", "e.g. coliee/task1/2025/test/"
        )
    return runs


def _known(path: str) -> bool:
    try:
        dataset_entry(path)
    except KeyError:
        return False
    return True
