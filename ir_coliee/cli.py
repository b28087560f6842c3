"""The ``ir_coliee`` command: score a run as the organisers do (``eval``) and a tour on sample data (``demo``)."""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Literal, Optional, TextIO

import pandas as pd

from ir_coliee.errors import ColieeError, ColieeScoringError
from ir_coliee.findings import Finding, grouped
from ir_coliee.model import TASK_KEYS, task_of
from ir_coliee.plots import require
from ir_coliee.runs import write_run
from ir_coliee.scoring import AUTO, Report, compare_runs, ranked, score, score_files, tune
from ir_coliee.textfile import STDIN


def _warn(message: str) -> None:
    print(f"ir_coliee: warning: {message}", file=sys.stderr)


def _fmt(value: object, digits: int, missing: str = "") -> str:
    if value is None or value is pd.NA:
        return ""
    if isinstance(value, float):
        return missing if value != value and missing else f"{value:.{digits}f}"
    return str(value)


OutputFormat = Literal["tsv", "csv", "json", "markdown", "latex"]
OUTPUT_FORMATS: tuple[OutputFormat, ...] = ("tsv", "csv", "json", "markdown", "latex")
_LATEX_SPECIAL = {c: f"\\{c}" for c in "&%$#_{}"}


def _latex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def write_table(frame: pd.DataFrame, out: TextIO, digits: int, missing: str = "", style: OutputFormat = "tsv") -> None:
    """The table in ``style`` (tsv, csv, markdown, or a LaTeX booktabs tabular), ``digits`` decimals,
    the same columns in each; NaN printed as ``missing`` when given."""
    header = list(map(str, frame.columns))
    rows = [[_fmt(v, digits, missing) for v in row] for row in frame.itertuples(index=False)]
    if style == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows([header, *rows])
    elif style == "markdown":
        out.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
        out.writelines("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |\n" for row in rows)
    elif style == "latex":
        numeric = ["r" if frame[c].dtype.kind in "fiu" else "l" for c in frame.columns]
        out.write(f"\\begin{{tabular}}{{{''.join(numeric)}}}\n\\toprule\n")
        out.write(" & ".join(map(_latex, header)) + " \\\\\n\\midrule\n")
        out.writelines(" & ".join(map(_latex, row)) + " \\\\\n" for row in rows)
        out.write("\\bottomrule\n\\end{tabular}\n")
    else:
        out.write("\t".join(header) + "\n")
        out.writelines("\t".join(row) + "\n" for row in rows)


def _json_value(value: object) -> object:
    if isinstance(value, float) and value != value:
        return None
    return value.item() if hasattr(value, "item") else value


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{k: _json_value(v) for k, v in row.items()} for row in frame.astype(object).to_dict("records")]


def _json_doc(report: Report, index: int, per_query: bool) -> dict:
    info = report.runs[index]
    row = report.table.iloc[index]
    doc: dict[str, object] = {
        "run": info.path or info.name,
        "name": info.name,
        "path": info.path,
        "run_tags": info.tags,
        "format": info.format,
        "measures": {m: _json_value(row[m]) for m in report.measures},
        "counts": {c: _json_value(row[c]) for c in report.table.columns if c not in ("run", "path", *report.measures)},
    }
    if info.name in report.disqualified:
        doc["disqualified"] = report.disqualified[info.name]
    if per_query:
        doc["per_query"] = _records(report.per_query[report.per_query["run"] == info.name].drop(columns="run"))
    return doc


