"""A paper's grid: 30 benchmarks x 5 systems, scored with ``ir_coliee.benchmark`` (one call) against
the loop users write by hand (``ir_coliee.score`` and ``ir_coliee.compare`` per benchmark), and the
command on a manifest against one ``ir_coliee compare`` process per benchmark. Prints a table.

    python bench/bench_benchmark.py [--benchmarks 30] [--systems 5] [--resamples 1000]

Each benchmark is a Task 1-like label JSON gold of 400 query cases with a run of 5 cases per query
for each system (2,000 lines, the size of a real submission), in the official pairs format.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ir_coliee


def write_grid(folder: Path, benchmarks: int, systems: int) -> dict[str, dict[str, str]]:
    """``{gold file: {system: run file}}``: each system finds each relevant case with its own chance."""
    rng = random.Random(7)
    grid: dict[str, dict[str, str]] = {}
    for b in range(benchmarks):
        labels = {
            f"{q:06d}.txt": [f"{rng.randrange(1, 4000):06d}.txt" for _ in range(rng.randint(1, 7))]
            for q in range(1, 401)
        }
        gold = folder / f"labels.{b}.json"
        gold.write_text(json.dumps(labels))
        grid[str(gold)] = {}
        for s in range(systems):
            lines = []
            for q, relevant in labels.items():
                found = [d for d in relevant if rng.random() < 0.2 + 0.05 * s][:5]
                others = [f"{rng.randrange(1, 4000):06d}" for _ in range(5 - len(found))]
                lines += [
                    f"{q[:-4]} {d[:-4] if d.endswith('.txt') else d} SYS{s}\n"
                    for d in found + others
                ]
            run = folder / f"task1.{b}.SYS{s}"
            run.write_text("".join(dict.fromkeys(lines)))
            grid[str(gold)][f"SYS{s}"] = str(run)
    return grid


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def by_hand(grid: dict[str, dict[str, str]], resamples: int) -> None:
    for gold, runs in grid.items():
        ir_coliee.score(gold, runs, task=1)
        ir_coliee.compare_runs(gold, runs, task=1, resamples=resamples, correction="none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmarks", type=int, default=30)
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        grid = write_grid(folder, args.benchmarks, args.systems)
        manifest = folder / "grid.tsv"
        manifest.write_text(
            "".join(f"{g}\t{s}\t{r}\n" for g, runs in grid.items() for s, r in runs.items())
        )
        measures = ["MicroP", "MicroR", "MicroF1"]
        first = dict([next(iter(grid.items()))])
        ir_coliee.benchmark(
            first, measures=measures, resamples=10
        )  # imports and first-call costs, for both
        by_hand(first, 10)
        ours = timed(lambda: ir_coliee.benchmark(grid, measures=measures, resamples=args.resamples))
        theirs = timed(lambda: by_hand(grid, args.resamples))
        command = [
            sys.executable,
            "-m",
            "ir_coliee",
            "benchmark",
            str(manifest),
            "--resamples",
            str(args.resamples),
        ]
        command += [f"--measure={g}={m}" for g in grid for m in measures]
        ours_cli = timed(lambda: subprocess.run(command, check=True, capture_output=True))

        def processes() -> None:
            for gold, runs in grid.items():
                argv = [
                    sys.executable,
                    "-m",
                    "ir_coliee",
                    "compare",
                    gold,
                    *runs.values(),
                    "--task",
                    "1",
                ]
                subprocess.run(
                    [*argv, "--resamples", str(args.resamples)], check=True, capture_output=True
                )

        theirs_cli = timed(processes)
    cells = args.benchmarks * 3
    print(
        f"{args.benchmarks} benchmarks x {args.systems} systems ({cells} cells, 2,000-line runs, "
        f"{args.resamples:,} resamples; machine: {os.cpu_count()} cores)"
    )
    print(f"{'what':<58}{'seconds':>10}{'by hand':>10}{'ratio':>8}")
    print(
        f"{'ir_coliee.benchmark(...) vs score + compare per benchmark':<58}{ours:>10.2f}{theirs:>10.2f}{ours / theirs:>8.2f}"
    )
    print(
        f"{'ir_coliee benchmark MANIFEST vs a compare process each':<58}{ours_cli:>10.2f}{theirs_cli:>10.2f}"
        f"{ours_cli / theirs_cli:>8.2f}"
    )


if __name__ == "__main__":
    main()
