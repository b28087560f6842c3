"""Reading the organisers' text files line by line with exact line numbers in every error."""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import IO, BinaryIO, Optional, TextIO, Union, cast

from ir_coliee.errors import ColieeFormatError, PathLike

_BOM = "\ufeff"


#: The name that stands for standard input, as in most command-line tools.
STDIN = "-"
#: The longest line read (bytes): a run line is under a hundred, a one-line label JSON of a whole
#: edition under a megabyte. Past it a line is an error with its number, so that memory stays bounded.
MAX_LINE = 8 << 20
#: The most a stream (standard input, a pipe, a device) is copied before it is refused; a 10M-line
#: run is about 300 MB. ``IR_COLIEE_STREAM_LIMIT`` (bytes) sets another.
STREAM_LIMIT = 4 << 30
_COPY_BLOCK = 1 << 20


#: What a reader takes: a path, ``-`` for standard input, or an open file (text or binary).
Input = Union[PathLike, IO]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Cyclic garbage collection paused (a decorator too) while a large file is read: what a reader makes
    holds no cycle, and each collection while millions of objects are made walks them all (half the time of
    reading a label JSON of a million queries)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@contextlib.contextmanager
def regular_file(path: Input) -> Iterator[PathLike]:
    """A path that can be opened as often as a reader needs: ``path`` itself, or for a stream a temporary
    copy of everything it held, read once (sniffing a pipe's first line must not eat it). Format errors
    raised inside name ``path``, not the copy."""
    # an open file or stream handed over (``open(path)``, ``io.StringIO``, ``sys.stdin``): read from where it stands
    opened = None if isinstance(path, (str, os.PathLike)) else cast(IO, path)
    name = stream_name(path)
    if opened is None and name != STDIN:
        try:
            mode = os.stat(name).st_mode
        except OSError:
            mode = 0  # missing: the reader names it
        # not a pipe, a process substitution (``<(cat run)``), a socket or a device: read as often as needed
        if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)):
            yield cast(PathLike, path)
            return
    # removed on every exit (see cli.main)
    with tempfile.TemporaryDirectory(prefix="ir_coliee-") as folder:
        copy = os.path.join(folder, "input")
        with open(copy, "wb") as out:
            if opened is not None:
                _copy_stream(opened, out, name)
            elif name == STDIN:
                if sys.stdin is None or sys.stdin.closed:
                    raise ColieeFormatError(
                        name, None, "standard input is closed", "a run on standard input"
                    )
                _copy_stream(sys.stdin.buffer, out, name)
            else:
                with open(name, "rb") as source:
                    _copy_stream(source, out, name)
        try:
            yield copy
        except ColieeFormatError as e:  # the stream's name, not its copy's
            raise ColieeFormatError(name, e.line, e.problem, e.expected) from None


def is_input(value: object) -> bool:
    """Whether ``value`` is a file to read: a path, or an open file or stream."""
    return isinstance(value, (str, os.PathLike)) or callable(getattr(value, "read", None))


def stream_name(value: object) -> str:
    """A path's text, or an open file's name (``<stream>`` for one without)."""
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    name = getattr(value, "name", None)
    return name if isinstance(name, str) else "<stream>"


def _copy_stream(source: IO, out: BinaryIO, name: str) -> None:
    """Copy a stream (binary, or text: what a file opened in text mode gives, copied as UTF-8) up to
    :func:`stream_limit` bytes; binary data (a NUL byte) stops it at once, so that ``/dev/urandom`` is refused
    in a moment rather than copied without end."""
    value = os.environ.get("IR_COLIEE_STREAM_LIMIT", "")
    limit, copied, lines = int(value) if value.isdigit() else STREAM_LIMIT, 0, 0
    while True:
        chunk = source.read(_COPY_BLOCK)
        block = chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
        if not block:
            return
        nul = block.find(b"\0")
        if nul != -1:
            line = lines + block.count(b"\n", 0, nul) + 1
            raise ColieeFormatError(name, line, "binary data (a NUL byte)", "a text file")
        copied += len(block)
        if copied > limit:
            raise ColieeFormatError(
                name,
                None,
                f"more than {limit:,} bytes on a stream",
                "a smaller input (IR_COLIEE_STREAM_LIMIT sets the cap)",
            )
        lines += block.count(b"\n")
        out.write(block)


