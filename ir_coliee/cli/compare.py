"""``ir_coliee compare``: runs side by side with intervals and tests valid for their measures."""

from __future__ import annotations

import argparse
import os
from typing import Union

from ir_coliee.cli import options
from ir_coliee.cli.output import report_findings, summary
from ir_coliee.outputs.escape import ESCAPERS
from ir_coliee.outputs.tabular import PAPER_MISSING, write_rows


def add(sub: argparse._SubParsersAction) -> None:
    cmp = sub.add_parser(
        "compare",
        help="compare runs: confidence intervals and significance valid for micro measures",
        description="Each measure of each run with its bootstrap confidence interval, and against the baseline "
        "a paired randomization test that recomputes the measure on every resample (micro measures from "
        "resampled counts), with a multiple-testing correction.",
    )
    options.inputs(
        cmp,
        "gold file or dataset id, as for eval",
        "submission files or folders of them; the first is the baseline unless --baseline",
    )
    options.measure_option(cmp, "a measure (repeatable; default: the official ones)")
    options.task_options(cmp)
    cmp.add_argument(
        "--baseline",
        type=_run,
        default=0,
        help="the baseline run: its name, as report and benchmark take it, or its index (0: the first)",
    )
    options.resampling_options(cmp)
    options.answers_options(cmp)
    options.plot_option(cmp, "the headline measure's intervals")
    options.output_options(cmp, "output format (markdown and latex mark significant differences)")
    cmp.set_defaults(func=run)


def _run(value: str) -> Union[int, str]:
    """A run by its index among the runs given, or by its name."""
    return int(value) if value.removeprefix("-").isdigit() else value


def run(args: argparse.Namespace) -> int:
    """The measures of several runs with confidence intervals and tests against the baseline."""
    from ir_coliee.scoring.compare import compare_runs, plot_intervals

    options.check_outputs(args)
    options.positive("--resamples", args.resamples)
    result = options.called(compare_runs, args, measures=args.measure or None)
    report_findings(result.findings)
    if any(map(os.path.isdir, args.runs)):
        summary(f"compared {len(result.rows.runs)} runs", result.findings)
    table = result.rows
    rows = [[name, *row] for name, row in zip(table.runs, table.rows)]
    # for a paper: a mark on what differs from the baseline, a dash for no value
    missing = PAPER_MISSING.get(args.format)
    if missing:
        rows = [_marked(table.columns, row, args.correction, args.digits) for row in rows]
    with options.document(args) as out:
        write_rows(["run", *table.columns], rows, out, args.digits, missing or "", args.format)
        if missing:
            # a paper's note: text of its format (a raw "<" in LaTeX text is "¡")
            note = f"* p < 0.05 against the baseline ({args.correction} correction)"
            out.write(ESCAPERS[args.format](note) + "\n")
    if args.plot:
        options.plotted(plot_intervals(result.table, result.headline, args.plot))
    return 0


def _marked(columns: list[str], row: list, correction: str, digits: int) -> list:
    """A run's row for a paper: ``yes`` on the baseline, each measure's value with ``*`` where its
    corrected p-value is below 0.05."""
    cells = dict(zip(["run", *columns], row))
    marked = [row[0], "yes" if cells["baseline"] else ""]
    for column in columns[1:]:
        value = cells[column]
        p = cells.get(f"{column} p-value ({correction})")
        marked.append(value if p is None else f"{value:.{digits}f}" + ("*" if p < 0.05 else ""))
    return marked
