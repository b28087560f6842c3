"""``ir_coliee validate``: submissions against the official rules, before they are sent (a team) or when
they come in (an organiser's folder of them)."""

from __future__ import annotations

import argparse
import os
from typing import cast

from ir_coliee.cli import options
from ir_coliee.errors import counted, grouped, plain_text, printable
from ir_coliee.model import TASK_KEYS


def add(sub: argparse._SubParsersAction) -> None:
    val = sub.add_parser(
        "validate",
        help="check submissions against the official rules",
        description="Check submission files, or the files of folders of them, against the rules of their "
        "task; with --year or --dataset, also against the test collection's ids. One file: its findings "
        "and a verdict; several, or a folder (or any --format): one row per file. Exits 1 on errors.",
    )
    val.add_argument("runs", nargs="+", metavar="RUN", help="submission files or folders of them")
    val.add_argument("--task", required=True, choices=TASK_KEYS, help="COLIEE task")
    val.add_argument("--year", type=int, help="edition: check against coliee/taskN/YEAR/test")
    val.add_argument("--dataset", help="check against this dataset id instead")
    options.output_options(
        val,
        "write one row per file in this format (default: one file's findings as lines)",
        digits=False,
        default=None,
    )
    val.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """One file: each finding with file:line and a verdict; several: one row per file. Exit 1 on an error."""
    from ir_coliee.cli.output import report_findings, summary
    from ir_coliee.scoring.validate import INTAKE, validate_files

    options.check_outputs(args)
    intake = validate_files(args.runs, args.task, args.year, args.dataset)
    report_findings(intake.skipped)
    rows = intake.rows()
    with options.document(args) as out:
        if args.format is None and len(rows) == 1 and not os.path.isdir(args.runs[0]):
            path, findings = intake.files[0]
            out.writelines(printable(line) + "\n" for line in grouped(findings))
            verdict, errors, warnings = rows[0][1:4]
            found = (
                f"{counted(cast(int, errors), 'error')}, {counted(cast(int, warnings), 'warning')}"
            )
            said = f"{plain_text(path)}: {verdict} as a COLIEE Task {args.task} submission: {found}"
            out.write(printable(said) + "\n")
        else:
            from ir_coliee.outputs.tabular import write_rows

            write_rows(INTAKE, rows, out, 0, style=args.format or "tsv")
    bad = sum(row[1] != "valid" for row in rows)
    if len(rows) > 1 or intake.skipped:
        summary(
            f"validated {len(rows)} files: {len(rows) - bad} valid, {bad} not valid", intake.skipped
        )
    return 1 if bad else 0
