"""The ``ir_coliee`` command. Each command group is a module holding its parser (``add``) and its handler;
:data:`COMMANDS` lists them in the order ``--help`` shows them. The commands parse arguments and print what
the Python API returns (:mod:`ir_coliee.scoring` and friends): no domain logic lives here."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Callable, Optional

from ir_coliee.cli import baseline, benchmark, compare, data, demo, evaluate, leaderboard, tune, validate
from ir_coliee.cli.options import EXIT_CODES, with_help
from ir_coliee.errors import ColieeError, ColieeScoringError

#: The command groups, in the order of ``ir_coliee --help``: each adds its parser to the subcommands.
COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (
    evaluate.add,
    leaderboard.add,
    validate.add,
    compare.add,
    benchmark.add,
    tune.add,
    baseline.add,
    data.add,
    demo.add,
)


def build_parser() -> argparse.ArgumentParser:
    from ir_coliee import __version__

    parser = argparse.ArgumentParser(
        prog="ir_coliee", description="COLIEE benchmarks: official scoring and data.", epilog=EXIT_CODES
    )
    parser.add_argument("--version", action="version", version=f"ir_coliee {__version__}")
    sub = with_help(parser.add_subparsers(dest="command", required=True))
    for add in COMMANDS:
        add(sub)
    return parser


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM as an exit that unwinds: temporary copies of streams and half-written outputs are removed
    on the way out, as on Ctrl-C."""
    raise SystemExit(128 + signum)


def _stdout_closed() -> bool:
    if sys.stdout is None:  # Python started with descriptor 1 closed
        return True
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):  # a stream without a descriptor (captured output)
        return False
    try:
        os.fstat(descriptor)
    except OSError:
        return True
    return False


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if _stdout_closed():  # `ir_coliee eval ... >&-`: nowhere to print the result
        print("ir_coliee: error: standard output is closed", file=sys.stderr)
        return 2
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader closed the pipe (| head): stop quietly, as shell tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("ir_coliee: interrupted", file=sys.stderr)
        return 130
    except ColieeScoringError as e:  # the inputs are readable, but scoring them as asked would mislead
        print(f"ir_coliee: error: {e}", file=sys.stderr)
        return 1
    except (ColieeError, ValueError) as e:
        print(f"ir_coliee: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a file the user named cannot be written or read: say which, no traceback
        print(f"ir_coliee: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2


__all__ = ["COMMANDS", "build_parser", "main"]
