"""``ir_coliee data check`` and ``ir_coliee datasets``: the licensed files, and ir_datasets' own command."""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ir_coliee.cli import options
from ir_coliee.errors import ColieeArgumentError, ColieeError

if TYPE_CHECKING:
    from ir_coliee.outputs.tabular import OutputFormat


def add(sub: argparse._SubParsersAction) -> None:
    datasets = sub.add_parser(
        "datasets",
        help="ir_datasets' command line (list, export, lookup, ...) with the COLIEE datasets",
        description="Runs `ir_datasets ARGS` with the COLIEE datasets registered, e.g. "
        "`ir_coliee datasets export coliee/task3/2024/test qrels`.",
    )
    datasets.add_argument(
        "--available", action="store_true", help="list the ids whose files are all here"
    )
    datasets.add_argument("irds_args", nargs=argparse.REMAINDER, help="arguments for ir_datasets")
    datasets.set_defaults(func=run_datasets)
    data = sub.add_parser(
        "data",
        help="the licensed data: which files are found",
        description="The licensed data under the data root ($COLIEE_HOME, else "
        "~/.ir_datasets/coliee): `ir_coliee data check` says which "
        "datasets are here and the file behind each part.",
    )
    data_commands = options.with_help(data.add_subparsers(dest="data_command", required=True))
    check = data_commands.add_parser(
        "check",
        help="which datasets are here, complete or not; the file behind each part",
        description="Without ids: one line per dataset whose files are here (complete, or what is missing) and "
        "one for the absent ones. With ids or --all: the file behind each part, and notes (counts against a "
        "complete official copy, released questions without gold, gold ids not in the documents).",
    )
    check.add_argument("datasets", nargs="*", help="dataset ids (default: a summary of all)")
    check.add_argument("--all", action="store_true", help="list the files of every dataset")
    options.output_options(
        check,
        "output format (tsv: the plain listing, one line per row; the others: a table with a header)",
        digits=False,
    )
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    """With dataset ids or --all: the file behind each part of each dataset, and notes; exit 1 when any part is
    missing. Without: one line per dataset found (complete, or what is missing), one line for the absent ones."""
    from ir_coliee.data.datasets.check import listed_ids
    from ir_coliee.data.files import ENV_HOME, data_root
    from ir_coliee.data.locator import LOCATOR

    options.check_outputs(args)
    root = data_root()
    if not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "does not exist"
        raise ColieeError(
            f"the data root {root} {what} (set ${ENV_HOME} to the folder holding the COLIEE packages)"
        )
    rows: list[list[str]] = []
    if args.datasets or args.all:
        complete = _check_each(args.datasets or listed_ids(), rows)
    else:
        complete = _summary(listed_ids(), rows)
    rows += [["data root", "problem", problem] for problem in LOCATOR.problems]
    with options.document(args) as out:
        _write_check(str(root), rows, out, args.format)
    return 0 if complete else 1


def _write_check(root: str, rows: list[list[str]], out: TextIO, style: OutputFormat) -> None:
    """The listing: tsv as it always printed, one line per row (a summary's have two fields); the other
    styles a table of three columns, the data root said as the style keeps notes."""
    from ir_coliee.outputs.escape import ESCAPERS, plain_text
    from ir_coliee.outputs.tabular import note, write_json, write_rows

    if style == "tsv":  # the listing's own shape, its names escaped as the tsv writer's
        out.write(f"data root: {plain_text(root)}\n")
        out.writelines("\t".join(map(ESCAPERS[style], row)) + "\n" for row in rows)
        return
    header = ["dataset", "part", "where"]
    rows = [row if len(row) == 3 else [row[0], "", row[1]] for row in rows]
    if style == "json":
        write_json({"data_root": root, "rows": [dict(zip(header, row)) for row in rows]}, out)
        return
    out.write(note(f"data root: {root}", style))
    write_rows(header, rows, out, 0, style=style)


def _summary(dataset_ids: list[str], rows: list[list[str]]) -> bool:
    from ir_coliee.data.datasets.check import status

    absent, complete = [], True
    for dataset_id in dataset_ids:
        state, wrong = status(dataset_id)
        if state == "absent":
            absent.append(dataset_id)
            continue
        complete &= state == "complete"
        rows.append([dataset_id, state + (f": {'; '.join(wrong)}" if wrong else "")])
    here = f"{len(absent)} of {len(dataset_ids)} datasets have none of their files here (--all lists them)"
    rows.append(["absent", here])
    return complete


def _check_each(dataset_ids: Sequence[str], rows: list[list[str]]) -> bool:
    from ir_coliee.data.catalog import known_dataset
    from ir_coliee.data.datasets.check import check_dataset

    complete = True
    for dataset_id in dataset_ids:
        known_dataset(dataset_id)
        try:
            sources = check_dataset(dataset_id)
        except ColieeError as e:  # one bad file never hides the rest
            complete = False
            rows.append([dataset_id, "error", f"ERROR: {e}"])
            continue
        for source in sources:
            complete &= source.location is not None
            if source.location is None:
                problem = source.problem.removeprefix(f"{dataset_id}: ")  # said in the first column
                where = f"{'UNREADABLE' if source.unreadable else 'MISSING'}: {problem}"
            else:
                where = source.location or f"NOTE: {source.problem}"
            rows.append([dataset_id, source.part, where])
    return complete


def run_datasets(args: argparse.Namespace) -> int:
    """ir_datasets' own command line, with the COLIEE datasets registered; --available lists the ids whose
    files are all under the data root."""
    if args.available:
        from ir_coliee.data.datasets.check import listed_ids, status

        for dataset_id in listed_ids():
            if status(dataset_id)[0] == "complete":
                print(dataset_id)
        return 0
    import ir_datasets
    from ir_datasets.commands import COMMANDS as IRDS_COMMANDS

    given = args.irds_args
    if not given or given[0] not in IRDS_COMMANDS:  # ir_datasets would print its usage and exit 1
        said = f"{given[0]!r}" if given else "none"
        raise ColieeArgumentError(
            f"datasets: expected one of {', '.join(IRDS_COMMANDS)} (ir_datasets' commands), got {said}"
        )
    _check_dataset_and_fields(given)
    ir_datasets.main(given)
    return 0


#: ir_datasets' commands that take a dataset id first, and the part whose records ``--fields`` names.
_PART = {
    "export": lambda given: given[2],
    "lookup": lambda given: "queries" if {"--qid", "--query_id", "-q"} & set(given) else "docs",
    "doc_fifos": lambda given: "docs",
}


def _check_dataset_and_fields(given: list[str]) -> None:
    """The dataset id and the ``--fields`` of ir_datasets' commands, refused here: ir_datasets looks them up
    unguarded (a KeyError), or says so and exits 1, or 0 (``export ... qrels --fields``)."""
    import ir_datasets

    if given[0] not in _PART or len(given) < 2:
        return
    if given[1] not in ir_datasets.registry:
        raise ColieeArgumentError(f"no dataset {given[1]!r} (`ir_coliee datasets list` lists them)")
    if "--fields" not in given or (given[0] == "export" and len(given) < 3):
        return
    part = _PART[given[0]](given)
    fields = list(
        itertools.takewhile(lambda a: not a.startswith("-"), given[given.index("--fields") + 1 :])
    )
    known = getattr(
        getattr(ir_datasets.load(given[1]), f"{part}_cls", lambda: None)(), "_fields", None
    )
    if unknown := [f for f in fields if known is not None and f not in known]:
        raise ColieeArgumentError(
            f"no field {unknown[0]!r} in {part} (fields: {', '.join(known or ())})"
        )
