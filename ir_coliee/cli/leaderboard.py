"""``ir_coliee leaderboard``: a published official table, each row checked."""

from __future__ import annotations

import argparse

from ir_coliee.cli import options
from ir_coliee.model import TASK_KEYS
from ir_coliee.outputs.tabular import PAPER_MISSING, json_rows, note, write_json, write_rows


def add(sub: argparse._SubParsersAction) -> None:
    board = sub.add_parser(
        "leaderboard",
        help="the published official results of a task and edition",
        description="Print the official result table of COLIEE TASK in YEAR as published (with its source), "
        "each row checked: F1 against P and R, R and accuracy against the gold size.",
    )
    board.add_argument("task", choices=TASK_KEYS, help="COLIEE task")
    board.add_argument("year", type=int, help="COLIEE edition")
    options.output_options(board, "output format (json: the rows with the source and the checks)")
    board.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The published official table of a task and edition, each row checked."""
    from ir_coliee.results import load_leaderboard

    options.check_outputs(args)
    board = load_leaderboard(args.task, args.year)
    rows = [[row[c] for c in board.columns] for row in board.rows]
    flagged = sum(1 for row in board.rows if row["check"])
    with options.document(args) as out:
        if args.format == "json":
            records = json_rows(board.columns, rows)
            write_json({"source": board.source, "complete": board.complete, "rows": records}, out)
            return 0
        out.write(note(f"source: {board.source}", args.format))
        if not board.complete:
            partial = f"partial: {len(board.table)} published rows, not the complete official table"
            out.write(note(partial, args.format))
        # a measure a row does not publish: the papers' dash, else an empty cell (never nan)
        missing = PAPER_MISSING.get(args.format)
        if missing is None:
            rows = [[None if v != v else v for v in row] for row in rows]
        write_rows(board.columns, rows, out, args.digits, missing or "", style=args.format)
        if flagged:
            rows_fail = f"{flagged} row{'s' * (flagged != 1)} fail{'s' * (flagged == 1)}"
            said = f"{rows_fail} a check (see the check column): their printed figures contradict each other"
            out.write(note(said, args.format))
    return 0
