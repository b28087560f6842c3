"""``ir_coliee tune``: the cutoff that maximises a measure on training data, and the cut submission."""

from __future__ import annotations

import argparse
import contextlib
import sys

from ir_coliee.cli import options
from ir_coliee.cli.output import report_findings
from ir_coliee.formats.textfile import writes_standard_output
from ir_coliee.model import FORMATS
from ir_coliee.outputs.tabular import note, write_json, write_rows
from ir_coliee.scoring.tune import OVER


def add(sub: argparse._SubParsersAction) -> None:
    tune = sub.add_parser(
        "tune",
        help="the cutoff (rank, score or relative score) that maximises a measure on training data",
        description="Find the cutoff of a run (top k ranks, a score threshold, or a score relative to "
        "each query's best) that maximises a measure on training data; with --apply and --write, cut "
        "a test run with it and write the submission file.",
    )
    tune.add_argument("gold", help="training gold file or dataset id")
    tune.add_argument("run", help="a scored or ranked run on the training queries")
    options.task_options(tune)
    tune.add_argument(
        "--measure",
        help="the measure to maximise (default: the task's headline, e.g. MacroF2 for Task 3)",
    )
    tune.add_argument("--over", choices=OVER, default="rank", help="what the cutoff is on")
    tune.add_argument("--max-rank", type=int, default=100, help="the largest rank cutoff tried")
    tune.add_argument("--curve", action="store_true", help="print the whole curve")
    tune.add_argument(
        "--apply", help="cut this run (e.g. the test run) with the cutoff learned on RUN"
    )
    tune.add_argument(
        "--write", help="write the cut run (--apply's, else RUN) as this submission file"
    )
    tune.add_argument(
        "--write-format",
        choices=tuple(name for name, f in FORMATS.items() if not f.labels),
        help="submission format written (default: the task's official one)",
    )
    tune.add_argument("--tag", default="tuned", help="run tag of the written file")
    options.plot_option(tune, "the tuning curve")
    options.output_options(tune, "output format of the cutoff (and the --curve)")
    tune.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The best cutoff of a run on training gold, the curve, and optionally the cut submission."""
    from ir_coliee.scoring.tune import plot_curve, tune
    from ir_coliee.table.run_write import check_run_tag
    from ir_coliee.table.runs import write_run

    options.check_outputs(args)
    if args.write:
        check_run_tag(args.tag)
    result = options.called(tune, args)
    report_findings(result.findings)
    tuned = result.tuned
    header = ["cutoff", str(tuned.measure)]
    # standard output holding the run written: the document goes to standard error
    run_out = writes_standard_output(args.write) and args.out is None
    with contextlib.nullcontext(sys.stderr) if run_out else options.document(args) as out:
        if args.format == "json":
            curve = [dict(zip(header, point)) for point in tuned.points] if args.curve else None
            said = {"over": args.over, "cutoff": tuned.cutoff, "measure": header[1]}
            write_json({**said, "value": tuned.value, **({"curve": curve} if curve else {})}, out)
        else:
            if args.curve:
                write_rows(header, tuned.points, out, args.digits, style=args.format)
            best = f"best {args.over} cutoff: {tuned.cutoff:g} ({tuned.measure} = {tuned.value:.{args.digits}f})"
            out.write(note(best, args.format))
    if args.write:
        written = write_run(
            result.kept, args.write, format=args.write_format or result.write_format, tag=args.tag
        )
        print(f"written: {written}", file=sys.stderr)
    if args.plot:
        options.plotted(plot_curve(tuned, args.plot))
    return 0
