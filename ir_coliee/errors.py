"""The package's own error types: every reader and scorer raises these, never a bare traceback."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional, Union

PathLike = Union[str, "os.PathLike[str]"]


def shown(value: str, limit: int = 40) -> str:
    """``value`` quoted for a message, cut to ``limit`` characters (a 5,000-digit field stays readable)."""
    return repr(value) if len(value) <= limit else f"{value[:limit]!r}... ({len(value):,} characters)"


class ColieeError(ValueError):
    """Base class of every error ir_coliee raises on bad input."""


class ColieeFormatError(ColieeError):
    """A file does not follow the official format.

    ``path`` and ``line`` (1-based, ``None`` when the problem is not one line) locate the problem;
    ``expected`` says what the official format wants there.
    """

    def __init__(self, path: Optional[PathLike], line: Optional[int], problem: str, expected: str = ""):
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.problem = problem
        self.expected = expected
        where = self.path or "<input>"
        if line is not None:
            where = f"{where}:{line}"
        message = f"{where}: {problem}"
        if expected:
            message = f"{message}; expected {expected}"
        super().__init__(message)

    def renamed(self, path: PathLike) -> ColieeFormatError:
        """The same problem, located in ``path`` (a stream's name rather than its temporary copy)."""
        return ColieeFormatError(path, self.line, self.problem, self.expected)


class ColieeScoringError(ColieeError):
    """The run or gold cannot be scored as asked (e.g. two different answers for one question)."""


class ColieeDataError(ColieeError, LookupError):
    """Licensed data is missing or unreadable; the message lists the files expected and where.

    ``what`` names the missing part and ``names`` the official file names that would serve.
    """

    def __init__(self, message: str, what: str = "", names: Sequence[str] = (), unreadable: Sequence[str] = ()):
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
