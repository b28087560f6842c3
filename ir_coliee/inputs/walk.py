"""The one way folders of runs are walked, for every verb that takes a folder (``score`` and what prepares
through it: ``eval``, ``compare``, ``analyse``, ``tune``; ``eval auto``, ``benchmark``, ``validate``): teams
keep runs in sub-folders, beside logs, links and odd files.

- Any depth, without recursion; folders and files in name order, hidden ones (``.DS_Store``) left out.
- A linked folder is followed once, inside the tree or out of it (a team folder linked from elsewhere is
  walked): a link to a folder already walked is not walked again, and a link to a folder that holds the
  one walked (back up the tree, a loop, or ``/``) is not followed; each is said.
- What cannot be a run is reported by name and counted, never read and never a hang: an unreadable file
  or folder, a FIFO, socket or device (reading a FIFO would wait forever), a dangling link, an empty file.
- A path given itself (not found in a folder) is taken as it is: ``-`` and ``<(cat run)`` are streams.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from typing import NamedTuple

from ir_coliee.errors import WARNING, ColieeError, Finding, PathLike

#: The rule of the findings about files a walk or a command left out.
SKIPPED = "skipped"


class Found(NamedTuple):
    """A file a walk found: its path, and the folders between the path given and it."""

    path: str
    folders: tuple[str, ...]


class Walk(NamedTuple):
    files: list[Found]
    skipped: list[Finding]
    """What was left out, each naming the file or folder (rule ``skipped``)."""


def skipped(path: str, why: str) -> Finding:
    return Finding(WARNING, path, None, f"skipped: {why}", SKIPPED)


def walk(paths: Sequence[PathLike]) -> Walk:
    """The files of ``paths``: each path that is no folder as itself, each folder's files below it."""
    found: list[Found] = []
    left: list[Finding] = []
    for path in (os.fspath(p) for p in paths):
        if os.path.isdir(path):
            _walk_folder(path, found, left)
        else:
            found.append(Found(path, ()))
    return Walk(*_once(found, left))


def _once(found: list[Found], left: list[Finding]) -> tuple[list[Found], list[Finding]]:
    """Each file once: a second path to one file (given twice, a link, a hard link) is said, not scored again
    as another run."""
    first: dict[tuple[int, int], str] = {}
    kept = []
    for f in found:
        try:
            info = os.stat(f.path)
        except OSError:  # a stream or a path that is not there: the reader says what is wrong
            info = None
        if info is None or not stat.S_ISREG(info.st_mode):
            kept.append(f)
            continue
        identity = (info.st_dev, info.st_ino)
        if identity in first:
            left.append(skipped(f.path, f"the same file as {first[identity]}, read once"))
        else:
            first[identity] = f.path
            kept.append(f)
    return kept, left


def _walk_folder(top: str, found: list[Found], left: list[Finding]) -> None:
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[str, tuple[str, ...]]] = [(top, ())]
    # a link to a folder holding it would walk the tree again
    above = os.path.dirname(os.path.realpath(top))
    while stack:
        folder, below = stack.pop()
        try:
            here = os.stat(folder)
            if (here.st_dev, here.st_ino) in seen:
                why = "a folder already walked (through a link, or a link loop), not walked again"
                left.append(skipped(folder, why))
                continue
            seen.add((here.st_dev, here.st_ino))
            with os.scandir(folder) as listing:
                visible = (e for e in listing if not e.name.startswith("."))
                entries = sorted(visible, key=lambda e: e.name)
        except OSError as e:
            left.append(skipped(folder, f"the folder cannot be read ({e.strerror or e})"))
            continue
        folders = []
        for entry in entries:
            kind = _kind(entry)
            if (
                kind == "folder"
                and entry.is_symlink()
                and _holds(os.path.realpath(entry.path), above)
            ):
                why = "a link to a folder holding the one walked (such as /), not followed"
                left.append(skipped(entry.path, why))
            elif kind == "folder":
                folders.append((entry.path, (*below, entry.name)))
            elif kind == "file":
                found.append(Found(entry.path, below))
            else:
                left.append(skipped(entry.path, kind))
        stack.extend(reversed(folders))  # depth first, in name order


def _holds(folder: str, other: str) -> bool:
    return os.path.commonpath([folder, other]) == folder


def _kind(entry: os.DirEntry) -> str:
    """``folder``, ``file``, or why the entry is no run file."""
    try:
        info = entry.stat()  # follows links
    except OSError as e:
        return "a dangling link" if entry.is_symlink() else f"cannot be read ({e.strerror or e})"
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a FIFO, socket or device): never read"
    if not os.access(entry.path, os.R_OK):
        return "cannot be read (permission denied)"
    if info.st_size == 0:
        return "an empty file"
    return "file"


def files_of(paths: Sequence[PathLike]) -> Walk:
    """:func:`walk`, refused when it finds no file at all (saying what it left out)."""
    walked = walk(paths)
    if not walked.files:
        why = "; ".join(f"{f.path}: {f.message}" for f in walked.skipped[:3])
        given = ", ".join(os.fspath(p) for p in paths) or "an empty list of runs"
        raise ColieeError(
            f"no run file in {given}" + (f" ({len(walked.skipped)} left out: {why})" if why else "")
        )
    return walked
