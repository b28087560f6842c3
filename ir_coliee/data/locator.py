"""Which file serves each name: the index of the data root (extracted files and zip members, found by
their official names anywhere below it), kept while the root, its listings and its zip files stay as they
were; the message that says what is missing; and the record of which file serves each part of a dataset
(:class:`Source`), which the catalog of dataset ids and ``ir_coliee data check`` share.
"""

from __future__ import annotations

import contextlib
import fnmatch
import operator
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, Optional

from ir_coliee.data.files import (
    ENV_HOME,
    HOW_TO_GET,
    DataFile,
    data_root,
    file_identity,
    logger,
    reason,
    zip_members,
)
from ir_coliee.errors import ColieeDataError, ColieeError

#: A file as the walk finds it on disk: ``(folder parts, name, folder path)``, a plain tuple made in a
#: fraction of the time of a :class:`DataFile` (the first touch of a data root waits on the walk), which
#: :func:`as_file` makes when one is asked for. Zip members are found as DataFiles.
Found = tuple


def as_file(found: Found) -> DataFile:
    if type(found) is DataFile:
        return found
    rel, name, folder = found
    return DataFile((*rel, name), os.path.join(folder, name), None)


def _parts(found: Found) -> tuple[str, ...]:
    return found.parts if type(found) is DataFile else (*found[0], found[1])


def index(
    root: Path, problems: list[str], zips: list[str], folders_met: dict[str, list[str]]
) -> dict[str, list[Found]]:
    """Every file below ``root`` by its name, looking inside zip files. Hidden files (``.DS_Store``) are
    skipped; linked folders are followed (users link data into place) but a link loop is not; what
    cannot be read (an unreadable folder, a dangling link, a FIFO or device, a corrupt zip) is skipped
    and added to ``problems``, so that one bad file never hides the rest. The folders met are added to
    ``folders_met`` by name (an empty one holds no file to index, but is there).

    The first touch of a data root waits on this, so it stays near the cost of ``os.walk``: plain
    strings from ``os.scandir``, whose listing already says which entries are plain files (no ``stat``,
    ``access`` or ``Path`` per file: together they took five times as long as the walk), and files
    indexed as they are found, as plain tuples. Whether a file may be read is asked when it is chosen
    (:meth:`Locator.pick`) or read (an error naming it). The zip files met are added to ``zips``."""
    by_name: dict[str, list[Found]] = {}
    seen: set[tuple[int, int]] = set()
    folders: list[tuple[str, tuple[str, ...]]] = [(os.fspath(root), ())]
    while folders:
        folder, rel = folders.pop()
        below: list[tuple[str, tuple[str, ...]]] = []
        remaining = iter(_listing(folder, seen, problems))
        while True:
            try:  # once per folder, not per entry; after an entry that fails, on with the next
                for entry in remaining:
                    name = entry.name
                    if name[0] == ".":
                        continue
                    # follows links; for a plain file, the listing already says so
                    if entry.is_file():
                        if name[-4:].lower() == ".zip":
                            zips.append(entry.path)
                            for member in zip_members(entry.path, (*rel, name), problems):
                                by_name.setdefault(member.name, []).append(member)
                            continue
                        by_name.setdefault(name, []).append((rel, name, folder))
                    elif entry.is_dir():
                        below.append((entry.path, (*rel, name)))
                        folders_met.setdefault(name, []).append(entry.path)
                    else:
                        problems.append(f"{entry.path}: {_not_regular(entry)}, skipped")
                break
            except OSError as e:
                problems.append(f"{entry.path}: cannot be read ({reason(e)}), skipped")
        folders.extend(reversed(below))  # depth first, in name order, as os.walk goes
    return by_name


def _listing(folder: str, seen: set[tuple[int, int]], problems: list[str]) -> list[os.DirEntry]:
    """The entries of ``folder`` by name; none (and a problem) for an unreadable folder or a link loop."""
    try:
        here = os.stat(folder)
        if (here.st_dev, here.st_ino) in seen:  # a link back up the tree
            problems.append(f"{folder}: a link loop, not followed")
            return []
        seen.add((here.st_dev, here.st_ino))
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=operator.attrgetter("name"))
    except OSError as e:
        problems.append(f"{e.filename or folder}: cannot be read ({reason(e)})")
        return []
    if "".join(e.name for e in entries).isascii():  # one test per folder on the common path
        return entries
    return [e for e in entries if _utf8_name(e, problems)]


def _utf8_name(entry: os.DirEntry, problems: list[str]) -> bool:
    """Whether the entry's name is valid UTF-8 (Python holds the bytes of one that is not as lone
    surrogates, which no id can carry); a name that is not is skipped and named in ``problems``."""
    try:
        entry.name.encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(entry.path).decode("utf-8", "backslashreplace")
        problems.append(f"{shown}: the file name is not valid UTF-8, skipped")
        return False
    return True


