"""``ir_coliee baseline``: a BM25 run of a dataset, written as the task's official submission."""

from __future__ import annotations

import argparse

from ir_coliee.cli import options
from ir_coliee.outputs.plots import require


def add(sub: argparse._SubParsersAction) -> None:
    base = sub.add_parser(
        "baseline",
        help="a BM25 baseline run of a dataset, written as an official submission",
        description="Rank each query's candidates of a Task 1-3 dataset with BM25 (the bm25s package) and write "
        "the task's official submission file, with progress bars on a terminal "
        "(IR_COLIEE_PROGRESS=1 forces them, 0 hides them).",
    )
    base.add_argument("method", choices=("bm25",), help="the baseline")
    base.add_argument("dataset", help="a dataset id, e.g. coliee/task1/2025/test")
    base.add_argument("--write", required=True, help="the submission file to write")
    base.add_argument(
        "--k", type=int, help="documents per query (default: Task 1: 5, Task 2: 1, Task 3: 10)"
    )
    base.add_argument("--tag", default="bm25", help="run tag")
    base.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """BM25 over a dataset of the user's data, written as the task's official submission file."""
    from ir_coliee.data.catalog import dataset_entry
    from ir_coliee.extras.baseline import bm25
    from ir_coliee.model import task_of
    from ir_coliee.table.runs import write_run

    options.writable("--write", args.write)
    require("bm25s", "the BM25 baseline")
    run = bm25(args.dataset, args.k)
    fmt = task_of(dataset_entry(args.dataset).task).formats[0]
    written = write_run(run, args.write, format=fmt, tag=args.tag)
    print(
        f"written: {written} ({len(run)} queries, {sum(map(len, run.values()))} lines, {fmt} format)"
    )
    return 0
