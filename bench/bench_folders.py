"""A team's folder as kept: N runs beside N logs, scored by ``eval GOLD FOLDER`` and analysed by ``analyse
GOLD FOLDER``, against the same N runs alone. Skipping the logs must cost one pass (each log read once),
not a new reading of every run per log. Prints a table of wall times.

    python bench/bench_folders.py [--runs 500] [--queries 40]

Each run is a Task 1 pairs file of 5 cases per query of a label JSON gold of ``--queries`` query cases;
each log a TSV of the kind teams keep beside their runs (``epoch  loss  f1``).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_folder(folder: Path, runs: int, queries: int, logs: bool) -> Path:
    """The gold (beside the folder), ``runs`` run files and as many logs in the folder."""
    rng = random.Random(7)
    labels = {f"{q:06d}.txt": [f"{rng.randrange(1, 4000):06d}.txt"] for q in range(1, queries + 1)}
    gold = folder.parent / "labels.json"
    gold.write_text(json.dumps(labels))
    folder.mkdir()
    for r in range(runs):
        lines = [
            f"{q[:6]} {rng.randrange(1, 4000):06d} team{r}\n" for q in labels for _ in range(5)
        ]
        (folder / f"task1.team{r}").write_text("".join(lines))
        if logs:
            (folder / f"train{r}.log").write_text(
                "epoch\tloss\tf1\n" + "".join(f"{e}\t0.{e}\t0.5\n" for e in range(20))
            )
    return gold


def timed(*args: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ir_coliee", *args], capture_output=True, text=True
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        print(f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1]}", file=sys.stderr)
        return float("nan")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    print("command\truns alone (s)\truns and logs (s)")
    work = Path(tempfile.mkdtemp())
    try:
        alone, kept = work / "alone" / "runs", work / "kept" / "runs"
        alone.parent.mkdir()
        kept.parent.mkdir()
        gold = write_folder(alone, args.runs, args.queries, logs=False)
        write_folder(kept, args.runs, args.queries, logs=True)
        for verb in (["eval"], ["analyse"]):
            extra = ["--by", "relevant"] if verb == ["analyse"] else []
            times = [
                timed(*verb, str(gold), str(folder), "--task", "1", *extra)
                for folder in (alone, kept)
            ]
            print(f"{verb[0]}\t{times[0]:.2f}\t{times[1]:.2f}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
