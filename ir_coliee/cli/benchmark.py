"""``ir_coliee benchmark``: systems compared across benchmarks, from a manifest or folders of runs."""

from __future__ import annotations

import argparse
import os

from ir_coliee.cli import options
from ir_coliee.cli.output import report_findings, summary
from ir_coliee.errors import ColieeError


def add(sub: argparse._SubParsersAction) -> None:
    cmd = sub.add_parser(
        "benchmark",
        help="systems compared across benchmarks: each with its official measures and valid tests",
        description="Each benchmark (a COLIEE dataset id, another ir_datasets id, or a gold file) is scored "
        "alone with its official measures; each cell is tested against the baseline with the paired test "
        "valid for its measure, with one correction over a family of cells (--family: the headline measure "
        "of each benchmark, or all cells). Paper tables name benchmarks shortly (coliee/task1/2025/test: T1 "
        "2025; a gold file: its file name; --name overrides). Summaries: wins/ties/losses, the mean rank among "
        "official runs (complete published tables only), and a randomization test stratified by benchmark.",
    )
    cmd.add_argument(
        "runs",
        nargs="+",
        help="a manifest (lines 'BENCHMARK SYSTEM PATH', or a JSON object {benchmark: {system: path}}), "
        "or a folder holding one folder per benchmark named by its dataset id (runs/coliee/task1/2025/test/)",
    )
    cmd.add_argument("--baseline", help="the baseline system (default: the first system listed)")
    cmd.add_argument(
        "--measure",
        action="append",
        metavar="BENCHMARK=MEASURE",
        help="a measure of one benchmark (repeatable; needed where a benchmark has no official measures)",
    )
    cmd.add_argument(
        "--name",
        action="append",
        metavar="ID=NAME",
        help="a benchmark's or system's name in tables",
    )
    options.resampling_options(
        cmd, "resamples of each randomization test", "correction over the --family of cells"
    )
    cmd.add_argument(
        "--family",
        choices=("headline", "all"),
        default="headline",
        help="cells one correction covers",
    )
    options.output_options(
        cmd,
        "tsv, csv, json: one row per (system, benchmark, measure); markdown, latex: the paper's table",
    )
    cmd.set_defaults(func=run)


def _pairs(flag: str, given: list[str], example: str) -> dict[str, list[str]]:
    """``NAME=VALUE`` options, the values of each name in order."""
    chosen: dict[str, list[str]] = {}
    for option in given:
        benchmark, sep, value = option.rpartition("=")
        if not sep or not benchmark or not value:
            raise ColieeError(f"{flag} {option!r}: expected {example}")
        chosen.setdefault(benchmark, []).append(value)
    return chosen


def _names(given: list[str]) -> dict[str, str]:
    """``--name ID=NAME`` options, one name each."""
    names = _pairs("--name", given, "BENCHMARK=NAME (other.qrels=TREC)")
    if twice := [k for k, v in names.items() if len(v) > 1]:
        raise ColieeError(f"--name {twice[0]}: named twice ({', '.join(names[twice[0]])})")
    return {k: v[0] for k, v in names.items()}


def run(args: argparse.Namespace) -> int:
    """The grid of values and p-values, then the findings."""
    from ir_coliee.inputs.manifest import read_manifest, runs_in_folder
    from ir_coliee.scoring.benchmark import benchmark

    options.check_outputs(args)
    options.positive("--resamples", args.resamples)
    measures = _pairs(
        "--measure", args.measure or [], "BENCHMARK=MEASURE (coliee/task1/2025/test=MicroF1)"
    )
    names = _names(args.name or [])
    runs: dict = {}  # {benchmark: {system: a path or a run read}}
    for given in args.runs:
        found: dict
        if os.path.isdir(given):
            found, findings = runs_in_folder(given)
            report_findings(findings)
            n = sum(map(len, found.values()))
            summary(f"found {n} runs of {len(found)} benchmarks in {given}", findings)
        else:
            found = read_manifest(given)
        for name, systems in found.items():
            runs.setdefault(name, {}).update(systems)
    result = options.called(benchmark, args, runs=runs, measures=measures or None, names=names)
    report_findings(result.findings)
    with options.document(args) as out:
        result.write(out, args.format, args.digits)
    return 0