def _not_regular(entry: os.DirEntry) -> str:
    """Why an entry that is neither a file nor a folder cannot be read."""
    if entry.is_symlink() and not os.path.exists(entry.path):
        return "a dangling link"
    return "not a regular file (a FIFO, socket or device)"


Standing = Callable[[DataFile], tuple]


def copy_order(f: DataFile) -> tuple[bool, int, str]:
    """The rule between copies of one official file that serve equally well: extracted before zipped,
    then the shallowest path (a ``backup/`` copy is deeper), then the path itself."""
    return (f.member is not None, len(f.parts), f.describe())


def _subfolders(root: str) -> list[str]:
    """The folders right below the root: their listings change when a package is added inside one
    (``statute/COLIEE2026statute_data-Japanese``) or a file is added to a flat pool."""
    try:
        with os.scandir(root) as listing:
            return [e.path for e in listing if e.is_dir() and not e.name.startswith(".")]
    except OSError:
        return []


#: What a file or folder is now (:func:`file_identity`), ``None`` when it cannot be read.
Identity = Optional[tuple[int, ...]]


def _identity_or_none(path: str) -> Identity:
    try:
        return file_identity(path)
    except OSError:
        return None


class Locator:
    """The files below the data root by name; scanned on first use, and again whenever the data root is
    another folder (``$COLIEE_HOME`` changed), its listing or that of a folder right below it changed (a
    package added or removed) or a zip file below it is not the file it was. Files added deeper inside an
    extracted package are seen after :meth:`refresh`; a file replaced in place is read anew by every cache
    (:class:`FileCache`)."""

    def __init__(self, root: Optional[Path] = None):
        self._root = root
        self._by_name: Optional[dict[str, list[Found]]] = None
        self._folders: dict[str, list[str]] = {}
        #: The root scanned, its identity and each zip file's: the index serves while they hold.
        self._scanned: tuple[str, Identity, tuple[tuple[str, Identity], ...]] = ("", None, ())
        #: What the scan could not read, one line per file or folder (``data check`` prints them).
        self.problems: list[str] = []
        self._generation = 0
        #: The file (or folder) chosen among several copies, and the copies not read, by what was chosen.
        self.copies: dict[str, list[str]] = {}

    @property
    def root(self) -> Path:
        return self._root if self._root is not None else data_root()

    def _index(self) -> dict[str, list[Found]]:
        root = os.fspath(self.root)
        if self._by_name is None or not self._still(root):
            self.refresh()
            self.problems = []
            zips: list[str] = []
            self._folders = {}
            is_dir = os.path.isdir(root)
            self._by_name = index(self.root, self.problems, zips, self._folders) if is_dir else {}
            watched = tuple((p, _identity_or_none(p)) for p in [*zips, *_subfolders(root)])
            self._scanned = (root, _identity_or_none(root), watched)
        return self._by_name

    def _still(self, root: str) -> bool:
        """Whether the scan still describes the data root (one ``stat`` of it and of each zip file)."""
        scanned_root, identity, watched = self._scanned
        if root != scanned_root or _identity_or_none(root) != identity:
            return False
        return all(_identity_or_none(path) == known for path, known in watched)

    def find(self, pattern: str) -> list[DataFile]:
        """Files whose name matches the glob ``pattern`` (case-sensitive)."""
        by_name = self._index()
        if not any(c in pattern for c in "*?["):
            return [as_file(f) for f in by_name.get(pattern, [])]
        matching = (files for name, files in by_name.items() if fnmatch.fnmatchcase(name, pattern))
        return [as_file(f) for files in matching for f in files]

    def pick(self, candidates: Iterable[DataFile], standing: Standing) -> list[DataFile]:
        """``candidates`` best first: by the caller's ``standing`` (edition, kind of file), then
        :func:`copy_order`. Copies of the best of equal standing are named once in a warning and kept
        in :attr:`copies` for ``data check``."""
        ordered = sorted(
            filter(self._readable, candidates), key=lambda f: (standing(f), copy_order(f))
        )
        if ordered:
            best = ordered[0]
            rivals = [
                f.describe()
                for f in ordered[1:]
                if f.name == best.name and standing(f) == standing(best)
            ]
            self._note(best.describe(), rivals)
        return ordered

    def _readable(self, f: DataFile) -> bool:
        """Whether ``f`` may be read; a file that may not is skipped, once named in :attr:`problems`."""
        if os.access(f.disk_path, os.R_OK):
            return True
        why = "permission denied"
        if not os.path.exists(f.disk_path):
            why = "no longer there: removed since the data root was scanned"
        problem = f"{f.disk_path}: cannot be read ({why}), skipped"
        if problem not in self.problems:
            self.problems.append(problem)
        return False

    def _note(self, chosen: str, rivals: list[str]) -> None:
        if rivals and chosen not in self.copies:
            self.copies[chosen] = rivals
            logger().warn(
                f"{len(rivals) + 1} copies under the data root: reading {chosen} "
                f"(extracted before zipped, then the shallowest path), not {', '.join(rivals)}"
            )

    def under(self, folder: str) -> dict[tuple[str, ...], DataFile]:
        """Files below a folder of this name, by their path inside it.

        A zip file often unpacks into a nested folder of the same name; paths start after its last
        occurrence. When several copies of the folder exist, the one holding most files serves; among
        equally full copies, :func:`copy_order`'s rule (extracted, then shallowest), with a warning.
        """
        copies: dict[tuple[str, ...], dict[tuple[str, ...], DataFile]] = {}
        for files in self._index().values():
            for found in files:
                parts = _parts(found)
                if folder in parts[:-1]:
                    cut = len(parts) - 1 - parts[:-1][::-1].index(folder)
                    copies.setdefault(parts[:cut], {})[parts[cut:]] = as_file(found)
        if not copies:
            return {}

        def order(prefix: tuple[str, ...]) -> tuple[int, bool, int, tuple[str, ...]]:
            zipped = any(part.lower().endswith(".zip") for part in prefix)
            return (-len(copies[prefix]), zipped, len(prefix), prefix)

        ranked = sorted(copies, key=order)
        best = ranked[0]
        self._note(
            "/".join(best), ["/".join(p) for p in ranked[1:] if len(copies[p]) == len(copies[best])]
        )
        return copies[best]

    def folders(self, name: str) -> list[str]:
        """The extracted folders of this name below the data root, as the scan met them (one that holds
        no file is in no other answer of the locator)."""
        self._index()
        return self._folders.get(name, [])

    def beside(self, f: DataFile) -> dict[tuple[str, ...], DataFile]:
        """Every file in ``f``'s folder and below, by its path relative to that folder (zip files
        are part of the path, so this stays inside one zip file or one folder tree)."""
        prefix = f.parts[:-1]
        n = len(prefix)
        found = (g for files in self._index().values() for g in files)
        return {parts[n:]: as_file(g) for g in found if (parts := _parts(g))[:n] == prefix}

    @property
    def generation(self) -> int:
        """Changes whenever the scan is made anew, so that what was derived from it can be too."""
        self._index()
        return self._generation

    def refresh(self) -> None:
        self._by_name = None
        self.copies = {}
        self._generation += 1


