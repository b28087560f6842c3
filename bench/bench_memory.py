"""Peak memory of reading, scoring and validating a large run, each in a fresh process. Prints a table.

    python bench/bench_memory.py [--queries 10000] [--docs 1000]

Besides the clean file, ``eval`` and ``validate`` read copies with one flaw each (a duplicate line, a
lone carriage return, a comment after the first line), which the fast reader hands to the checked
one: their peaks should stay within 1.2x of the clean file's.

The run file (TREC format, ``task3-L`` style) is written once; each step runs in its own Python
process and reports its peak resident set size (``ru_maxrss``), against the baseline of a process
that only imports the package. Document ids come from a pool (``--pool``, as COLIEE runs do: the
Civil Code, a Task 1 case pool); ``--pool 0`` makes nearly every line's document distinct, the
worst case for memory.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

STEPS = {
    "import ir_coliee": "import ir_coliee",
    "read_run": "import ir_coliee; r = ir_coliee.read_run(RUN)",
    "read_run + MicroF1 + MacroF2": (
        "import ir_coliee, ir_measures; r = ir_coliee.read_run(RUN); "
        "g = ir_coliee.read_qrels(GOLD); ir_measures.calc_aggregate([ir_coliee.MicroF1, ir_coliee.MacroF2], g, r)"
    ),
    "ir_measures.read_trec_run (list)": "import ir_measures; r = list(ir_measures.read_trec_run(RUN))",
}
REPORT = "; import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
#: One flaw per copy of the run, put in its middle line.
FLAWS = {
    "clean": None,
    "one duplicate line": lambda line: line + line,
    "one lone CR": lambda line: line.replace(" Q0 ", "\rQ0 ", 1),
    "one late comment": lambda line: "/* a comment after the first line */\n" + line,
}
CLI = "from ir_coliee.cli import main; main({argv!r})"  # the RSS is printed last, after the command's output


def write_files(folder: str, n_queries: int, n_docs: int, pool: int) -> tuple[str, str]:
    run, gold = os.path.join(folder, "task3-L.bench"), os.path.join(folder, "gold.qrels")
    pool = pool or 5_000_000
    with open(run, "w") as f:
        for q in range(n_queries):
            f.writelines(
                f"q{q:05d} Q0 d{(q * 7919 + d) % pool:07d} {d + 1} {1 - d / n_docs:.6f} bench\n"
                for d in range(n_docs)
            )
    with open(gold, "w") as f:
        f.writelines(f"q{q:05d} 0 d{(q * 7919 + 3) % pool:07d} 1\n" for q in range(n_queries))
    return run, gold


def flawed(run: str, name: str) -> str:
    """A copy of ``run`` with the flaw ``name`` in its middle line."""
    make = FLAWS[name]
    if make is None:
        return run
    with open(run) as f:
        lines = f.readlines()
    middle = len(lines) // 2
    lines[middle] = make(lines[middle])
    path = f"{run}.{name.replace(' ', '_')}"
    with open(path, "w") as f:
        f.writelines(lines)
    return path


def measure(script: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", script + REPORT], capture_output=True, text=True, check=True
    )
    return int(out.stdout.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=1_000)
    parser.add_argument(
        "--pool", type=int, default=10_000, help="distinct document ids (0: all distinct)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run, gold = write_files(tmp, args.queries, args.docs, args.pool)
        size = os.path.getsize(run) / 2**20
        pool = f"{args.pool:,} distinct documents" if args.pool else "documents nearly all distinct"
        print(f"run: {args.queries * args.docs:,} lines, {size:,.0f} MiB on disk, {pool}")
        print(f"{'step (fresh process)':<36} {'peak RSS (MiB)':>15}")
        for name, code in STEPS.items():
            print(f"{name:<36} {measure(f'RUN = {run!r}; GOLD = {gold!r}; {code}'):>15,.0f}")
        print(
            f"\n{'command (fresh process)':<36} {'file':<20} {'peak RSS (MiB)':>15} {'x clean':>8}"
        )
        for command in ("eval", "validate"):
            clean = None
            for flaw in FLAWS:
                path = flawed(run, flaw)
                argv = (
                    ["eval", gold, path, "--task", "3"]
                    if command == "eval"
                    else ["validate", path, "--task", "3"]
                )
                peak = measure(CLI.format(argv=argv))
                clean = clean or peak
                print(f"ir_coliee {command:<26} {flaw:<20} {peak:>15,.0f} {peak / clean:>8.2f}")
                if path != run:
                    os.remove(path)


if __name__ == "__main__":
    main()
