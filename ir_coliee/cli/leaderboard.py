"""``ir_coliee leaderboard``: a published official table, each row checked."""

from __future__ import annotations

import argparse
import sys

from ir_coliee.cli.options import digits_option
from ir_coliee.formats.tabular import write_rows
from ir_coliee.model import TASK_KEYS


def add(sub: argparse._SubParsersAction) -> None:
    board = sub.add_parser(
        "leaderboard",
        help="the published official results of a task and edition",
        description="Print the official result table of COLIEE TASK in YEAR as published (with its source), "
        "each row checked: F1 against P and R, R and accuracy against the gold size.",
    )
    board.add_argument("task", choices=TASK_KEYS, help="COLIEE task")
    board.add_argument("year", type=int, help="COLIEE edition")
    digits_option(board)
    board.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The published official table of a task and edition, each row checked."""
    from ir_coliee.scoring.leaderboard import load_leaderboard

    board = load_leaderboard(args.task, args.year)
    print(f"# source: {board.source}")
    if not board.complete:
        print(f"# partial: {len(board.table)} published rows, not the complete official table")
    write_rows(
        board.columns,
        [[row[c] for c in board.columns] for row in board.rows],
        sys.stdout,
        args.digits,
    )
    flagged = sum(1 for row in board.rows if row["check"])
    if flagged:
        print(
            f"# {flagged} rows fail a check (see the check column): their printed figures contradict each other"
        )
    return 0
