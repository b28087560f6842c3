"""``ir_coliee eval``: score runs as the organisers do, one ranked row per run, placed on the leaderboard."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Sequence

from ir_coliee.cli import options
from ir_coliee.cli.output import report_findings, summary
from ir_coliee.errors import ColieeError, ColieeScoringError
from ir_coliee.formats.textfile import STDIN
from ir_coliee.model import FORMATS


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
        metavar="INPUT",
        help="submission files or folders of them (- for stdin), then measures such as MicroF1 'MacroF(beta=2)' AP "
        "R@10 (default: the official ones); several runs give one ranked row each",
    )
    options.task_options(ev)
    ev.add_argument(
        "--per-query", action="store_true", help="also print each query's values and counts"
    )
    options.answers_options(
        ev, "2026 Task 3: the Y/N answer file scored with the run (recall-gated accuracy)", None
    )
    ev.add_argument(
        "--run-format",
        choices=("auto", *FORMATS),
        default="auto",
        help="read the run in this submission format (default: the task's, from the first line)",
    )
    options.output_options(ev)
    ev.add_argument(
        "--leaderboard",
        action="store_true",
        help="place the run among the published official runs of its edition (of its test set: a dataset id of another split is refused)",
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
        raise ColieeError(f"no such run file: {inputs[0]}")
    if runs.count(STDIN) > 1:
        raise ColieeError("- (standard input) given twice: it holds one run")
    return runs, measures


def run(args: argparse.Namespace) -> int:
    # Scoring multiplies no matrices: OpenBLAS's thread pool, set up when numpy loads (a third of
    # numpy's import, more than any module of ours), is not started unless asked for.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from ir_coliee.scoring.files import AUTO, score_files
    from ir_coliee.scoring.report import NO_EDITION, not_placed, write_placement, write_ranked

    options.check_outputs(args)
    if args.leaderboard:
        if args.format == "json":
            raise ColieeError(
                "--leaderboard prints the official tables: give a table --format (tsv, csv, markdown, latex)"
            )
        if args.year is None and os.path.isfile(args.gold):
            raise ColieeError(NO_EDITION)
        if why := not_placed(args.gold):  # a place on another split's table would mislead
            raise ColieeScoringError(f"--leaderboard: {why}")
    runs, measures = _runs_and_measures(args.inputs)
    single = len(runs) == 1 and args.gold != AUTO and not os.path.isdir(runs[0])
    reports = options.called(score_files, args, paths=runs, measures=measures or None)
    boards = [report.placement() for report in reports] if args.leaderboard else []
    for report in reports:
        report_findings(report.findings)
    if not single:  # what was scored, and what was skipped
        scored, tables = sum(len(r.runs) for r in reports), len(reports)
        said = f"{scored} run{'s' * (scored != 1)} in {tables} table{'s' * (tables != 1)}"
        summary(f"scored {said}", [f for r in reports for f in r.findings])
    with options.document(args) as out:
        if single or args.per_query:  # one run's own table, or each query's values
            for report in reports:
                report.write(out, args.format, args.digits, args.per_query)
        else:
            write_ranked(reports, out, args.format, args.digits)
        for report, board in zip(reports, boards):
            write_placement(report, board, out, args.format, args.digits)
    return 0