class Source(NamedTuple):
    """One part of a dataset and the file it is read from (or why it cannot be)."""

    part: str
    """``docs``, ``queries``, ``qrels``, ..."""
    location: Optional[str]
    """The file it is read from, ``None`` when missing."""
    problem: str
    """What is missing or odd (empty when all is well)."""
    edition: Optional[int] = None
    """The COLIEE edition of the package the file came in, when its path says."""
    unreadable: bool = False
    """Whether the file is there but cannot be read (else, when ``location`` is ``None``, it is missing)."""


def source_of(part: str, resolve: Callable[[], DataFile]) -> Source:
    """Where ``part`` is read from, or what is missing or unreadable, without raising."""
    try:
        found = resolve()
    except ColieeDataError as e:
        return Source(part, None, e.short())
    except ColieeError as e:  # a file that says which files serve (a query list) cannot be read
        return Source(part, None, str(e).split("\n")[0], unreadable=True)
    return Source(part, found.describe(), "", found.edition)


#: The locator the datasets use; :func:`refresh` forgets its scan (e.g. after adding files).
LOCATOR = Locator()


def refresh() -> None:
    LOCATOR.refresh()


@contextlib.contextmanager
def data_root_at(folder: str) -> Iterator[None]:
    """The data root at ``folder`` for the duration of the block, then as it was (the environment restored,
    the variable set or not), each scanned anew."""
    from unittest import mock

    try:
        with mock.patch.dict(os.environ, {ENV_HOME: folder}):
            refresh()
            yield
    finally:
        refresh()


def first_of(found: list[DataFile], what: str, names: Sequence[str], dataset_id: str) -> DataFile:
    """The first of ``found`` (best first), or the error that ``what`` is :func:`missing`."""
    if not found:
        raise missing(what, names, dataset_id)
    return found[0]


def missing(what: str, names: Sequence[str], dataset_id: str) -> ColieeDataError:
    """The error for files that are not under the data root: which, where, and how to get them; and what
    the scan could not read that may be them (a truncated zip file of the same name)."""
    listed = "\n".join(f"  - {n}" for n in names)
    stems = {re.split(r"[/*?\[ ]", n)[0].rsplit(".", 1)[0] for n in names} - {""}
    related = [p for p in LOCATOR.problems if any(stem in p for stem in stems)]
    unreadable = "".join(f"\nUnder the data root, not read: {p}" for p in related)
    return ColieeDataError(
        f"{dataset_id}: {what} not found. Expected one of these official files anywhere below the data root "
        f"{data_root()} (set ${ENV_HOME} to change it):\n{listed}{unreadable}\n{HOW_TO_GET}. "
        "`ir_coliee data check` lists what each dataset finds.",
        what,
        names,
        related,
    )
