"""``ir_coliee validate``: a submission against the official rules, before it is sent."""

from __future__ import annotations

import argparse

from ir_coliee.errors import grouped, printable, total_count
from ir_coliee.model import TASK_KEYS


def add(sub: argparse._SubParsersAction) -> None:
    val = sub.add_parser(
        "validate",
        help="check a submission against the official rules",
        description="Check a submission file against the rules of its task; with --year or --dataset, "
        "also against the test collection's ids. Exits 1 on errors.",
    )
    val.add_argument("run", help="the submission file")
    val.add_argument("--task", required=True, choices=TASK_KEYS, help="COLIEE task")
    val.add_argument("--year", type=int, help="edition: check against coliee/taskN/YEAR/test")
    val.add_argument("--dataset", help="check against this dataset id instead")
    val.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print each finding with file:line and a summary; exit 1 when there is an error."""
    from ir_coliee.scoring.validate import validate_run

    findings = validate_run(args.run, args.task, args.year, args.dataset)
    for line in grouped(findings):
        print(printable(line))  # ids from the file, escaped: a run tag must not drive the terminal
    errors = total_count(f for f in findings if f.level == "error")
    warnings = total_count(findings) - errors
    verdict = "not valid" if errors else "valid"
    print(
        printable(
            f"{args.run}: {verdict} as a COLIEE Task {args.task} submission: {errors:,} errors, {warnings:,} warnings"
        )
    )
    return 1 if errors else 0