@contextlib.contextmanager
def _opened(path: PathLike) -> Iterator[BinaryIO]:
    """The file open for reading; a missing, unreadable or otherwise failing file is a format error naming it."""
    # (an integer would be opened as a file descriptor, and closed)
    if not isinstance(path, (str, os.PathLike)):
        raise ColieeFormatError(
            None, None, f"{type(path).__name__} {path!r} is no path", "a file's path"
        )
    if os.path.isdir(path):
        raise ColieeFormatError(path, None, "is a directory", "a file")
    if not os.path.exists(path):
        raise ColieeFormatError(path, None, "no such file", "an existing file")
    try:
        f = open(path, "rb")
    except OSError as e:
        raise _unreadable(path, e) from None
    with f:
        try:
            yield f
        except OSError as e:  # e.g. an I/O error part way
            raise _unreadable(path, e) from None


def _unreadable(path: PathLike, e: OSError) -> ColieeFormatError:
    return ColieeFormatError(path, None, f"cannot be read ({e.strerror or e})", "a readable file")


def iter_lines(path: PathLike) -> Generator[tuple[int, str], None, None]:
    """``(line number, text)`` of each line, without the line ending (LF or CRLF) and without a leading
    BOM. A NUL byte, a BOM later in the file (two files joined) and a line longer than :data:`MAX_LINE`
    are errors naming the line."""
    with _opened(path) as f:
        lineno = 0
        while True:
            raw = f.readline(MAX_LINE + 1)
            if not raw:
                return
            lineno += 1
            if len(raw) > MAX_LINE:
                raise ColieeFormatError(
                    path, lineno, f"a line longer than {MAX_LINE:,} bytes", "lines of text"
                )
            if raw.isascii():  # the common case, much cheaper than a checked decode
                text = raw.decode("ascii")
            else:
                text = decode_text(raw, path, lineno)
                if _BOM in text:
                    column = text.index(_BOM) + 1
                    raise ColieeFormatError(
                        path,
                        lineno,
                        f"a byte order mark at column {column} (two files joined?)",
                        "text without one",
                    )
            if "\0" in text:
                raise ColieeFormatError(
                    path, lineno, f"a NUL byte at column {text.index(chr(0)) + 1}", "text"
                )
            yield lineno, text.rstrip("\r\n")


def json_lines(path: Input, expected: str) -> Iterator[tuple[int, object]]:
    """``(line number, JSON value)`` of each non-blank line of ``path`` (a path, ``-`` or an open file):
    a file of one JSON value per line opened, named, decoded and parsed in this one place, every error
    naming the file and the line."""
    name = stream_name(path)
    with regular_file(path) as readable:
        for lineno, text in iter_lines(readable):
            if text.strip():
                yield lineno, parse_json(text, name, expected, line=lineno)


@contextlib.contextmanager
def atomic_output(path: PathLike, mode: str = "w") -> Iterator[IO]:
    """A file to write ``path`` through: a temporary file in the same folder, renamed onto ``path`` only
    when the writing finished, so that a kill, a full disk or a size limit leaves the old file whole (and
    no half file). The file keeps the mode of the one it replaces (a new one: the umask's default); a
    symbolic link is written through, to its target; a device or a pipe (``/dev/stdout``) is written
    directly, and so is a file with other hard links (not atomic then, but every name sees the new file). A
    link loop and a file that cannot be written are refused; an error names ``path``."""
    given = os.fspath(path)
    target = os.path.realpath(given)
    try:
        info: Optional[os.stat_result] = os.stat(target)
    except OSError:
        info = None
    # through the process's own stream, so that what it printed before stays before
    if given in _STANDARD:
        stream = getattr(sys, _STANDARD[given])
        with _named_errors(f"<standard {_STANDARD[given][3:]}>"):
            yield stream.buffer if "b" in mode else stream
            stream.flush()
        return
    if os.path.islink(target):  # where realpath stops at a link, the link is a loop
        raise OSError(errno.ELOOP, "cannot write (a loop of symbolic links)", given)
    if info is not None and not os.access(target, os.W_OK):  # refused as a shell's > refuses it
        # not the file's permissions, its file system's: said so (a read-only mount)
        if os.statvfs(target).f_flag & os.ST_RDONLY:
            raise OSError(errno.EROFS, "cannot write (read-only file system)", given)
        raise PermissionError(errno.EACCES, "cannot write (permission denied)", given)
    if given.startswith(_STREAMS) or (
        info is not None and (not stat.S_ISREG(info.st_mode) or info.st_nlink > 1)
    ):
        # a device or a pipe, or a file of several (hard) links: written in place, for every name to see
        with _named_errors(given), open(given, mode) as device:
            yield device
        return
    folder = os.path.dirname(target)
    with _named_errors(given):
        # ".NAME.xxxxxxxx.tmp" is 14 bytes longer than NAME: cut to the bytes the file system takes (a
        # character may be several; one cut in two stays bytes, as os.fsdecode keeps any name)
        room = _name_max(folder) - len(".." + "x" * 8 + ".tmp")
        name = os.fsdecode(os.fsencode(os.path.basename(target))[: max(room, 1)])
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        if info is not None:
            os.fchmod(fd, stat.S_IMODE(info.st_mode))
        else:  # what open() gives a new file: 0o666 less the umask (read, then put back)
            umask = os.umask(0o022)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        f: IO = open(fd, mode) if "b" in mode else open(fd, mode, encoding="utf-8", newline="\n")
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except OSError as e:
        _remove(temporary)
        kept = "the old file is left as it was" if info is not None else "no file was made"
        raise OSError(e.errno, f"cannot write ({e.strerror or e}); {kept}", path) from None
    except BaseException:
        _remove(temporary)
        raise