def print_report(report: Report, out: TextIO, output: OutputFormat, digits: int, per_query: bool) -> None:
    """The report as a table (or JSON): one row per run, or each query's values with the totals."""
    if output == "json":
        docs = [_json_doc(report, i, per_query) for i in range(len(report.runs))]
        json.dump(docs[0] if len(docs) == 1 else docs, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return
    if per_query:
        frame = report.per_query.sort_values(["run", "query_id", "measure"], kind="stable")
        for _, row in report.table.iterrows():
            totals = pd.DataFrame(
                {
                    "run": row["run"],
                    "query_id": "all",
                    "measure": report.measures,
                    "value": [row[m] for m in report.measures],
                }
            )
            frame = pd.concat([frame, totals], ignore_index=True)
        if len(report.runs) == 1:
            frame = frame.drop(columns="run")
        write_table(frame, out, digits, style=output)
        return
    missing = "disqualified" if any(report.disqualified.values()) else ""
    write_table(report.table[["run", *report.measures, "path"]], out, digits, missing, style=output)


def report_findings(findings: Sequence[Finding]) -> None:
    for f in findings:
        _warn(f.message)


def _positive(name: str, value: int, least: int = 1) -> None:
    if value < least:
        raise ColieeError(f"{name} must be at least {least}, got {value}")


def _runs_and_measures(inputs: Sequence[str]) -> tuple[list[str], list[str]]:
    """eval's positional arguments: run files and folders (what exists, or ``-``), then measure names."""
    runs = [a for a in inputs if a == STDIN or os.path.exists(a)]
    measures = [a for a in inputs if a not in runs]
    if not runs:
        looks = [a for a in measures if os.sep in a or "." in a]
        raise ColieeError(f"no such run file: {', '.join(looks)}" if looks else "give a run file (or - for stdin)")
    return runs, measures


def cmd_eval(args: argparse.Namespace) -> int:
    _positive("--digits", args.digits, 0)
    runs, measures = _runs_and_measures(args.inputs)
    if len(runs) == 1 and args.gold != AUTO and not os.path.isdir(runs[0]):
        reports = [
            score(
                args.gold,
                runs[0],
                task=args.task,
                year=args.year,
                measures=measures or None,
                answers=args.answers,
                answers_gold=args.answers_gold,
                run_format=args.run_format,
            )
        ]
        report_findings(reports[0].findings)
        print_report(reports[0], sys.stdout, args.format, args.digits, args.per_query)
    else:
        if args.answers:
            raise ColieeError("--answers goes with one run; score each run with its answer file")
        reports = score_files(args.gold, runs, args.task, args.year, measures or None, args.run_format)
        for report in reports:
            report_findings(report.findings)
            _print_ranked(report, len(reports) > 1, args)
    if args.leaderboard:
        for report in reports:
            _placement(report, sys.stdout)
    return 0


def _print_ranked(report: Report, titled: bool, args: argparse.Namespace) -> None:
    """Several runs: best first, with ranks and counts (per query with --per-query)."""
    if args.per_query:
        print_report(report, sys.stdout, args.format, args.digits, args.per_query)
        return
    table = ranked(report)
    if args.format == "json":  # the same columns as the other formats, one object per run
        doc = {"task": report.task, "year": report.year, "runs": _records(table)}
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    if titled:
        print(f"# COLIEE {report.year} {task_of(report.task).label}")
    write_table(table, sys.stdout, args.digits, style=args.format)


def _placement(report: Report, out: TextIO) -> None:
    """Where each scored run would have placed among the official runs of its edition."""
    from ir_coliee.leaderboard import load_leaderboard

    if report.year is None:
        raise ColieeError("--leaderboard needs the edition: give --year, or a dataset id as GOLD")
    board = load_leaderboard(report.task, report.year)
    if board.headline not in report.table.columns:
        raise ColieeError(f"the {report.year} table ranks runs by {board.headline}, which this report does not hold")
    kind = "complete official table" if board.complete else f"partial table: {len(board.table)} published rows"
    out.write(f"\nleaderboard: COLIEE {report.year} {task_of(report.task).label}, by {board.headline} ({kind})\n")
    for _, row in report.table.iterrows():
        value = float(row[board.headline])
        rank, above, below = board.place(value)
        near = [
            f"{label} {r['team']} {r['run']} {r[board.headline]:.4f}"
            for label, r in (("above:", above), ("below:", below))
            if r is not None
        ]
        out.write(
            f"{row['run']}\t{board.headline} {value:.4f}\trank {rank} of {len(board.table) + 1}\t{'; '.join(near)}\n"
        )


def cmd_leaderboard(args: argparse.Namespace) -> int:
    """The published official table of a task and edition, each row checked."""
    from ir_coliee.leaderboard import load_leaderboard

    board = load_leaderboard(args.task, args.year)
    print(f"# source: {board.source}")
    if not board.complete:
        print(f"# partial: {len(board.table)} published rows, not the complete official table")
    write_table(board.table, sys.stdout, args.digits)
    flagged = int((board.table["check"] != "").sum())
    if flagged:
        print(f"# {flagged} rows fail a check (see the check column): their printed figures contradict each other")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from ir_coliee.demo import run_demo

    require("bm25s", "the demo's BM25 baselines", "'ir_coliee[demo]'")
    for step in run_demo(args.out):
        print(f"== {step.dataset_id} (synthetic sample release): {step.baseline} -> {step.path.name}")
        errors = sum(f.level == "error" for f in step.findings)
        print(f"validate: {errors} errors, {len(step.findings) - errors} warnings")
        report_findings(step.report.findings)
        print_report(step.report, sys.stdout, "tsv", 4, per_query=False)
        print()
    if args.out:
        print(f"submission files written to {args.out}")
    return 0


def cmd_data_check(args: argparse.Namespace) -> int:
    """With dataset ids or --all: the file behind each part of each dataset, and notes; exit 1 when any part is
    missing. Without: one line per dataset found (complete, or what is missing), one line for the absent ones."""
    from ir_coliee.datasets.check import listed_ids
    from ir_coliee.datasets.files import ENV_HOME, LOCATOR, data_root

    root = data_root()
    if not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "does not exist"
        raise ColieeError(f"the data root {root} {what} (set ${ENV_HOME} to the folder holding the COLIEE packages)")
    print(f"data root: {root}")
    if args.datasets or args.all:
        complete = _check_each(args.datasets or listed_ids())
    else:
        complete = _summary(listed_ids())
    for problem in LOCATOR.problems:
        print(f"data root\tproblem\t{problem}")
    return 0 if complete else 1


def _summary(dataset_ids: list[str]) -> bool:
    from ir_coliee.datasets.check import status

    absent, complete = [], True
    for dataset_id in dataset_ids:
        state, missing = status(dataset_id)
        if state == "absent":
            absent.append(dataset_id)
            continue
        complete &= state == "complete"
        print(f"{dataset_id}\t{state}" + (f": missing {', '.join(missing)}" if missing else ""))
    print(f"absent\t{len(absent)} of {len(dataset_ids)} datasets have none of their files here (--all lists them)")
    return complete


def _check_each(dataset_ids: Sequence[str]) -> bool:
    from ir_coliee.datasets.check import check_dataset, unknown_dataset

    complete = True
    for dataset_id in dataset_ids:
        try:
            sources = check_dataset(dataset_id)
        except KeyError:
            raise unknown_dataset(dataset_id) from None
        except ColieeError as e:  # one bad file never hides the rest
            complete = False
            print(f"{dataset_id}\terror\tERROR: {e}")
            continue
        for source in sources:
            complete &= source.location is not None
            if source.location is None:
                where = f"MISSING: {source.problem}"
            else:
                where = source.location or f"NOTE: {source.problem}"
            print(f"{dataset_id}\t{source.part}\t{where}")
    return complete


def cmd_validate(args: argparse.Namespace) -> int:
    """Print each finding with file:line and a summary; exit 1 when there is an error."""
    from ir_coliee.validate import validate_run

    findings = validate_run(args.run, args.task, args.year, args.dataset)
    for line in grouped(findings):
        print(line)
    errors = sum(f.level == "error" for f in findings)
    warnings = len(findings) - errors
    verdict = "not valid" if errors else "valid"
    print(f"{args.run}: {verdict} as a COLIEE Task {args.task} submission: {errors} errors, {warnings} warnings")
    return 1 if errors else 0


def cmd_datasets(args: argparse.Namespace) -> int:
    """ir_datasets' own command line, with the COLIEE datasets registered; --available lists the ids whose
    files are all under the data root."""
    if args.available:
        from ir_coliee.datasets.check import listed_ids, status

        for dataset_id in listed_ids():
            if status(dataset_id)[0] == "complete":
                print(dataset_id)
        return 0
    import ir_datasets

    ir_datasets.main(args.irds_args)
    return 0


def _writable(option: str, path: Optional[str]) -> None:
    """An output file the command may write: not a folder, in a folder that exists (checked before the work)."""
    if path is None:
        return
    if os.path.isdir(path):
        raise ColieeError(f"{option} {path}: is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ColieeError(f"{option} {path}: the folder {folder} does not exist")


def cmd_compare(args: argparse.Namespace) -> int:
    """The measures of several runs with confidence intervals and tests against the baseline."""
    from ir_coliee.compare import plot_intervals

    _writable("--plot", args.plot)
    if args.plot:
        require("matplotlib", "--plot")
    _positive("--resamples", args.resamples)
    _positive("--digits", args.digits, 0)
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
    table = result.table.reset_index()
    if args.format in ("markdown", "latex"):  # for a paper: a mark on what differs from the baseline
        table = _marked(table, args.correction, args.digits)
    write_table(table, sys.stdout, args.digits, style=args.format)
    if args.format in ("markdown", "latex"):
        print(f"* p < 0.05 against the baseline ({args.correction} correction)")
    if args.plot:
        print(f"plot: {plot_intervals(result.table, result.headline, args.plot)}")
    return 0


def _marked(table: pd.DataFrame, correction: str, digits: int) -> pd.DataFrame:
    """Each measure's value with ``*`` where its corrected p-value is below 0.05."""
    marked = table.copy()
    for column in table.columns:
        p = f"{column} p-value ({correction})"
        if p in table.columns:
            marked[column] = [f"{v:.{digits}f}" + ("*" if q < 0.05 else "") for v, q in zip(table[column], table[p])]
    return marked


def cmd_tune(args: argparse.Namespace) -> int:
    """The best cutoff of a run on training gold, the curve, and optionally the cut submission."""
    from ir_coliee.tuning import plot_curve

    _writable("--write", args.write)
    _writable("--plot", args.plot)
    if args.plot:
        require("matplotlib", "--plot")
    _positive("--digits", args.digits, 0)
    result = tune(
        args.gold,
        args.run,
        task=args.task,
        year=args.year,
        measure=args.measure,
        over=args.over,
        max_rank=args.max_rank,
        apply=args.apply,
    )
    report_findings(result.findings)
    tuned = result.tuned
    if args.curve:
        write_table(tuned.curve, sys.stdout, args.digits)
    print(f"best {args.over} cutoff: {tuned.cutoff:g} ({tuned.measure} = {tuned.value:.{args.digits}f})")
    if args.write:
        written = write_run(result.cut, args.write, format=args.write_format or result.write_format, tag=args.tag)
        print(f"written: {written}")
    if args.plot:
        print(f"plot: {plot_curve(tuned, args.plot)}")
    return 0


def cmd_baseline(args: argparse.Namespace) -> int:
    """BM25 over a dataset of the user's data, written as the task's official submission file."""
    from ir_coliee.baseline import bm25
    from ir_coliee.datasets.check import dataset_entry

    _writable("--write", args.write)
    require("bm25s", "the BM25 baseline", "'ir_coliee[demo]'")
    run = bm25(args.dataset, args.k)
    fmt = task_of(dataset_entry(args.dataset).task).formats[0]
    written = write_run(run, args.write, format=fmt, tag=args.tag)
    print(f"written: {written} ({len(run)} queries, {sum(map(len, run.values()))} lines, {fmt} format)")
    return 0


def _task_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--task", choices=TASK_KEYS, help="COLIEE task whose official measures to use")
    parser.add_argument("--year", type=int, help="COLIEE edition (default: the newest)")


class _Help(argparse.HelpFormatter):
    """Help that shows each option's default where it has one worth saying."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        unset = action.default is None or action.default is False or action.default in (argparse.SUPPRESS, [])
        if not unset and "default" not in text:
            text = f"{text} (default: %(default)s)".strip()
        return text


EXIT_CODES = "exit codes: 0 done; 1 findings or a scoring refusal (e.g. answers scored against article gold); 2 usage, or input that cannot be read"


def build_parser() -> argparse.ArgumentParser:
    from ir_coliee import __version__

    parser = argparse.ArgumentParser(
        prog="ir_coliee", description="COLIEE benchmarks: official scoring and data.", epilog=EXIT_CODES
    )
    parser.add_argument("--version", action="version", version=f"ir_coliee {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    # every command shows its defaults in --help, and the exit codes
    sub.add_parser = functools.partial(  # type: ignore[method-assign]
        sub.add_parser, formatter_class=_Help, epilog=EXIT_CODES
    )
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
        metavar="RUN [RUN ...] [MEASURE ...]",
        help="submission files or folders of them (- for stdin), then measures such as MicroF1 'MacroF(beta=2)' AP "
        "R@10 (default: the official ones); several runs give one ranked row each",
    )
    _task_options(ev)
    ev.add_argument("--per-query", action="store_true", help="also print each query's values and counts")
    ev.add_argument("--answers", help="2026 Task 3: the Y/N answer file scored with the run (recall-gated accuracy)")
    ev.add_argument("--answers-gold", help="gold answers for --answers (default: the task4 twin of a dataset GOLD)")
    ev.add_argument("--format", choices=OUTPUT_FORMATS, default="tsv", help="output format")
    ev.add_argument(
        "--run-format",
        choices=("auto", "pairs", "trec", "answers"),
        default="auto",
        help="read the run in this submission format (default: the task's, from the first line)",
    )
    ev.add_argument("--digits", type=int, default=4, help="decimals printed")
    ev.add_argument(
        "--leaderboard", action="store_true", help="place the run among the published official runs of its edition"
    )
    ev.set_defaults(func=cmd_eval)
    board = sub.add_parser(
        "leaderboard",
        help="the published official results of a task and edition",
        description="Print the official result table of COLIEE TASK in YEAR as published (with its source), "
        "each row checked: F1 against P and R, R and accuracy against the gold size.",
    )
    board.add_argument("task", choices=TASK_KEYS, help="COLIEE task")
    board.add_argument("year", type=int, help="COLIEE edition")
    board.add_argument("--digits", type=int, default=4, help="decimals printed")
    board.set_defaults(func=cmd_leaderboard)
    val = sub.add_parser(
        "validate",
        help="check a submission against the official rules",
        description="Check a submission file against the rules of its task; with --year or --dataset, "
        "also against the test collection's ids. Exits 1 on errors.",
    )
    val.add_argument("run", help="the submission file")
    val.add_argument("--task", required=True, choices=TASK_KEYS, help="COLIEE task")
    val.add_argument("--year", type=int, help="edition: check against coliee/taskN/YEAR/test")
    val.add_argument("--dataset", help="check against this dataset id instead")
    val.set_defaults(func=cmd_validate)
    cmp = sub.add_parser(
        "compare",
        help="compare runs: confidence intervals and significance valid for micro measures",
        description="Each measure of each run with its bootstrap confidence interval, and against the baseline "
        "a paired randomization test that recomputes the measure on every resample (micro measures from "
        "resampled counts), with a multiple-testing correction.",
    )
    cmp.add_argument("gold", help="gold file or dataset id, as for eval")
    cmp.add_argument("runs", nargs="+", help="submission files; the first is the baseline unless --baseline")
    cmp.add_argument("--measure", action="append", help="a measure (repeatable; default: the official ones)")
    _task_options(cmp)
    cmp.add_argument("--baseline", type=int, default=0, help="index of the baseline run")
    cmp.add_argument("--resamples", type=int, default=10_000, help="resamples for tests and intervals")
    cmp.add_argument(
        "--correction", choices=("holm", "bonferroni", "none"), default="holm", help="multiple-testing correction"
    )
    cmp.add_argument("--seed", type=int, default=42, help="random seed of the resampling")
    cmp.add_argument("--answers", nargs="+", help="2026 Task 3: the answer file of each run, in the runs' order")
    cmp.add_argument("--answers-gold", help="gold answers for --answers (default: the task4 twin of a dataset GOLD)")
    cmp.add_argument("--plot", help="write a PNG of the headline measure's intervals (needs matplotlib)")
    cmp.add_argument(
        "--format",
        choices=("tsv", "csv", "markdown", "latex"),
        default="tsv",
        help="output format (markdown and latex mark significant differences)",
    )
    cmp.add_argument("--digits", type=int, default=4, help="decimals printed")
    cmp.set_defaults(func=cmd_compare)
    tune = sub.add_parser(
        "tune",
        help="the cutoff (rank, score or relative score) that maximises a measure on training data",
    )
    tune.add_argument("gold", help="training gold file or dataset id")
    tune.add_argument("run", help="a scored or ranked run on the training queries")
    _task_options(tune)
    tune.add_argument(
        "--measure", help="the measure to maximise (default: the task's headline, e.g. MacroF2 for Task 3)"
    )
    tune.add_argument(
        "--over", choices=("rank", "score", "relative-score"), default="rank", help="what the cutoff is on"
    )
    tune.add_argument("--max-rank", type=int, default=100, help="the largest rank cutoff tried")
    tune.add_argument("--curve", action="store_true", help="print the whole curve")
    tune.add_argument("--apply", help="cut this run (e.g. the test run) with the cutoff learned on RUN")
    tune.add_argument("--write", help="write the cut run (--apply's, else RUN) as this submission file")
    tune.add_argument(
        "--write-format", choices=("pairs", "trec"), help="submission format written (default: the task's official one)"
    )
    tune.add_argument("--tag", default="tuned", help="run tag of the written file")
    tune.add_argument("--plot", help="write a PNG of the tuning curve (needs matplotlib)")
    tune.add_argument("--digits", type=int, default=4, help="decimals printed")
    tune.set_defaults(func=cmd_tune)
    base = sub.add_parser(
        "baseline",
        help="a BM25 baseline run of a dataset, written as an official submission",
        description="Rank each query's candidates of a Task 1-3 dataset with BM25 (the bm25s package) and write "
        "the task's official submission file, with progress bars on the way.",
    )
    base.add_argument("method", choices=("bm25",), help="the baseline")
    base.add_argument("dataset", help="a dataset id, e.g. coliee/task1/2025/test")
    base.add_argument("--write", required=True, help="the submission file to write")
    base.add_argument("--k", type=int, help="documents per query (default: Task 1: 5, Task 2: 1, Task 3: 10)")
    base.add_argument("--tag", default="bm25", help="run tag")
    base.set_defaults(func=cmd_baseline)
    datasets = sub.add_parser(
        "datasets",
        help="ir_datasets' command line (list, export, lookup, ...) with the COLIEE datasets",
        description="Runs `ir_datasets ARGS` with the COLIEE datasets registered, e.g. "
        "`ir_coliee datasets export coliee/task3/2024/test qrels`.",
    )
    datasets.add_argument("--available", action="store_true", help="list the ids whose files are all here")
    datasets.add_argument("irds_args", nargs=argparse.REMAINDER, help="arguments for ir_datasets")
    datasets.set_defaults(func=cmd_datasets)
    data = sub.add_parser("data", help="the licensed data: which files are found").add_subparsers(
        dest="data_command", required=True
    )
    data.add_parser = functools.partial(  # type: ignore[method-assign]
        data.add_parser, formatter_class=_Help, epilog=EXIT_CODES
    )
    check = data.add_parser(
        "check",
        help="which datasets are here, complete or not; the file behind each part",
        description="Without ids: one line per dataset whose files are here (complete, or what is missing) and "
        "one for the absent ones. With ids or --all: the file behind each part, and notes (counts against a "
        "complete official copy, released questions without gold, gold ids not in the documents).",
    )
    check.add_argument("datasets", nargs="*", help="dataset ids (default: a summary of all)")
    check.add_argument("--all", action="store_true", help="list the files of every dataset")
    check.set_defaults(func=cmd_data_check)
    demo = sub.add_parser(
        "demo",
        help="the whole loop on the bundled synthetic sample release",
        description="Load each task's sample dataset through ir_datasets, run a BM25 baseline, write, "
        "validate and score official submission files.",
    )
    demo.add_argument("--out", help="keep the submission files in this folder")
    demo.set_defaults(func=cmd_demo)
    return parser


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM as an exit that unwinds: temporary copies of streams and half-written outputs are removed
    on the way out, as on Ctrl-C."""
    raise SystemExit(128 + signum)


def _stdout_closed() -> bool:
    if sys.stdout is None:  # Python started with descriptor 1 closed
        return True
    try:
        descriptor = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):  # a stream without a descriptor (captured output)
        return False
    try:
        os.fstat(descriptor)
    except OSError:
        return True
    return False


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if _stdout_closed():  # `ir_coliee eval ... >&-`: nowhere to print the result
        print("ir_coliee: error: standard output is closed", file=sys.stderr)
        return 2
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader closed the pipe (| head): stop quietly, as shell tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("ir_coliee: interrupted", file=sys.stderr)
        return 130
    except ColieeScoringError as e:  # the inputs are readable, but scoring them as asked would mislead
        print(f"ir_coliee: error: {e}", file=sys.stderr)
        return 1
    except (ColieeError, ValueError) as e:
        print(f"ir_coliee: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a file the user named cannot be written or read: say which, no traceback
        print(f"ir_coliee: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
