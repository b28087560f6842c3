"""``ir_coliee eval``: score runs as the organisers do, one ranked row per run, placed on the leaderboard."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ir_coliee.cli.options import digits_option, positive, task_options
from ir_coliee.cli.output import (
    OUTPUT_FORMATS,
    print_report,
    records,
    report_findings,
    write_json,
    write_table,
)
from ir_coliee.errors import ColieeError
from ir_coliee.formats.tabular import PAPER_MISSING
from ir_coliee.formats.textfile import STDIN
from ir_coliee.model import FORMATS, task_of

if TYPE_CHECKING:
    from ir_coliee.scoring.report import Report


def add(sub: argparse._SubParsersAction) -> None:
    ev = sub.add_parser(
        "eval",
        help="score a run as the organisers do",
        description="Score a COLIEE submission file against a gold file (label JSON, TREC qrels or Y/N answers).",
    )
    ev.add_argument(
        "gold",
        help="gold: a COLIEE label JSON, TREC qrels, Y/N answer or riteval file, a dataset id "
        "(coliee/task3/2024/test), or auto: each run against the test set of the edition its file name says",
    )
    ev.add_argument(
        "inputs",
        nargs="+",
        metavar="RUN [RUN ...] [MEASURE ...]",
        help="submission files or folders of them (- for stdin), then measures such as MicroF1 'MacroF(beta=2)' AP "
        "R@10 (default: the official ones); several runs give one ranked row each",
    )
    task_options(ev)
    ev.add_argument("--per-query", action="store_true", help="also print each query's values and counts")
    ev.add_argument("--answers", help="2026 Task 3: the Y/N answer file scored with the run (recall-gated accuracy)")
    ev.add_argument("--answers-gold", help="gold answers for --answers (default: the task4 twin of a dataset GOLD)")
    ev.add_argument("--format", choices=OUTPUT_FORMATS, default="tsv", help="output format")
    ev.add_argument(
        "--run-format",
        choices=("auto", *FORMATS),
        default="auto",
        help="read the run in this submission format (default: the task's, from the first line)",
    )
    digits_option(ev)
    ev.add_argument(
        "--leaderboard", action="store_true", help="place the run among the published official runs of its edition"
    )
    ev.set_defaults(func=run)


def _runs_and_measures(inputs: Sequence[str]) -> tuple[list[str], list[str]]:
    """eval's positional arguments: run files and folders (what exists, or ``-``), then measure names; a name
    that is no file but has the shape of one (a path, a dot outside parentheses: ``task1.typo``, not
    ``SetF(beta=4.0)``) is a run file that is not there, never a measure."""
    runs = [a for a in inputs if a == STDIN or os.path.exists(a)]
    measures = [a for a in inputs if a not in runs]
    absent = [a for a in measures if os.sep in a or "." in re.sub(r"\(.*\)", "", a)]
    if absent:
        raise ColieeError(f"no such run file: {', '.join(absent)}")
    if not runs:
        raise ColieeError(f"no such run file: {inputs[0]}" if inputs else "give a run file (or - for stdin)")
    if runs.count(STDIN) > 1:
        raise ColieeError("- (standard input) given twice: it holds one run")
    return runs, measures


def run(args: argparse.Namespace) -> int:
    from ir_coliee.scoring.files import AUTO, score_files
    from ir_coliee.scoring.score import score

    positive("--digits", args.digits, 0)
    if args.leaderboard and args.format == "json":
        raise ColieeError("--leaderboard prints the official tables: give a table --format (tsv, csv, markdown, latex)")
    runs, measures = _runs_and_measures(args.inputs)
    if len(runs) == 1 and args.gold != AUTO and not os.path.isdir(runs[0]):
        report = score(
            args.gold,
            runs[0],
            task=args.task,
            year=args.year,
            measures=measures or None,
            answers=args.answers,
            answers_gold=args.answers_gold,
            run_format=args.run_format,
        )
        reports = [report]
        report_findings(report.findings)
        print_report(report, sys.stdout, args.format, args.digits, args.per_query)
    else:
        if args.answers:
            raise ColieeError("--answers goes with one run; score each run with its answer file")
        reports = score_files(args.gold, runs, args.task, args.year, measures or None, args.run_format)
        for report in reports:
            report_findings(report.findings)
        _print_ranked(reports, args)
        _summary(reports)
    if args.leaderboard:
        for report in reports:
            _placement(report, sys.stdout, args)
    return 0


def _print_ranked(reports: list[Report], args: argparse.Namespace) -> None:
    """Several runs: best first, with ranks and counts (per query with --per-query); the tables of several
    editions as one document in every format (a table with ``edition`` and ``task`` columns; in JSON one
    object holding every table)."""
    import pandas as pd

    from ir_coliee.scoring.report import ranked

    if args.per_query:
        for report in reports:
            print_report(report, sys.stdout, args.format, args.digits, args.per_query)
        return
    if args.format == "json":  # the same columns as the other formats, counts as numbers
        tables = [{"task": r.task, "year": r.year, "runs": records(ranked(r, fractions=False))} for r in reports]
        write_json(tables[0] if len(tables) == 1 else {"tables": tables}, sys.stdout)
        return
    if len(reports) == 1:
        write_table(ranked(reports[0]), sys.stdout, args.digits, style=args.format)
        return
    grouped = pd.concat(
        [ranked(r).assign(edition=r.year, task=task_of(r.task).label) for r in reports], ignore_index=True
    )
    grouped = grouped[
        ["edition", "task", *[c for c in grouped.columns if c not in ("edition", "task", "path")], "path"]
    ]
    write_table(grouped, sys.stdout, args.digits, missing=PAPER_MISSING.get(args.format, ""), style=args.format)


def _summary(reports: list[Report]) -> None:
    """One line on standard error: what was scored, and what was skipped."""
    from ir_coliee.scoring.walk import SKIPPED

    scored = sum(len(r.runs) for r in reports)
    skipped = sum(f.rule == SKIPPED for r in reports for f in r.findings)
    tables = f"{len(reports)} table{'s' * (len(reports) != 1)}"
    print(f"ir_coliee: scored {scored} runs in {tables}; skipped {skipped} files", file=sys.stderr)


def _placement(report: Report, out: TextIO, args: argparse.Namespace) -> None:
    """The published official table of the run's edition with the scored runs inserted at their places."""
    from ir_coliee.scoring.leaderboard import load_leaderboard

    if report.year is None:
        raise ColieeError("--leaderboard needs the edition: give --year, or a dataset id as GOLD")
    board = load_leaderboard(report.task, report.year)
    if board.headline not in report.table.columns:
        raise ColieeError(f"the {report.year} table ranks runs by {board.headline}, which this report does not hold")
    kind = "complete official table" if board.complete else f"partial table: {len(board.table)} published rows"
    out.write(f"\nleaderboard: COLIEE {report.year} {task_of(report.task).label}, by {board.headline} ({kind})\n")
    write_table(
        board.with_runs(report.table), out, args.digits, missing=PAPER_MISSING.get(args.format, ""), style=args.format
    )
