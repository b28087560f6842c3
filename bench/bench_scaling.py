"""Cost against run lines, side by side with the peers, from 2k to 10M lines: wall time and peak memory
of ``ir_coliee eval GOLD RUN`` (MicroP, MicroR, MicroF1), ``python -m ir_measures GOLD RUN SetP SetR SetF``
and pytrec_eval called directly (``parse_qrel``, ``parse_run``, ``RelevanceEvaluator``), each a fresh
process under ``/usr/bin/time``. Prints a table; with ``--markdown`` writes it, with the machine, into
the scaling section of ``docs/benchmarks.md`` and draws ``docs/scaling.png`` (log-log, one line per tool).

    python bench/bench_scaling.py [--sizes 2000,...,10000000] [--pairs 3] [--markdown docs/benchmarks.md]

The run is a Task 3-shaped TREC file (``task3-L``): 1,000 ranked documents per query from a pool of
10,000, so ``lines / 1,000`` queries; the gold holds 5 relevant documents per query, 3 of them retrieved.
Two more rows are the shapes that once cost more than the input: the 2M-line run with one line given
twice, and a Task 1-shaped pairs file of 100,000 lines (1,000 queries x 100 random case ids).

Every figure is a median over ``--pairs`` rounds in which the tools run in turn (A B C A B C ...), so
that a machine slower for a while weighs on all alike; the ratio is the median of the per-round ratios
ours / the ir_measures CLI, time and memory. ranx is left out: a fresh process takes about 20 s at 100k
lines (its numba compilation), more than this page's budget of 5 minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_speed import machine

SIZES = (2_000, 10_000, 100_000, 1_000_000, 2_000_000, 10_000_000)
PER_QUERY, POOL, RELEVANT, FOUND = 1_000, 10_000, 5, 3
TOOLS = ("ir_coliee", "ir_measures CLI", "pytrec_eval")
PYTREC = """
import sys, pytrec_eval
qrels = pytrec_eval.parse_qrel(open(sys.argv[1]))
run = pytrec_eval.parse_run(open(sys.argv[2]))
values = pytrec_eval.RelevanceEvaluator(qrels, {"set_P", "set_recall", "set_F"}).evaluate(run)
print({m: sum(v[m] for v in values.values()) / len(values) for m in ("set_P", "set_recall", "set_F")})
"""
BEGIN, END = "<!-- scaling: bench/bench_scaling.py -->", "<!-- /scaling -->"


def write_trec(folder: str, lines: int, duplicate: bool = False) -> tuple[str, str, str]:
    """The gold and the run (``lines`` lines), twice: the peers' and ours are the same file."""
    queries = max(lines // PER_QUERY, 1)
    per_query = min(lines, PER_QUERY)
    tag = f"{lines}{'-dup' if duplicate else ''}"
    run, gold = os.path.join(folder, f"run.{tag}"), os.path.join(folder, f"gold.{tag}")
    rank = np.arange(per_query)
    with open(run, "w") as f:
        for first in range(0, queries, 1_000):  # 1M lines at a time: bounded memory
            q = np.repeat(np.arange(first, min(first + 1_000, queries)), per_query)
            r = np.tile(rank, len(q) // per_query)
            doc = (q * 7919 + r * 13) % POOL
            if duplicate and first == 0:
                doc[1] = doc[0]
            f.writelines(
                f"q{a:07d} Q0 d{b:05d} {c + 1} {1 - c / 1000:.3f} bench\n"
                for a, b, c in zip(q.tolist(), doc.tolist(), r.tolist())
            )
    with open(gold, "w") as f:
        for a in range(queries):
            hits = [(a * 7919 + r * 13) % POOL for r in range(FOUND)]
            misses = [(a * 7919 + 13 * (per_query + k)) % POOL for k in range(RELEVANT - FOUND)]
            f.writelines(f"q{a:07d} 0 d{d:05d} 1\n" for d in hits + misses)
    return gold, run, run


def write_task1(folder: str) -> tuple[str, str, str]:
    """TREC qrels of 5 per query, a TREC run for the peers and the same lines as a pairs run for us: 1,000
    queries x 100 random case ids (of 1,000,000)."""
    rng = np.random.default_rng(0)
    docs = [rng.choice(1_000_000, 100, replace=False).tolist() for _ in range(1_000)]
    run, trec, gold = (os.path.join(folder, f"task1.{e}") for e in ("pairs", "trec", "qrels"))
    Path(run).write_text(
        "".join(f"{q:06d} {d:06d} bench\n" for q, row in enumerate(docs) for d in row)
    )
    Path(trec).write_text(
        "".join(
            f"{q:06d} Q0 {d:06d} {r + 1} {100 - r} bench\n"
            for q, row in enumerate(docs)
            for r, d in enumerate(row)
        )
    )
    Path(gold).write_text(
        "".join(f"{q:06d} 0 {d:06d} 1\n" for q, row in enumerate(docs) for d in row[:5])
    )
    return gold, trec, run


def argv(tool: str, gold: str, run: str, ours: str) -> list[str]:
    python = [sys.executable]
    if tool == "ir_coliee":
        return [*python, "-m", "ir_coliee", "eval", gold, ours]
    if tool == "ir_measures CLI":
        return [*python, "-m", "ir_measures", gold, run, "SetP", "SetR", "SetF"]
    return [*python, "-c", PYTREC, gold, run]


def timed(command: list[str]) -> Optional[tuple[float, float]]:
    """Wall seconds and peak resident MiB of one fresh process (``/usr/bin/time``); ``None`` when it
    fails (pytrec_eval's ``parse_run`` refuses a pair given twice)."""
    done = subprocess.run(
        ["/usr/bin/time", "-f", "@@ %e %M", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    found = re.findall(r"@@ ([0-9.]+) ([0-9]+)", done.stderr)
    return None if done.returncode or not found else (float(found[-1][0]), int(found[-1][1]) / 1024)


#: Per tool: median seconds, median MiB, median time and memory ratios to the ir_measures CLI.
Figures = dict[str, Optional[tuple[float, float, float, float]]]


def measure(files: tuple[str, str, str], pairs: int) -> Figures:
    """Each tool on ``files`` (the gold, the peers' run, ours) in turn, ``pairs`` times."""
    rounds = [{tool: timed(argv(tool, *files)) for tool in TOOLS} for _ in range(pairs)]
    out: Figures = {}
    for tool in TOOLS:
        done = [(a, b) for r in rounds if (a := r[tool]) and (b := r["ir_measures CLI"])]
        if not done:
            out[tool] = None
            continue
        columns = [(a[0], a[1], a[0] / b[0], a[1] / b[1]) for a, b in done]
        seconds, mib, time_ratio, memory_ratio = map(statistics.median, zip(*columns))
        out[tool] = (seconds, mib, time_ratio, memory_ratio)
    return out


def cell(figures: Figures, tool: str, at: int, form: str) -> str:
    value = figures[tool]
    return "refused" if value is None else format(value[at], form)


def draw(rows: list[tuple[str, int, Figures]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sized = [(lines, m) for label, lines, m in rows if label.endswith("lines")]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2), dpi=80)
    for tool in TOOLS:
        xs = [lines for lines, _ in sized]
        for at, ax in enumerate(axes):
            ax.loglog(xs, [m[tool][at] for _, m in sized], marker="o", label=tool)  # type: ignore
    for ax, what in zip(axes, ("wall seconds", "peak MiB")):
        ax.set_xlabel("run lines")
        ax.set_ylabel(what)
        ax.grid(True, which="major", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def markdown(rows: list[tuple[str, int, Figures]], pairs: int, load: str) -> str:
    head = (
        "| run | "
        + " | ".join(f"{t} (s)" for t in TOOLS)
        + " | time ratio | "
        + " | ".join(f"{t} (MiB)" for t in TOOLS)
        + " | memory ratio |"
    )
    lines = [
        "## Scaling: cost against run lines",
        "",
        f"Generated by `python bench/bench_scaling.py --markdown docs/benchmarks.md`; medians of {pairs}"
        " rounds of fresh processes run in turn; ratios: medians of the per-round ratios ir_coliee /"
        " ir_measures CLI.",
        "",
        f"Machine: {machine()}; load average {load} (other processes shared the cores: the rounds"
        " in turn keep the ratios, not the seconds).",
        "",
        "Where ir_coliee is behind the peer, and why: up to about 14,000 lines (the line reader's"
        " files, under 512 KiB) by 0.3 to 0.45 of its time, since the run is counted by one engine,"
        " numpy's, which the line reader's short runs once skipped (numpy's import is a third of the"
        " time of a 2,000-line eval; the peer loads it too, through pytrec_eval, but starts no faster"
        " than ir_coliee's own modules and line reader); and from there to about 1M lines in memory,"
        " where importing pyarrow alone maps 47 MiB (30 MiB of it libarrow).",
        "",
        "![wall seconds and peak memory against run lines, log-log](scaling.png)",
        "",
        head,
        "|" + "---|" * (len(TOOLS) * 2 + 3),
    ]
    for label, _, m in rows:
        cells = [cell(m, t, 0, ".2f") for t in TOOLS] + [cell(m, "ir_coliee", 2, ".2f")]
        cells += [cell(m, t, 1, ".0f") for t in TOOLS] + [cell(m, "ir_coliee", 3, ".2f")]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_section(page: str, section: str) -> None:
    """The section between the markers of ``page`` (appended the first time)."""
    text = Path(page).read_text()
    block = f"{BEGIN}\n{section}{END}\n"
    if BEGIN in text:
        text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END) + 1 :]
    else:
        text = text.rstrip("\n") + "\n\n" + block
    Path(page).write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--folder", help="where the files go (default: a temporary folder)")
    parser.add_argument("--markdown", help="write the section into this page, the figure beside it")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(__file__).parents[1] / "ir_coliee")],
        check=True,
    )
    print(f"machine: {machine()}")
    before = os.getloadavg()[1]
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        cases = [(f"{n:,} lines", n, write_trec(folder, n)) for n in sizes]
        duplicated = max(n for n in sizes if n <= 2_000_000)
        cases.append(
            (f"{duplicated:,} lines, one twice", duplicated, write_trec(folder, duplicated, True))
        )
        cases.append(("Task 1 pairs, 100,000 random ids", 100_000, write_task1(folder)))
        rows = []
        for label, lines, files in cases:
            m = measure(files, args.pairs)
            rows.append((label, lines, m))
            print(
                f"{label:>34}: "
                + "  ".join(
                    f"{t} {cell(m, t, 0, '.2f')} s {cell(m, t, 1, '.0f')} MiB" for t in TOOLS
                )
                + f"  ratio {cell(m, 'ir_coliee', 2, '.2f')} time {cell(m, 'ir_coliee', 3, '.2f')} memory",
                flush=True,
            )
    load = f"{before:.1f} to {os.getloadavg()[1]:.1f}"
    print(f"load average (5 minutes): {load}")
    if args.markdown:
        draw(rows, str(Path(args.markdown).parent / "scaling.png"))
        write_section(args.markdown, markdown(rows, args.pairs, load))
        print(f"wrote {args.markdown}")


if __name__ == "__main__":
    main()