#: Paths of devices and of a process's streams, not files: written directly, never replaced.
_STREAMS = ("/dev/", "/proc/")
#: Output paths that name the process's standard output or error, as shell users write them.
_STANDARD = {
    "-": "stdout",
    "/dev/stdout": "stdout",
    "/dev/fd/1": "stdout",
    "/proc/self/fd/1": "stdout",
    "/dev/stderr": "stderr",
    "/dev/fd/2": "stderr",
    "/proc/self/fd/2": "stderr",
}


def _name_max(folder: str) -> int:
    """The longest file name ``folder``'s file system takes (255 where it does not say)."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def write_whole(out: TextIO, text: str) -> None:
    """``text`` written to ``out`` whole, or an ``OSError`` naming ``out``'s file: every byte counted on its
    way (one large write to a full disk was cut at what fit, without an error, and the command exited 0).
    A stream without a descriptor (``io.StringIO``) is written as usual."""
    raw = getattr(getattr(out, "buffer", None), "raw", None)
    if raw is None:
        out.write(text)
        return
    # a path; not "<stdout>" or a descriptor: the caller names those
    name = getattr(out, "name", None)
    named = isinstance(name, str) and name[:1] != "<"
    with _named_errors(str(name)) if named else contextlib.nullcontext():
        out.flush()
        # encoded a part at a time: no second copy of it all
        for start in range(0, len(text), _CHUNK):
            rest = memoryview(
                text[start : start + _CHUNK].encode(out.encoding, out.errors or "strict")
            )
            while rest:
                written = raw.write(rest)
                if not written:  # nothing more fits (None: a non-blocking descriptor that is full)
                    raise OSError(errno.ENOSPC, "the document was cut short")
                rest = rest[written:]


#: Characters of a document encoded at once by :func:`write_whole`.
_CHUNK = 1 << 20


@contextlib.contextmanager
def _named_errors(path: str) -> Iterator[None]:
    try:
        yield
    except OSError as e:
        if e.filename is not None:  # named already (by a write inside, or a file read meanwhile)
            raise
        raise OSError(e.errno, f"cannot write ({e.strerror or e})", path) from None


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def writes_standard_output(path: Optional[PathLike]) -> bool:
    """Whether an output path is the process's standard output (``-``, ``/dev/stdout``): a command then
    says what it did on standard error, so that standard output holds the file alone."""
    return path is not None and _STANDARD.get(os.fspath(path)) == "stdout"


def first_character(path: PathLike) -> str:
    """The first character of the file that is not white space or a BOM (empty for a blank file): what
    kind of file it is (``{`` label JSON, ``<`` XML), asked without reading a line (label JSON may be one
    line of many megabytes)."""
    with _opened(path) as f:
        while True:
            block = f.read(1 << 16)
            if not block:
                return ""
            rest = block.lstrip(b"\xef\xbb\xbf \t\r\n\x0b\x0c")
            if rest:
                return rest[:1].decode("latin-1")


def read_text(path: PathLike) -> str:
    """The whole file as text (BOM removed, CRLF kept as is), with a line-numbered decoding error."""
    with _opened(path) as f:
        return decode_text(f.read(), path)


def decode_text(data: bytes, source: PathLike, line: int = 1) -> str:
    """UTF-8 ``data`` (from ``line`` of ``source`` on) as text without a leading BOM (only a file's first
    line may start with one); an error names ``source``, the line and the column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        lineno = data.count(b"\n", 0, e.start) + line
        line_start = data.rfind(b"\n", 0, e.start) + 1
        raise ColieeFormatError(
            source,
            lineno,
            f"byte {data[e.start]:#04x} at column {e.start - line_start + 1} is not valid UTF-8",
            "UTF-8 text",
        ) from None
    return text[1:] if line == 1 and text.startswith(_BOM) else text


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


def _object_hook(
    repeated: Optional[dict[str, list[object]]],
) -> Callable[[list[tuple[str, object]]], dict[str, object]]:
    """The object hook of :func:`parse_json`: a key given twice in one object is an error (``json.loads``
    would keep the last value and drop the first without a word), or, with ``repeated``, keeps its last
    value as ``json.loads`` does, every value of the key recorded in ``repeated``."""

    def hook(pairs: list[tuple[str, object]]) -> dict[str, object]:
        obj = dict(pairs)
        # no key twice: the dict built in C (a million keys in a tenth of a second)
        if len(obj) == len(pairs):
            return obj
        obj = {}
        for key, value in pairs:
            if key in obj:
                if repeated is None:
                    raise _DuplicateKey(key)
                repeated.setdefault(key, [obj[key]]).append(value)
            obj[key] = value
        return obj

    return hook


def key_line(text: str, key: str, occurrence: int = 1) -> Optional[int]:
    """The line of a JSON key's ``occurrence``-th appearance in ``text`` (``None`` if it has fewer), so that
    errors about a structure can name a line too."""
    found = key_lines(text, [key])[key]
    return found[occurrence - 1] if len(found) >= occurrence else None


#: A JSON string, and the colon after it when it is a key. Every string is matched in turn, so a quote
#: inside a string never starts a match (``["x", ": "]`` holds no key).
_JSON_STRING = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"(\s*:)?')


def key_lines(text: str, keys: Iterable[str]) -> dict[str, list[int]]:
    """The line of every appearance of each of ``keys`` as a JSON key in ``text``, in order: one pass over
    the text whatever the number of keys (a search of the whole text per key made a label file that
    repeats 12,500 keys take minutes). Keys are compared as decoded (``"\\u0030"`` is ``"0"``)."""
    lines: dict[str, list[int]] = {k: [] for k in keys}
    line, at = 1, 0
    for m in _JSON_STRING.finditer(text):
        if m[2] is None:
            continue
        key = json.loads(f'"{m[1]}"') if "\\" in m[1] else m[1]
        if key in lines:
            line, at = line + text.count("\n", at, m.start()), m.start()
            lines[key].append(line)
    return lines


def parse_json(
    text: str,
    source: PathLike,
    expected: str,
    line: Optional[int] = None,
    repeated: Optional[dict[str, list[object]]] = None,
) -> object:
    """``json.loads`` with every failure a :class:`ColieeFormatError` naming ``source`` and the line
    (``line`` for one JSON value per line): malformed JSON, a key given twice in one object (unless
    ``repeated`` is given: then each key's last value is kept and every value of a repeated key recorded
    there), nesting too deep to read, numbers too long to read."""
    try:
        value = json.loads(text, object_pairs_hook=_object_hook(repeated))
    except json.JSONDecodeError as e:
        where = f" at column {e.colno}" if line is not None else ""
        raise ColieeFormatError(
            source, line or e.lineno, f"invalid JSON ({e.msg}{where})", expected
        ) from None
    except _DuplicateKey as e:
        problem = f"the key {e.key!r} appears twice in one object (JSON keeps only the last)"
        raise ColieeFormatError(
            source, line or key_line(text, e.key, 2), problem, expected
        ) from None
    except RecursionError:
        raise ColieeFormatError(source, line, "JSON nested too deeply to read", expected) from None
    except ValueError as e:  # e.g. an integer of more than 4,300 digits
        raise ColieeFormatError(source, line, f"unreadable JSON value ({e})", expected) from None
    bad = _surrogate(value) if _SURROGATE_ESCAPE.search(text) else None
    # "\\ud800" decodes to a lone surrogate: no id can be written or printed with it
    if bad is not None:
        raise ColieeFormatError(
            source, line, f"{bad!r} is not Unicode text (a lone surrogate escape)", expected
        )
    return value


#: The escape of a surrogate code point (``\\ud800``): only then can a decoded string hold a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _surrogate(value: object) -> Optional[str]:
    """The first string in a JSON value that holds a lone surrogate, ``None`` if there is none."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def strip_txt(name: str) -> str:
    """COLIEE case and paragraph ids appear with and without ``.txt``; the id is the bare name."""
    return name[:-4] if name.endswith(".txt") else name
