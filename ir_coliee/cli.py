"""The ``ir_coliee`` command: score a run as the organisers do (``eval``) and a tour on sample data (``demo``)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Optional, TextIO

import pandas as pd
from ir_measures.measures.base import Measure

from ir_coliee.datasets.caselaw import scope_run
from ir_coliee.datasets.common import REGISTERED, Registered
from ir_coliee.errors import ColieeError
from ir_coliee.evaluation import load_gold, parse_measures, per_query_frame
from ir_coliee.formats.pilot import read_torts
from ir_coliee.gated import score_recall_gated
from ir_coliee.model import TASK_KEYS, official_measures
from ir_coliee.pilot import score_pilot
from ir_coliee.providers import pipeline
from ir_coliee.runs import ParsedRun, parse_run, write_run
from ir_coliee.validate import validate_run

#: Bar-exam question ids of the statute tasks (COLIEE-SPEC section 4).
_STATUTE_QID = re.compile(r"^(H\d{2}|R\d{1,2})-\d{1,2}-[0-9A-Z]$")
_SHOWN = 5


def _warn(message: str) -> None:
    print(f"ir_coliee: warning: {message}", file=sys.stderr)


def infer_task(gold: pd.DataFrame, run: ParsedRun) -> str:
    """A best guess of the task from the gold ids and the run format, for when ``--task`` is absent."""
    statute = bool(len(gold)) and gold["query_id"].map(lambda q: bool(_STATUTE_QID.match(q))).all()
    if run.format == "answers":
        return "4" if statute else "pilot"
    return "3" if statute else "1"


def _task_and_year(args: argparse.Namespace, dataset: Optional[Registered]) -> tuple[Optional[str], Optional[int]]:
    """``--task`` and ``--year``, defaulting to those of a dataset given as gold."""
    if dataset is None:
        return args.task, args.year
    return args.task or dataset.task, args.year or dataset.year


def _for_dataset(run: pd.DataFrame, dataset: Optional[Registered]) -> pd.DataFrame:
    """Runs say ``001 013``; a dataset with scoped ids says ``001/013``."""
    return scope_run(run) if dataset is not None and dataset.scoped else run


def choose_measures(
    args: argparse.Namespace, gold: pd.DataFrame, run: ParsedRun, dataset: Optional[Registered]
) -> list[Measure]:
    if args.measures:
        return parse_measures(args.measures)
    task, year = _task_and_year(args, dataset)
    if task is None:
        task = infer_task(gold, run)
        _warn(f"scoring as COLIEE Task {task} (guessed from the files); pass --task to choose")
    return official_measures(task, year, ranked=run.format == "trec")


def report_run_problems(gold: pd.DataFrame, run: ParsedRun) -> None:
    """Warnings on stderr: queries the gold does not know, duplicate lines, several run tags."""
    extra = sorted(set(run.run["query_id"]) - set(gold["query_id"]))
    if extra:
        shown = ", ".join(extra[:_SHOWN]) + (", ..." if len(extra) > _SHOWN else "")
        _warn(f"{len(extra)} run queries are not in the gold and are ignored: {shown}")
    if run.duplicates:
        shown = ", ".join(f"line {d.line} (first on {d.first_line})" for d in run.duplicates[:_SHOWN])
        _warn(f"{len(run.duplicates)} duplicate lines in {run.path}, each counted once: {shown}")
    if len(run.run_tags) > 1:
        _warn(f"{len(run.run_tags)} run tags in {run.path}: {', '.join(run.run_tags[:_SHOWN])}")


def _fmt(value: object, digits: int) -> str:
    if value is None or value is pd.NA:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def write_table(frame: pd.DataFrame, out: TextIO, digits: int) -> None:
    out.write("\t".join(frame.columns) + "\n")
    for row in frame.itertuples(index=False):
        out.write("\t".join(_fmt(v, digits) for v in row) + "\n")


def _answer_gold(args: argparse.Namespace, gold_path: str) -> pd.DataFrame:
    if args.answers_gold:
        return load_gold(args.answers_gold)[0]
    if gold_path in REGISTERED and "/task3/" in gold_path:
        return load_gold(gold_path.replace("/task3/", "/task4/", 1))[0]
    raise ColieeError(
        "--answers needs the gold answers: give --answers-gold FILE, or a coliee/task3/... dataset as GOLD"
    )


def score_gated(gold: pd.DataFrame, run: ParsedRun, args: argparse.Namespace, gold_path: str, out: TextIO) -> None:
    """2026 Task 3: the retrieval run and the Y/N answers scored together."""
    answers = parse_run(args.answers, format="answers")
    frame = score_recall_gated(gold, run.run, _answer_gold(args, gold_path), answers.run, per_query=args.per_query)
    if args.format == "json":
        json.dump(frame.to_dict("records"), out, indent=2)
        out.write("\n")
    elif args.per_query:
        write_table(frame, out, args.digits)
    else:
        write_table(frame.assign(run="+".join(run.run_tags))[["run", *frame.columns]], out, args.digits)


def _is_pilot(gold_path: str, run_path: str) -> bool:
    return run_path.endswith(".jsonl") or gold_path.endswith(".jsonl") or gold_path.startswith("coliee/pilot/")


def _pilot_gold(spec: str) -> list:
    if spec.startswith("coliee/pilot/") and not os.path.exists(spec):
        import ir_datasets

        return list(ir_datasets.load(spec.removesuffix("/decisions")).gold_torts_iter())
    return read_torts(spec)


def score_pilot_files(gold_path: str, run_path: str, args: argparse.Namespace, out: TextIO) -> None:
    """The pilot: tort prediction accuracy and rationale extraction, as the organisers report them."""
    scores = score_pilot(_pilot_gold(gold_path), read_torts(run_path))
    for null in scores.nulls[:_SHOWN]:
        _warn(f"{run_path}: {null.subtask} disqualified: null at {null.where()}")
    if len(scores.nulls) > _SHOWN:
        _warn(f"{run_path}: {len(scores.nulls) - _SHOWN} more null values")
    if scores.unknown_claims:
        _warn(f"{len(scores.unknown_claims)} predicted claims are not in the gold and are ignored")
    if args.format == "json":
        doc: dict[str, object] = {"run": run_path, "disqualified": sorted(scores.disqualified())}
        doc["measures"] = {k: (None if v != v else v) for k, v in scores.table.iloc[0].items()}
        json.dump(doc, out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif args.per_query:
        write_table(scores.per_query, out, args.digits)
    else:
        table = scores.table.astype(object).where(scores.table.notna(), "disqualified")
        write_table(table.assign(run=os.path.basename(run_path))[["run", *scores.table.columns]], out, args.digits)


def score(gold_path: str, run_path: str, args: argparse.Namespace, out: TextIO) -> None:
    if _is_pilot(gold_path, run_path):
        score_pilot_files(gold_path, run_path, args, out)
        return
    gold, dataset = load_gold(gold_path)
    if gold.empty:
        raise ColieeError(f"{gold_path}: the gold holds no relevant (query, document) pair")
    run = parse_run(run_path)
    run = run._replace(run=_for_dataset(run.run, dataset))
    report_run_problems(gold, run)
    if getattr(args, "answers", None):
        score_gated(gold, run, args, gold_path, out)
        return
    measures = choose_measures(args, gold, run, dataset)
    result = pipeline.calc(measures, gold, run.run)
    assert isinstance(result.aggregated, dict)
    names = [str(m) for m in measures]
    values = [float(result.aggregated[m]) for m in measures]
    tag = "+".join(run.run_tags)
    if args.format == "json":
        doc = {"run": run.path, "run_tags": run.run_tags, "format": run.format, "measures": dict(zip(names, values))}
        if args.per_query:
            doc["per_query"] = (
                per_query_frame(result.per_query).astype(object).where(lambda f: f.notna()).to_dict("records")
            )
        json.dump(doc, out, indent=2)
        out.write("\n")
    elif args.per_query:
        frame = per_query_frame(result.per_query).sort_values(["query_id", "measure"], kind="stable")
        totals = pd.DataFrame({"query_id": "all", "measure": names, "value": values})
        write_table(pd.concat([frame, totals], ignore_index=True), out, args.digits)
    else:
        write_table(pd.DataFrame([[tag, *values]], columns=["run", *names]), out, args.digits)


def cmd_eval(args: argparse.Namespace) -> int:
    score(args.gold, args.run, args, sys.stdout)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from ir_coliee.demo import run_demo

    run_demo(args.out, score, args, sys.stdout)
    return 0


def cmd_data_check(args: argparse.Namespace) -> int:
    """Which official file each part of each dataset is read from; exit 1 when any is missing."""
    from ir_coliee.datasets.check import check_dataset
    from ir_coliee.datasets.files import data_root

    print(f"data root: {data_root()}")
    complete = True
    for dataset_id in args.datasets or sorted(REGISTERED):
        try:
            sources = check_dataset(dataset_id)
        except KeyError:
            raise ColieeError(f"unknown dataset id {dataset_id!r} (see: ir_coliee datasets list)") from None
        for source in sources:
            complete &= source.location is not None
            if source.location is None:
                where = f"MISSING: {source.problem}"
            else:
                where = source.location or f"NOTE: {source.problem}"
            print(f"{dataset_id}\t{source.part}\t{where}")
    return 0 if complete else 1


def cmd_validate(args: argparse.Namespace) -> int:
    """Print each finding with file:line and a summary; exit 1 when there is an error."""
    findings = validate_run(args.run, args.task, args.year, args.dataset)
    for finding in findings:
        print(finding)
    errors = sum(f.level == "error" for f in findings)
    warnings = len(findings) - errors
    verdict = "not valid" if errors else "valid"
    print(f"{args.run}: {verdict} as a COLIEE Task {args.task} submission: {errors} errors, {warnings} warnings")
    return 1 if errors else 0


def cmd_datasets(args: argparse.Namespace) -> int:
    """ir_datasets' own command line, with the COLIEE datasets registered."""
    import ir_datasets

    ir_datasets.main(args.irds_args)
    return 0


