"""The ``ir_coliee`` command. Each command group is a module holding its parser (``add``) and its handler;
:data:`COMMANDS` lists them in the order ``--help`` shows them. The commands parse arguments and print what
the Python API returns (:mod:`ir_coliee.scoring` and friends): no domain logic lives here.

On a real-size run start-up is the cost, so a command builds its own parser only and imports its own
module only; ``--help`` and anything that names no command build them all."""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import importlib
import io
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, NoReturn, Optional, Union

from ir_coliee.cli.options import EXIT_CODES, with_help
from ir_coliee.errors import (
    ColieeDataError,
    ColieeError,
    ColieeScoringError,
    ColieeWarning,
    import_failure,
    plain_text,
    printable,
)

#: Adds a command group's parsers to the subcommands.
AddParsers = Callable[[argparse._SubParsersAction], None]


class Command(NamedTuple):
    """A command group: the commands its parser adds, and its ``add``: the function, or the name of the
    module of :mod:`ir_coliee.cli` that holds it (imported when one of its commands runs)."""

    names: tuple[str, ...]
    add: Union[str, AddParsers]

    def adder(self) -> AddParsers:
        return (
            self.add
            if callable(self.add)
            else importlib.import_module(f"ir_coliee.cli.{self.add}").add
        )


#: The command groups, in the order of ``ir_coliee --help``.
COMMANDS: tuple[Command, ...] = (
    Command(("eval",), "evaluate"),
    Command(("leaderboard",), "leaderboard"),
    Command(("validate",), "validate"),
    Command(("compare",), "compare"),
    Command(("benchmark",), "benchmark"),
    Command(("analyse",), "analyse"),
    Command(("report",), "report"),
    Command(("tune",), "tune"),
    Command(("baseline",), "baseline"),
    Command(("datasets", "data"), "data"),
    Command(("demo",), "demo"),
)


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command``'s group alone when it names one."""
    from ir_coliee import __version__

    parser = argparse.ArgumentParser(
        prog="ir_coliee",
        # written out: argparse wraps the list of commands differently from one Python to the next
        usage="%(prog)s [-h] [--version] [--debug] COMMAND ...",
        description="COLIEE benchmarks: official scoring and data.",
        epilog=EXIT_CODES,
    )
    parser.add_argument("--version", action="version", version=f"ir_coliee {__version__}")
    parser.add_argument(
        "--debug",
        action="store_true",
        help=f"show the traceback of an error, for a bug report (or set {DEBUG_VARIABLE}=1)",
    )
    sub = with_help(parser.add_subparsers(dest="command", required=True, prog=parser.prog))
    for group in [c for c in COMMANDS if command in c.names] or COMMANDS:
        group.adder()(sub)
    return parser


