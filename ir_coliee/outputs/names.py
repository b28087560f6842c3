"""The names a paper table prints: a benchmark's short name (``T1 2025``), a gold file's as long as tells it
apart from the others, the names a caller gives; never two rows or two groups printed alike."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from ir_coliee.errors import ColieeArgumentError


def short_name(benchmark: str) -> str:
    """A benchmark as a paper's header names it: ``coliee/task1/2025/test`` -> ``T1 2025`` (another split
    follows: ``T3 2024 train/h30``), a gold file -> its file name without extension, another id as given."""
    # the pilot is no benchmark cell
    found = re.fullmatch(r"coliee/task(\d)/(\d{4})/(.+)", benchmark)
    if found:
        task, year, split = found.groups()
        return f"T{task} {year}" + ("" if split == "test" else f" {split}")
    return (
        os.path.splitext(os.path.basename(benchmark))[0] if os.path.exists(benchmark) else benchmark
    )


def _file_name(path: str, folders: int, suffix: bool) -> str:
    """A gold file's name with its last ``folders`` parent folders, with or without its extension."""
    *parents, name = os.path.abspath(path).split(os.sep)
    return "/".join(
        [*parents[len(parents) - folders :], name if suffix else os.path.splitext(name)[0]]
    )


def _refuse_same_file(files: Sequence[str]) -> None:
    """One gold file given twice (by two paths) would be two benchmarks of one name."""
    for i, b in enumerate(files):
        twin = next((a for a in files[:i] if os.path.samefile(a, b)), None)
        if twin is not None:
            raise ColieeArgumentError(
                f"benchmarks {twin!r} and {b!r} are the same file: give it once"
            )


def _unique_file_name(b: str, files: Sequence[str]) -> str:
    """A gold file's name lengthened (more parent folders, then its extension) until no other of
    ``files`` shares it; its short name if none does."""
    depth = max(len(os.path.abspath(b).split(os.sep)) - 1, 0)
    ways = [(n, suffix) for suffix in (False, True) for n in range(depth + 1)]
    for w in ways:
        if all(_file_name(b, *w) != _file_name(a, *w) for a in files if a != b):
            return _file_name(b, *w)
    return short_name(b)


def _refuse_clashes(shown: Mapping[str, str], kind: str, keys: Sequence[str]) -> None:
    printed = [shown[k] for k in keys]
    clash = [k for k in keys if printed.count(shown[k]) > 1]
    if clash:
        said = " and ".join(repr(k) for k in clash)
        raise ColieeArgumentError(
            f"the {kind} {said} would print as one name {shown[clash[0]]!r}: give names="
        )


def paper_names(
    benchmarks: Sequence[str], systems: Sequence[str], names: Mapping[str, str]
) -> dict[str, str]:
    """The name the paper table prints for each benchmark and system: as ``names`` gives it, else a benchmark's
    :func:`short_name`, a gold file's lengthened until no other gold file shares it (more parent folders, then
    its extension). Two benchmarks (or two systems) printed alike, or one gold file twice, are refused."""
    files = [b for b in benchmarks if os.path.exists(b)]
    _refuse_same_file(files)
    shown = {b: _unique_file_name(b, files) if b in files else short_name(b) for b in benchmarks}
    shown = {**shown, **{s: s for s in systems}, **names}
    _refuse_clashes(shown, "benchmarks", benchmarks)
    _refuse_clashes(shown, "systems", systems)
    return shown