def _load_runs(paths: Sequence[str], dataset: Optional[Registered]) -> dict[str, pd.DataFrame]:
    runs = {}
    for path in paths:
        parsed = parse_run(path)
        name = "+".join(parsed.run_tags) if parsed.run_tags and "+".join(parsed.run_tags) not in runs else path
        runs[name] = _for_dataset(parsed.run, dataset)
    return runs


def cmd_compare(args: argparse.Namespace) -> int:
    """The measures of several runs with confidence intervals and tests against the baseline."""
    from ir_coliee.compare import compare, plot_intervals

    gold, dataset = load_gold(args.gold)
    runs = _load_runs(args.runs, dataset)
    task, year = _task_and_year(args, dataset)
    if not args.measure and task is None:
        raise ColieeError("give --measure, or --task (and --year) for the official measures")
    frame = compare(
        runs,
        gold,
        args.measure or None,
        baseline=args.baseline,
        task=task,
        year=year,
        resamples=args.resamples,
        correction=args.correction,
        seed=args.seed,
    )
    write_table(frame.reset_index(), sys.stdout, args.digits)
    if args.plot:
        measure = next(c for c in frame.columns if c != "baseline")
        print(f"plot: {plot_intervals(frame, measure, args.plot)}")
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    """The best cutoff of a run on training gold, the curve, and optionally the cut submission."""
    from ir_coliee.tuning import apply_cutoff, tune_cutoff

    gold, dataset = load_gold(args.gold)
    run = _load_runs([args.run], dataset)
    (frame,) = run.values()
    tuned = tune_cutoff(frame, gold, args.measure, over=args.over, max_rank=args.max_rank)
    if args.curve:
        write_table(tuned.curve, sys.stdout, args.digits)
    print(f"best {args.over} cutoff: {tuned.cutoff:g} ({tuned.measure} = {tuned.value:.{args.digits}f})")
    if args.write:
        cut = apply_cutoff(frame, args.over, tuned.cutoff)
        print(f"written: {write_run(cut, args.write, format=args.write_format, tag=args.tag)}")
    return 0


