"""What goes wrong, in one place: the package's error types (every reader and scorer raises these, never a
bare traceback), the one error boundary of the API, and problems of an input reported as data (findings)."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal, NamedTuple, Optional, TypeVar, Union, cast

PathLike = Union[str, "os.PathLike[str]"]


def shown(value: str, limit: int = 40) -> str:
    """``value`` quoted for a message, cut to ``limit`` characters (a 5,000-digit field stays readable)."""
    return (
        repr(value) if len(value) <= limit else f"{value[:limit]!r}... ({len(value):,} characters)"
    )


#: Characters that move or recolour a terminal, or hide text: C0 and C1 controls (not tab and line end),
#: zero-width and bidirectional marks; and lone surrogates (a file name that is not UTF-8, as
#: ``os.fsdecode`` gives it), which no output can encode. An id read from a file must not drive the
#: terminal it is shown on, nor fail the write of the document that names it.
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
    "\ud800-\udfff]"
)


def printable(text: str) -> str:
    """``text`` with every control or invisible character written as its escape (``\\x1b``, ``\\u202e``,
    ``\\udcff``)."""
    return UNSAFE.sub(
        lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text
    )


def plain_text(text: str) -> str:
    """``text`` as shown in a document or a message, one line: controls, invisible characters and lone
    surrogates as escapes (``\\x1b``, ``\\u202e``, ``\\udcff``), a tab or line end as ``\\t`` or ``\\n``
    (never a new column, row or message line), and a backslash that these would make one of them as
    ``\\\\`` (each name shown one way; ``C:\\runs`` as it is). No formula guard: a document is no
    spreadsheet."""
    text = printable(_ESCAPE_LIKE.sub(r"\\\\", text)).replace("\t", "\\t").replace("\n", "\\n")
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")  # line ends to Unicode


#: A backslash that would read as the start of an escape of :func:`plain_text`: before the letter or
#: backslash of one, or before a character that is written as one.
_ESCAPE_LIKE = re.compile(r"\\(?=[xutn\\\t\n\u2028\u2029]|" + UNSAFE.pattern + ")")


class ColieeError(ValueError):
    """Base class of every error ir_coliee raises on bad input."""


class ColieeArgumentError(ColieeError):
    """An argument the package does not take (an unknown task, format, correction or measure; a cutoff out
    of range): a ``ValueError`` as Python's own are, and one message at the error boundary, not "a bug"."""


class ColieeFormatError(ColieeError):
    """A file does not follow the official format.

    ``path`` and ``line`` (1-based, ``None`` when the problem is not one line) locate the problem;
    ``expected`` says what the official format wants there.
    """

    def __init__(
        self, path: Optional[PathLike], line: Optional[int], problem: str, expected: str = ""
    ):
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.problem = problem
        self.expected = expected
        where = plain_text(self.path) if self.path else "<input>"  # one line, whatever the name
        if line is not None:
            where = f"{where}:{line}"
        message = f"{where}: {problem}"
        if expected:
            message = f"{message}; expected {expected}"
        super().__init__(message)


class ColieeScoringError(ColieeError):
    """The run or gold cannot be scored as asked (e.g. two different answers for one question)."""


class ColieeDataError(ColieeError, LookupError):
    """Licensed data is missing or unreadable; the message lists the files expected and where.

    ``what`` names the missing part and ``names`` the official file names that would serve.
    """

    def __init__(
        self,
        message: str,
        what: str = "",
        names: Sequence[str] = (),
        unreadable: Sequence[str] = (),
    ):
        super().__init__(message)
        self.what, self.names, self.unreadable = what, tuple(names), tuple(unreadable)

    def short(self) -> str:
        """One line: what is missing, which files would serve, and what may be them but cannot be read."""
        if not self.names:
            return str(self).split("\n")[0]
        not_read = "".join(f"; not read: {p}" for p in self.unreadable)
        return f"{self.what} not found: expected {' or '.join(self.names)}{not_read}"


class ColieeWarning(UserWarning):
    """Something a score depends on that the caller may not expect (e.g. run ids read as the gold's)."""


