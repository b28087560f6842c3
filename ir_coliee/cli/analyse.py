"""``ir_coliee analyse``: the organisers' analyses of a set of runs, questions grouped as the overview papers do."""

from __future__ import annotations

import argparse
import os

from ir_coliee.cli import options
from ir_coliee.cli.output import report_findings, summary


def add(sub: argparse._SubParsersAction) -> None:
    cmd = sub.add_parser(
        "analyse",
        help="which questions are hard, for whom: values per question and per group of questions",
        description="Each run's value per gold question and per group of questions, each group scored alone by "
        "the measure's official definition (micro from the group's counts), the majority-answer baseline for "
        "Y/N gold, and the questions bucketed by their mean value over the runs.",
    )
    options.inputs(cmd, "gold file or dataset id (a statute dataset id for --by anonymised)")
    cmd.add_argument(
        "--by",
        action="append",
        required=True,
        help="relevant, single-multiple, anonymised, or a category file of lines 'QUERY_ID CATEGORY...' (repeatable)",
    )
    options.measure_option(cmd, "a measure besides the headline (repeatable)")
    options.task_options(cmd)
    options.plot_option(cmd, "the groups' means and the histogram", "matplotlib")
    options.output_options(
        cmd, "output format: the groups, the histogram and the questions in one document"
    )
    cmd.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The three tables, then the plot."""
    from ir_coliee.scoring.analyse import analyse

    options.check_outputs(args)
    result = analyse(args.gold, args.runs, args.by, args.measure, task=args.task, year=args.year)
    report_findings(result.findings)
    if any(map(os.path.isdir, args.runs)):
        summary(f"analysed {len(result.runs)} runs", result.findings)
    with options.document(args) as out:
        result.write(out, args.format, args.digits)
    if args.plot:
        options.plotted(result.plot(args.plot))
    return 0