def say(level: str, message: str, block: bool = False) -> None:
    """One line (or with ``block`` a block) on standard error, ``ir_coliee: LEVEL: message``; control and
    invisible characters from ids are shown as escapes, never sent to the terminal. A warning is said
    once per command, however many reports or readers give it (where the gold of a dataset comes from:
    one finding of each run scored on it, three in the demo)."""
    if level == "warning":
        if message in _SAID:
            return
        _SAID.add(message)
    # one line, whatever the names in it: a line end or tab in a path given as an argument forged a
    # second line (or a column). A block (the files that would serve) has its names one line each where
    # it was raised. Names in one-line form already (a file:line) stay as they are: no backslash doubled
    shown = printable(message)
    if not block:
        shown = shown.replace("\t", "\\t").replace("\n", "\\n")
    print(f"ir_coliee: {level}: {shown}", file=sys.stderr)


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM as an exit that unwinds: temporary copies of streams and half-written outputs are removed
    on the way out, as on Ctrl-C."""
    raise SystemExit(128 + signum)


def _stdout_closed() -> bool:
    if sys.stdout is None:  # Python started with descriptor 1 closed
        return True
    try:
        os.fstat(sys.stdout.fileno())
    except (io.UnsupportedOperation, ValueError, AttributeError):  # a stream without a descriptor
        return False
    except OSError:
        return True
    return False


#: Set (to anything but empty or 0) to see the traceback of an error, for a bug report: as ``--debug``.
DEBUG_VARIABLE = "IR_COLIEE_DEBUG"


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parsed(argv)
    debug = args.debug or os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")
    if _stdout_closed():  # `ir_coliee eval ... >&-`: nowhere to print the result
        say("error", "standard output is closed")
        return 2
    # a path the terminal cannot show is shown with '?', never cut
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    # a command builds millions of small objects that live to its end (a 2M-line gold): the collector's
    # default of a pass every 700 allocations rescans them again and again (a third of the time)
    gc.set_threshold(100_000, 50, 100)
    _SAID.clear()
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        return _run(args, debug)


def command() -> NoReturn:
    """The ``ir_coliee`` process: :func:`main`, then the exit, less the collector's last pass over every
    object the imports made, which the process ends without needing (a tenth of a short command's time)."""
    code = main()
    gc.freeze()
    sys.exit(code)


def _parsed(argv: list[str]) -> argparse.Namespace:
    """The command's arguments. What argparse prints on standard output (``--help``, ``--version``) is
    written whole or said failed, exit 2 (argparse drops a write error: a help to a full disk exited 0),
    also when there is no standard output, or 141 when its reader left; its exit stays a ``SystemExit``."""
    from ir_coliee.formats.textfile import write_whole

    parser = build_parser(next((a for a in argv if not a.startswith("-")), None))
    shown = io.StringIO()
    try:
        with contextlib.redirect_stdout(shown):
            return parser.parse_args(argv)
    except SystemExit:
        if shown.getvalue() and _stdout_closed():  # `--help >&-`: as a command says it
            say("error", "standard output is closed")
            raise SystemExit(2) from None
        try:
            write_whole(sys.stdout, shown.getvalue())
            sys.stdout.flush()
        except BrokenPipeError:
            # the reader left (`| head`): the status of every command, said once
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no flush error at exit
            raise SystemExit(CLOSED_PIPE) from None
        except OSError as failed:
            say("error", f"<standard output>: {failed.strerror or failed}")
            raise SystemExit(2) from None
        raise


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A :class:`ColieeWarning` (a reading rule applied to a slip in a file) as the commands' other warnings;
    any other warning as Python shows it."""
    if issubclass(category, ColieeWarning):
        say("warning", str(message))
    else:
        _SHOW_WARNING(message, category, filename, lineno, file, line)


_SHOW_WARNING = warnings.showwarning
#: The warnings said by the command running.
_SAID: set[str] = set()


class _Stdout(io.FileIO):
    """Standard output whose reader may leave (``| head -1``): what is written after is dropped, so that the
    command still writes the files it was asked to (``--write``, ``--plot``), and :attr:`left` says so."""

    left = False

    def write(self, data) -> int:  # type: ignore[override]
        if not self.left:
            try:
                return super().write(data)
            except BrokenPipeError:
                self.left = True
        return memoryview(data).nbytes


#: The exit status of a command whose standard output was closed before it ended: 128 + SIGPIPE, the
#: status the shell shows for `yes | head -1`'s `yes` (with ``pipefail``), once the files asked for are written.
CLOSED_PIPE = 128 + 13


@contextlib.contextmanager
def _guarded_stdout() -> Iterator[Optional[_Stdout]]:
    """``sys.stdout`` on a :class:`_Stdout` while a command runs (a stream without a descriptor, as in
    tests that capture output, is left as it is)."""
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        yield None
        return
    given = sys.stdout
    given.flush()
    raw = _Stdout(descriptor, "w", closefd=False)
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(raw),
        encoding=given.encoding,
        errors=given.errors,
        newline="\n",
        line_buffering=bool(given.line_buffering),
    )
    try:
        yield raw
    finally:
        with contextlib.suppress(OSError):
            sys.stdout.flush()
        sys.stdout = given


def _run(args: argparse.Namespace, debug: bool = False) -> int:
    """The error boundary of every command: whatever goes wrong below is one message and an exit code (1: the
    inputs are readable but scoring them as asked would mislead; 2: input, usage, or anything else), never a
    traceback; ``--debug`` (or ``$IR_COLIEE_DEBUG``) shows the traceback too, and keeps the code."""
    with _guarded_stdout() as stdout:
        try:
            code = args.func(args)
            sys.stdout.flush()  # a full device is said here, naming standard output
        except KeyboardInterrupt:
            print("ir_coliee: interrupted", file=sys.stderr)
            return 130
        except Exception as e:
            code, message = failure(e, args.command)
            if debug:
                traceback.print_exc()
            say("error", message, block=isinstance(e, ColieeDataError))
            return code
        return CLOSED_PIPE if stdout is not None and stdout.left else code


def failure(e: Exception, command: str) -> tuple[int, str]:
    """The exit code and the message of an error that reached the command line."""
    # the inputs are readable, but scoring them as asked would mislead
    if isinstance(e, ColieeScoringError):
        return 1, str(e)
    if isinstance(e, (ColieeError, ValueError)):
        return 2, str(e)
    if isinstance(e, OSError):  # a file the user named cannot be written or read: say which
        # without a file name: the output the command prints to (a full device, a broken terminal), unless
        # the error is no write error at all (a shared library that fails to load)
        where = "<standard output>" if e.errno in _WRITE_ERRORS else type(e).__name__
        if e.filename:
            where = plain_text(str(e.filename))
        return 2, f"{where}: {e.strerror or e}"
    if isinstance(e, RecursionError):
        return 2, "an input nested too deeply to read"
    if isinstance(e, ImportError):
        return 2, import_failure(e)
    return 2, (
        f"`ir_coliee {command}` failed: {type(e).__name__}: {e}. This is a bug of ir_coliee: please report it with "
        f"the traceback that `ir_coliee --debug {command} ...` (or {DEBUG_VARIABLE}=1) prints"
    )


#: The errors of a write that fails (what an OSError without a file name means on standard output).
_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EPIPE, errno.EBADF}

__all__ = ["COMMANDS", "Command", "build_parser", "main"]