def _task_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--task", choices=TASK_KEYS, help="COLIEE task whose official measures to use")
    parser.add_argument("--year", type=int, help="COLIEE edition (default: the newest)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ir_coliee", description="COLIEE benchmarks: official scoring and data.")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser(
        "eval",
        help="score a run as the organisers do",
        description="Score a COLIEE submission file against a gold file (label JSON, TREC qrels or Y/N answers).",
    )
    ev.add_argument(
        "gold",
        help="gold: a COLIEE label JSON, TREC qrels or Y/N answer file, or a dataset id (coliee/task3/2024/test)",
    )
    ev.add_argument("run", help="submission file in an official format (detected from its first line)")
    ev.add_argument("measures", nargs="*", help="measures such as MicroF1 'MacroF(beta=2)' AP R@10 (default: official)")
    _task_options(ev)
    ev.add_argument("--per-query", action="store_true", help="also print each query's values and counts")
    ev.add_argument("--answers", help="2026 Task 3: the Y/N answer file scored with the run (recall-gated accuracy)")
    ev.add_argument("--answers-gold", help="gold answers for --answers (default: the task4 twin of a dataset GOLD)")
    ev.add_argument("--format", choices=("tsv", "json"), default="tsv", help="output format (default tsv)")
    ev.add_argument("--digits", type=int, default=4, help="decimals in tsv output (default 4)")
    ev.set_defaults(func=cmd_eval)
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
    cmp.add_argument("--baseline", type=int, default=0, help="index of the baseline run (default 0)")
    cmp.add_argument("--resamples", type=int, default=10_000, help="resamples for tests and intervals")
    cmp.add_argument("--correction", choices=("holm", "bonferroni", "none"), default="holm")
    cmp.add_argument("--seed", type=int, default=42)
    cmp.add_argument("--plot", help="write a PNG of the first measure's intervals (needs matplotlib)")
    cmp.add_argument("--digits", type=int, default=4)
    cmp.set_defaults(func=cmd_compare)
    tune = sub.add_parser(
        "tune",
        help="the cutoff (rank, score or relative score) that maximises a measure on training data",
    )
    tune.add_argument("gold", help="training gold file or dataset id")
    tune.add_argument("run", help="a scored or ranked run on the training queries")
    tune.add_argument("--measure", default="MicroF1", help="the measure to maximise (default MicroF1)")
    tune.add_argument("--over", choices=("rank", "score", "relative-score"), default="rank")
    tune.add_argument("--max-rank", type=int, default=100)
    tune.add_argument("--curve", action="store_true", help="print the whole curve")
    tune.add_argument("--write", help="apply the best cutoff to RUN and write this submission file")
    tune.add_argument("--write-format", choices=("pairs", "trec"), default="pairs")
    tune.add_argument("--tag", default="tuned", help="run tag of the written file")
    tune.add_argument("--digits", type=int, default=4)
    tune.set_defaults(func=cmd_tune)
    datasets = sub.add_parser(
        "datasets",
        help="ir_datasets' command line (list, export, lookup, ...) with the COLIEE datasets",
        description="Runs `ir_datasets ARGS` with the COLIEE datasets registered, e.g. "
        "`ir_coliee datasets export coliee/task3/2024/test qrels`.",
    )
    datasets.add_argument("irds_args", nargs=argparse.REMAINDER, help="arguments for ir_datasets")
    datasets.set_defaults(func=cmd_datasets)
    data = sub.add_parser("data", help="the licensed data: which files are found").add_subparsers(
        dest="data_command", required=True
    )
    check = data.add_parser("check", help="list the file behind each part of the datasets")
    check.add_argument("datasets", nargs="*", help="dataset ids (default: all)")
    check.set_defaults(func=cmd_data_check)
    demo = sub.add_parser(
        "demo",
        help="the whole loop on the bundled synthetic sample release",
        description="Load each task's sample dataset through ir_datasets, run a BM25 baseline, write, "
        "validate and score official submission files.",
    )
    demo.add_argument("--out", help="keep the submission files in this folder")
    demo.set_defaults(func=cmd_demo, measures=[], year=None, per_query=False, format="tsv", digits=4, answers=None)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ColieeError, ValueError) as e:
        print(f"ir_coliee: error: {e}", file=sys.stderr)
        return 2
