"""``ir_coliee compare``: runs side by side with intervals and tests valid for their measures."""

from __future__ import annotations

import argparse
import os

from ir_coliee.cli.options import (
    answers_options,
    check_outputs,
    document,
    output_options,
    plotted,
    positive,
    resampling_options,
    task_options,
)
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
    cmp.add_argument("gold", help="gold file or dataset id, as for eval")
    cmp.add_argument(
        "runs",
        nargs="+",
        help="submission files or folders of them; the first is the baseline unless --baseline",
    )
    cmp.add_argument(
        "--measure", action="append", help="a measure (repeatable; default: the official ones)"
    )
    task_options(cmp)
    cmp.add_argument("--baseline", type=int, default=0, help="index of the baseline run")
    resampling_options(cmp, "resamples for tests and intervals", "multiple-testing correction")
    answers_options(cmp)
    cmp.add_argument(
        "--plot",
        help="write the headline measure's intervals as .png, .pdf or .svg (needs matplotlib)",
    )
    output_options(cmp, "output format (markdown and latex mark significant differences)")
    cmp.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The measures of several runs with confidence intervals and tests against the baseline."""
    from ir_coliee.scoring.compare import compare_runs, plot_intervals

    check_outputs(args)
    positive("--resamples", args.resamples)
    result = compare_runs(
        args.gold,
        args.runs,
        args.measure or None,
        task=args.task,
        year=args.year,
        baseline=args.baseline,
        resamples=args.resamples,
        correction=args.correction,
        seed=args.seed,
        answers=args.answers,
        answers_gold=args.answers_gold,
    )
    report_findings(result.findings)
    if any(map(os.path.isdir, args.runs)):
        summary(f"compared {len(result.rows.runs)} runs", result.findings)
    table = result.rows
    rows = [[name, *row] for name, row in zip(table.runs, table.rows)]
    if (
        args.format in PAPER_MISSING
    ):  # for a paper: a mark on what differs from the baseline, a dash for no value
        rows = [_marked(table.columns, row, args.correction, args.digits) for row in rows]
    with document(args) as out:
        write_rows(
            ["run", *table.columns],
            rows,
            out,
            args.digits,
            PAPER_MISSING.get(args.format, ""),
            args.format,
        )
        if args.format in PAPER_MISSING:
            # a paper's note: text of its format (a raw "<" in LaTeX text is "¡")
            note = f"* p < 0.05 against the baseline ({args.correction} correction)"
            out.write(ESCAPERS[args.format](note) + "\n")
    if args.plot:
        plotted(plot_intervals(result.table, result.headline, args.plot))
    return 0


def _marked(columns: list[str], row: list, correction: str, digits: int) -> list:
    """A run's row for a paper: ``yes`` on the baseline, each measure's value with ``*`` where its
    corrected p-value is below 0.05."""
    cells = dict(zip(["run", *columns], row))
    marked = [row[0], "yes" if cells["baseline"] else ""]
    for column in columns[1:]:
        p = cells.get(f"{column} p-value ({correction})")
        marked.append(
            cells[column]
            if p is None
            else f"{cells[column]:.{digits}f}" + ("*" if p < 0.05 else "")
        )
    return marked
