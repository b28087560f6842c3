"""Finding the organisers' files under the data root, extracted or inside zip files.

The user drops the packages there as distributed; files are found by their official names
anywhere below the root (nested folders of the same name happen). Nothing is downloaded and
nothing is extracted to disk: zip members are read in place, so no member path can leave the root.
"""

from __future__ import annotations

import functools
import os
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Generic, NamedTuple, Optional, TypeVar

from ir_coliee.errors import ColieeDataError, ColieeWarning, coliee_warnings
from ir_coliee.formats.textfile import decode_text
from ir_coliee.model import EDITION_IN_NAME, YEAR_IN_NAME

ENV_HOME = "COLIEE_HOME"
HOW_TO_GET = (
    "COLIEE data is released by the organisers to registered participants (a signed memorandum); "
    "see the COLIEE competition pages. Place the packages as distributed, extracted or zipped, "
    "under the data root"
)


def logger():
    import ir_datasets  # here, not above: finding a dataset's gold files must not load ir_datasets

    return ir_datasets.log.easy(__name__)


def data_root() -> Path:
    """``$COLIEE_HOME``, else ``$IR_DATASETS_HOME/coliee``, else ``~/.ir_datasets/coliee``."""
    if os.environ.get(ENV_HOME):
        return Path(os.environ[ENV_HOME]).expanduser()
    if os.environ.get("IR_DATASETS_HOME"):
        return Path(os.environ["IR_DATASETS_HOME"]).expanduser() / "coliee"
    return Path("~/.ir_datasets/coliee").expanduser()


class DataFile(NamedTuple):
    """One official file, on disk or in a zip file."""

    parts: tuple[str, ...]
    """Its path below the root (through the zip file's name and the member path for zipped files)."""
    disk_path: str
    """The file itself, or the zip file holding it."""
    member: Optional[str]
    """The member name inside the zip file, or ``None`` for a file on disk."""

    @property
    def name(self) -> str:
        return self.parts[-1]

    @property
    def edition(self) -> Optional[int]:
        """The COLIEE edition of the package it came in (``COLIEE2024statute_data-English`` -> 2024)."""
        # a package's name wins over a year anywhere
        for pattern in (EDITION_IN_NAME, YEAR_IN_NAME):
            for part in self.parts:
                m = pattern.search(part)
                if m:
                    return int(m.group(1))
        return None

    def version(self) -> tuple[int, ...]:
        """What the file is now: its (or its zip file's) identity, and a member's size and CRC in the zip's
        own directory. A file replaced keeping its modification time (``cp -p``, ``rsync -t``, ``unzip``)
        still changes its change time, inode or size: the key of every cache of what a file holds."""
        identity = file_identity(self.disk_path)
        if self.member is None:
            return identity
        try:
            info = open_zip(self.disk_path, identity, os.getpid()).getinfo(self.member)
        except (KeyError, OSError, EOFError, zipfile.BadZipFile):
            return (*identity, -1, -1)  # reading it says what is wrong
        return (*identity, info.file_size, info.CRC)

    def describe(self) -> str:
        return self.disk_path if self.member is None else f"{self.disk_path}!/{self.member}"

    def read_text(self) -> str:
        """The file's text, decoded as every official file is (:func:`ir_coliee.formats.textfile.decode_text`)."""
        return decode_text(self.read_bytes(), self.describe())

    def read_bytes(self) -> bytes:
        """The file's bytes; any failure (unreadable, deleted or changed since the scan, a corrupt or
        encrypted zip, a member larger than :data:`MAX_MEMBER`) is a :class:`ColieeDataError` naming it."""
        try:
            if self.member is None:
                with open(self.disk_path, "rb") as f:
                    return f.read()
            zf = open_zip(self.disk_path, file_identity(self.disk_path), os.getpid())
            return _read_member(zf, self.member)
        except RuntimeError as e:  # zipfile's word for an encrypted member
            raise ColieeDataError(
                f"{self.describe()}: cannot read from the zip file ({e}); extract it with its password "
                f"under {data_root()} instead"
            ) from None
        except KeyError:  # the zip file was replaced since the data root was scanned
            raise ColieeDataError(
                f"{self.describe()}: no longer in the zip file; the data root changed, run again"
            ) from None
        except (OSError, EOFError, zipfile.BadZipFile, zlib.error) as e:
            raise ColieeDataError(
                f"{self.describe()}: cannot be read ({reason(e)}); `ir_coliee data check` lists the files"
            ) from None


#: The largest zip member read (COLIEE's largest file, the e-Gov law XML, is about 10 MB): a small zip that
#: expands to gigabytes must not take the machine's memory.
MAX_MEMBER = 256 * 1024 * 1024


def reason(e: BaseException) -> str:
    return e.strerror if isinstance(e, OSError) and e.strerror else str(e) or type(e).__name__


def _read_member(zf: zipfile.ZipFile, member: str) -> bytes:
    info = zf.getinfo(member)
    if info.file_size > MAX_MEMBER:
        raise zipfile.BadZipFile(
            f"the member expands to {info.file_size:,} bytes, more than {MAX_MEMBER:,}"
        )
    with zf.open(info) as f:
        data = f.read(MAX_MEMBER + 1)  # the declared size can lie
    if len(data) > MAX_MEMBER:
        raise zipfile.BadZipFile(f"the member expands to more than {MAX_MEMBER:,} bytes")
    return data


def file_identity(path: str) -> tuple[int, int, int, int, int]:
    """Size, device, inode, modification and change time: a file replaced or rewritten changes one of them."""
    st = os.stat(path)
    return (st.st_size, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


@functools.lru_cache(maxsize=8)
def open_zip(path: str, identity: tuple[int, ...], pid: int) -> zipfile.ZipFile:
    """Zip files stay open between reads (reopening one parses its whole directory: 7,000 entries), one handle
    per process (``pid``: a handle shared across ``fork`` moves under the other process's reads, "Bad magic
    number" in DataLoader workers) and per identity of the file (a replaced zip is read anew)."""
    return zipfile.ZipFile(path)


T = TypeVar("T")


class FileCache(Generic[T]):
    """What is derived from one file (its parse, its digest), kept while the file is what it was
    (:meth:`DataFile.version`): never served from a file that has changed since. The warnings the
    derivation gave (:class:`ColieeWarning`: a reading rule applied to an organiser's slip) are given again
    on every use, so that each door that reads the file says them."""

    def __init__(self, derive: Callable[[DataFile], T]):
        self._derive = derive
        self._kept: dict[str, tuple[tuple[int, ...], T, list[str]]] = {}

    def __call__(self, f: DataFile) -> T:
        version, where = f.version(), f.describe()
        hit = self._kept.get(where)
        if hit is None or hit[0] != version:
            with coliee_warnings() as said:
                value = self._derive(f)
            hit = self._kept[where] = (version, value, said)
        for message in hit[2]:
            warnings.warn(message, ColieeWarning, stacklevel=2)
        return hit[1]


def zip_members(path: str, prefix: tuple[str, ...], problems: list[str]) -> Iterable[DataFile]:
    try:
        with zipfile.ZipFile(path) as zf:
            names = [info.filename for info in zf.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        problems.append(f"{path}: not a readable zip file ({reason(e)}), skipped")
        return []
    return [DataFile((*prefix, *name.split("/")), path, name) for name in names]
