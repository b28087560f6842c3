"""What the command parsers share: the help format, the exit codes, common options and checks."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, Optional, TextIO, TypeVar, cast

from ir_coliee.errors import ColieeError
from ir_coliee.model import TASK_KEYS
from ir_coliee.outputs.tabular import OUTPUT_FORMATS

EXIT_CODES = "exit codes: 0 done; 1 findings or a scoring refusal (e.g. answers scored against article gold); 2 usage, or input that cannot be read; 141 standard output closed before the end (| head), the files asked for written"


class Help(argparse.HelpFormatter):
    """Help that shows each option's default where it has one worth saying."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        unset = default is None or default is False or default in (argparse.SUPPRESS, [])
        if not unset and "default" not in text:
            text = f"{text} (default: %(default)s)".strip()
        return text


def with_help(sub: Any) -> Any:
    """``sub`` whose every command shows its defaults in --help, and the exit codes."""
    sub.add_parser = functools.partial(sub.add_parser, formatter_class=Help, epilog=EXIT_CODES)
    return sub


T = TypeVar("T")
Parser = argparse.ArgumentParser


def called(api: Callable[..., T], args: argparse.Namespace, **given: object) -> T:
    """``api`` called with each option of the command that is named as one of its parameters (the options
    are named as the API's parameters they set), and ``given`` for the others. The names are read from the
    code, not with :mod:`inspect`, whose import adds 10-15 ms to every eval's start-up."""
    code = cast(Any, api).__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    asked = {name: getattr(args, name) for name in names if hasattr(args, name)}
    return api(**{**asked, **given})


def inputs(parser: Parser, gold: str, runs: str = "submission files or folders of them") -> None:
    """The gold and the runs of the commands that score several runs, each with the command's help."""
    parser.add_argument("gold", help=gold)
    parser.add_argument("runs", nargs="+", help=runs)


def measure_option(parser: Parser, help: str) -> None:
    parser.add_argument("--measure", action="append", help=help)


def plot_option(parser: Parser, what: str, needs: str = "needs matplotlib") -> None:
    parser.add_argument("--plot", help=f"write {what} as .png, .pdf or .svg ({needs})")


def task_options(parser: Parser) -> None:
    parser.add_argument(
        "--task", choices=TASK_KEYS, help="COLIEE task whose official measures to use"
    )
    parser.add_argument("--year", type=int, help="COLIEE edition (default: the newest)")


def resampling_options(
    parser: Parser,
    resamples: str = "resamples for tests and intervals",
    correction: str = "multiple-testing correction",
) -> None:
    """``--resamples``, ``--correction`` and ``--seed`` of the commands that test differences."""
    from ir_coliee.measures.significance import CORRECTIONS

    parser.add_argument("--resamples", type=int, default=10_000, help=resamples)
    parser.add_argument("--correction", choices=CORRECTIONS, default="holm", help=correction)
    parser.add_argument("--seed", type=int, default=42, help="random seed of the resampling")


def answers_options(
    parser: Parser,
    help: str = "2026 Task 3: the answer file of each run, in the runs' order (folders walked sorted)",
    nargs: Optional[str] = "+",
) -> None:
    """2026 Task 3's answer files, by default one per run (each scored with its run as recall-gated
    accuracy)."""
    parser.add_argument("--answers", nargs=nargs, help=help)
    parser.add_argument(
        "--answers-gold",
        help="gold answers for --answers (default: the task4 twin of a dataset GOLD)",
    )


def output_options(
    parser: Parser, help: str = "output format", digits: bool = True, default: Optional[str] = "tsv"
) -> None:
    """The one door out of every command that prints a table: ``--format`` (the styles of the one writer,
    :func:`ir_coliee.outputs.tabular.write_rows`), ``--out`` and ``--digits``."""
    parser.add_argument("--format", choices=OUTPUT_FORMATS, default=default, help=help)
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="write the document to FILE, whole or not at all (default: standard output)",
    )
    if digits:
        digits_option(parser)


def check_outputs(args: argparse.Namespace) -> None:
    """The outputs a command was asked for, checked before the work: ``--out``, ``--plot``, ``--write``
    (each a file of its own), ``--digits``."""
    writable("--out", args.out)
    writable("--write", getattr(args, "write", None))
    plot_target(getattr(args, "plot", None))
    if hasattr(args, "digits"):
        positive("--digits", args.digits, 0)
    taken: dict[str, str] = {}
    inputs = _input_files(args)
    for option in ("--out", "--plot", "--write"):
        path = getattr(args, option[2:], None)
        if path is None or path == "-":  # standard output: the command keeps it for one output
            continue
        if (target := os.path.realpath(path)) in taken:
            raise ColieeError(
                f"{option} {path}: {taken[target]} writes there too; give each its own file"
            )
        if target in inputs:  # the output would replace what the command reads
            raise ColieeError(
                f"{option} {path}: is an input too ({inputs[target]}); give another file"
            )
        taken[target] = option


def _input_files(args: argparse.Namespace) -> dict[str, str]:
    """The real path of each existing file named by an argument other than an output, and the argument."""
    files: dict[str, str] = {}
    for name, value in vars(args).items():
        if name in ("out", "plot", "write"):
            continue
        for given in value if isinstance(value, list) else [value]:
            if isinstance(given, str) and os.path.isfile(given):
                files.setdefault(os.path.realpath(given), name.replace("_", "-"))
    return files


@contextlib.contextmanager
def document(args: argparse.Namespace) -> Iterator[TextIO]:
    """Where a command writes its document: ``--out FILE`` through the atomic writer (a failure leaves no
    half file), else standard output."""
    if args.out is None:
        yield sys.stdout
        return
    from ir_coliee.formats.textfile import atomic_output

    with atomic_output(args.out) as out:
        yield cast(TextIO, out)


def plotted(path: str) -> None:
    """Says where the figure went, on standard error: standard output holds the document alone."""
    print(f"plot: {path}", file=sys.stderr)


def digits_option(parser: Parser) -> None:
    parser.add_argument("--digits", type=int, default=4, help="decimals printed")


def positive(name: str, value: int, least: int = 1) -> None:
    if value < least:
        raise ColieeError(f"{name} must be at least {least}, got {value}")


def plot_target(path: Optional[str]) -> None:
    """``--plot``: a file the command may write, of a format matplotlib writes, and matplotlib there to draw
    it (all before the work)."""
    writable("--plot", path)
    if path:
        from ir_coliee.outputs.plots import figure_format, require

        figure_format(path, "--plot")
        require("matplotlib", "--plot")


def writable(option: str, path: Optional[str]) -> None:
    """An output file the command may write: not a folder, in a folder that exists (checked before the work)."""
    if path is None:
        return
    if os.path.isdir(path):
        raise ColieeError(f"{option} {path}: is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ColieeError(f"{option} {path}: the folder {folder} does not exist")
