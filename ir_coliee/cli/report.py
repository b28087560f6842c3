"""``ir_coliee report``: the season's results as one self-contained web page."""

from __future__ import annotations

import argparse
import os

from ir_coliee.cli import options
from ir_coliee.cli.output import report_findings, summary


def add(sub: argparse._SubParsersAction) -> None:
    cmd = sub.add_parser(
        "report",
        help="the results page: leaderboard, significance, analyses, figures and each run, in one HTML file",
        description="One self-contained HTML page (no script, nothing fetched) of what eval, compare and "
        "analyse compute on the same gold and runs: the leaderboard with each run's place on the published "
        "table, each run tested against the best run or --baseline, the organisers' analyses with their "
        "figures (with matplotlib), and each run's per-question values and findings.",
    )
    options.inputs(cmd, "gold file or dataset id (a statute dataset id adds --by anonymised)")
    cmd.add_argument("--out", required=True, help="the page to write (.html)")
    cmd.add_argument(
        "--by",
        action="append",
        help="groupings of the analyses (repeatable; default: relevant, single-multiple and anonymised "
        "where they apply)",
    )
    options.measure_option(cmd, "an analysed measure besides the headline")
    cmd.add_argument("--baseline", help="the run each run is tested against (default: the best)")
    options.answers_options(cmd)
    options.task_options(cmd)
    options.resampling_options(cmd)
    options.digits_option(cmd)
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The page, written atomically; the findings on standard error."""
    from ir_coliee.scoring.page import report

    options.writable("--out", args.out)
    options.positive("--resamples", args.resamples)
    options.positive("--digits", args.digits, 0)
    page = options.called(report, args, measures=args.measure)
    report_findings(page.findings)
    page.write(args.out)
    if any(map(os.path.isdir, args.runs)):
        summary(f"wrote {args.out}: {len(page.report.runs)} runs", page.findings)
    return 0
