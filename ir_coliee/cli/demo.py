"""``ir_coliee demo``: the whole loop on the bundled synthetic sample release."""

from __future__ import annotations

import argparse
import sys

from ir_coliee.cli.output import report_findings
from ir_coliee.errors import counted
from ir_coliee.outputs.plots import require


def add(sub: argparse._SubParsersAction) -> None:
    demo = sub.add_parser(
        "demo",
        help="the whole loop on the bundled synthetic sample release",
        description="Load each task's sample dataset through ir_datasets, run a BM25 baseline, write, "
        "validate and score official submission files.",
    )
    demo.add_argument(
        "--out",
        help="keep the submission files in this folder (default: a temporary folder, deleted at the end)",
    )
    demo.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ir_coliee.extras.demo import run_demo

    require("bm25s", "the demo's BM25 baselines")
    if not args.out:
        print(
            "The submission files go to a temporary folder, deleted when the demo ends: "
            "keep them with --out FOLDER.\n"
        )
    for step in run_demo(args.out):
        print(
            f"== {step.dataset_id} (synthetic sample release): {step.baseline} -> {step.path.name}"
        )
        errors = sum(f.level == "error" for f in step.findings)
        warned = len(step.findings) - errors
        print(f"validate: {counted(errors, 'error')}, {counted(warned, 'warning')}")
        report_findings(step.report.findings)
        step.report.write(sys.stdout)
        print()
    if args.out:
        print(f"submission files written to {args.out}")
    return 0