@contextlib.contextmanager
def coliee_warnings() -> Iterator[list[str]]:
    """The messages of the :class:`ColieeWarning` s given inside, each once, in order: added on exit to the
    list yielded, instead of shown. Any other warning goes on as it would."""
    said: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield said
    for w in caught:
        if not issubclass(w.category, ColieeWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        elif str(w.message) not in said:
            said.append(str(w.message))


#: Each package ir_coliee imports, by module: the name pip installs it by, and the extra of ir_coliee that
#: brings it ("" for a dependency of every install). A test holds it to pyproject.toml.
PACKAGES: dict[str, tuple[str, str]] = {
    "ir_measures": ("ir-measures", ""),
    "ir_datasets": ("ir-datasets", ""),
    "pytrec_eval": ("pytrec-eval-terrier", ""),
    "pandas": ("pandas", ""),
    "jinja2": ("jinja2", ""),
    "numpy": ("numpy", ""),
    "pyarrow": ("pyarrow", ""),
    "tqdm": ("tqdm", ""),
    "bm25s": ("bm25s", "demo"),
    "matplotlib": ("matplotlib", "plot"),
    "pyterrier": ("python-terrier", "pyterrier"),
}


def install_hint(module: str) -> str:
    """How to install the package of ``module`` (``pyterrier.measures``: ``pip install python-terrier``),
    and the extra of ir_coliee that brings it."""
    package, extra = PACKAGES.get(module.split(".")[0], (module.split(".")[0], ""))
    return f"pip install {package}" + (f" (or pip install 'ir_coliee[{extra}]')" if extra else "")


def import_failure(e: ImportError) -> str:
    """What a failed import means and its fix: a package missing is installed, one that is installed but
    fails to import (a missing shared library) is reinstalled. The package is the module the error names,
    else the one whose code raised it (a package whose own ``__init__`` fails)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    name = (e.name or (tb.tb_frame.f_globals.get("__name__") if tb else None) or "?").split(".")[0]
    if isinstance(e, ModuleNotFoundError):
        return f"the package {name} is not installed: {install_hint(name)}"
    kind = "optional" if PACKAGES.get(name, ("", "?"))[1] else "required"
    package = PACKAGES.get(name, (name, ""))[0]
    return (
        f"the {kind} package {name} failed to import ({e}): pip install --force-reinstall {package}"
    )


F = TypeVar("F", bound=Callable)


def guarded(verb: F) -> F:
    """The error boundary of a public API verb: a call that does not fit the signature is Python's
    ``TypeError``; a file that cannot be read or written an ``OSError`` naming it; anything else that goes
    wrong below is a :class:`ColieeError` naming the verb and what happened (the original chained as its
    cause, for a bug report), never an error from deep inside another library."""

    @functools.wraps(verb)
    def call(*args, **kwargs):
        import inspect  # here, not at import: the command line imports this module, and inspect costs 5 ms

        inspect.signature(verb).bind(*args, **kwargs)
        try:
            return verb(*args, **kwargs)
        except (ColieeError, OSError):
            raise
        except RecursionError:
            raise ColieeError(f"{verb.__name__}: an input nested too deeply to read") from None
        except ImportError as e:
            raise ColieeError(f"{verb.__name__}: {import_failure(e)}") from e
        except Exception as e:
            if getattr(e, "coliee_hosted", False):
                raise  # a host library's own error (see hosted): as the host raised it
            raise ColieeError(
                f"{verb.__name__}: {type(e).__name__}: {e} (an input shape ir_coliee does not take, or a bug of "
                "ir_coliee: the original error is chained as this one's cause)"
            ) from e

    return cast(F, call)


def hosted(error: Exception) -> Exception:
    """``error`` marked as a host library's own (``pt.Experiment`` refusing one of its arguments, or a system it
    ran failing): the error boundary lets it through unchanged, neither reworded nor called a bug of ir_coliee."""
    error.coliee_hosted = True  # type: ignore[attr-defined]
    return error


# --- findings: problems of an input reported as data (the validator's and the scorer's) ----------------

Level = Literal["error", "warning"]
ERROR: Level = "error"
WARNING: Level = "warning"
#: How many findings of one rule are shown before the rest are counted.
SHOWN = 5


class Finding(NamedTuple):
    """One problem of a submission file (or of a run as scored)."""

    level: Level
    """``error`` (breaks an official rule, or makes a score meaningless) or ``warning``."""
    path: str
    line: Optional[int]
    """1-based line, or ``None`` for the file as a whole."""
    message: str
    rule: str = ""
    """What kind of problem (``duplicate``, ``unknown-query``, ...): findings of one rule are grouped."""
    stands_for: int = 1
    """How many lines the finding stands for: more than one for the finding that counts the lines of a
    rule beyond those kept one by one."""

    def __str__(self) -> str:
        where = plain_text(self.path) + ("" if self.line is None else f":{self.line}")
        return f"{where}: {self.level}: {self.message}"


def grouped(findings: Iterable[Finding], shown: int = SHOWN) -> Iterator[str]:
    """The findings as lines to print: at most ``shown`` per rule and path, then one line counting the rest."""
    by_rule: dict[tuple[str, str, str], list[Finding]] = {}
    for f in findings:
        by_rule.setdefault((f.path, f.rule or f.message, f.level), []).append(f)
    for (path, _, level), group in by_rule.items():
        single = [f for f in group if f.stands_for == 1]
        yield from map(str, single[:shown])
        total = total_count(group)
        if total > len(single[:shown]):
            yield f"{plain_text(path)}: {level}: ... and {total - len(single[:shown]):,} more like these ({total:,} in all)"


def total_count(findings: Iterable[Finding]) -> int:
    """How many lines (or problems) the findings stand for."""
    return sum(f.stands_for for f in findings)


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` and ``noun``, in the plural (``plural``, else with an ``s``) unless ``n`` is 1."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def some(ids: Sequence[str], n: int = SHOWN) -> str:
    """``a, b, c, ...``: the first ``n`` ids of a list, each of more than 40 characters cut (:func:`shown`):
    an id of megabytes must not make a message of megabytes."""
    cut = [i if len(i) <= 40 else shown(i) for i in ids[:n]]
    return ", ".join(cut) + (", ..." if len(ids) > n else "")
