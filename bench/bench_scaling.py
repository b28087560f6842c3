"""Cost against run lines, side by side with the peers, from 2k to 10M lines: wall time and peak memory
of ``ir_coliee eval GOLD RUN`` (MicroP, MicroR, MicroF1), ``python -m ir_measures GOLD RUN SetP SetR SetF``
and pytrec_eval called directly (``parse_qrel``, ``parse_run``, ``RelevanceEvaluator``), each a fresh
process under ``/usr/bin/time``. Prints a table; with ``--markdown`` writes it, with the machine, into
the scaling section of ``docs/benchmarks.md`` and draws ``docs/scaling.png`` (log-log, one line per tool).

    python bench/bench_scaling.py [--sizes 2000,...,10000000] [--pairs 3] [--markdown docs/benchmarks.md]
    python bench/bench_scaling.py --shapes --pairs 1 [--markdown docs/benchmarks.md]

The run is a Task 3-shaped TREC file (``task3-L``): 1,000 ranked documents per query from a pool of
10,000, so ``lines / 1,000`` queries; the gold holds 5 relevant documents per query, 3 of them retrieved.
Two more rows are the shapes that once cost more than the input: the 2M-line run with one line given
twice, and a Task 1-shaped pairs file of 100,000 lines (1,000 queries x 100 random case ids).

Every figure is a median over ``--pairs`` rounds in which the tools run in turn (A B C A B C ...), so
that a machine slower for a while weighs on all alike; the ratio is the median of the per-round ratios
ours / the ir_measures CLI, time and memory. ranx is left out: a fresh process takes about 20 s at 100k
lines (its numba compilation), more than this page's budget of 5 minutes.

``--shapes`` measures instead the shapes of :data:`SHAPES` (a gold of 1M queries, 2M queries of one line
each, one query of 10M lines, ids of 2M characters) into a section of their own: about 3 minutes a round.
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
TOOLS = ("ir_coliee", "ir_measures CLI", "pytrec_eval", "minimal")
#: A minimal scorer built as ir_coliee is: its measures are ir_measures objects and its one engine is
#: numpy, so both are imported; then the two files split by ``str.split`` and the pairs counted by three
#: numpy calls (micro P, R and F1), with no check of any kind. Not a floor in time or at scale (a Python
#: list per column): up to 10,000 lines, what those two imports and the least counting hold at their peak.
#: Run up to :data:`MINIMAL_LINES` lines.
MINIMAL = """
import sys
import ir_measures, numpy as np
ids, pairs = {}, ([], [])
for path, at, kept in ((sys.argv[1], 2, lambda p: int(p[3]) > 0), (sys.argv[2], 2, lambda p: True)):
    for parts in map(str.split, open(path)):
        if kept(parts):
            pairs[path == sys.argv[2]].append(ids.setdefault(parts[0], len(ids)) << 32 | ids.setdefault(parts[at], len(ids)))
gold, run = np.unique(np.array(pairs[0])), np.unique(np.array(pairs[1]))
tp = np.isin(run, gold).sum()
p, r = tp / len(run), tp / len(gold)
print(p, r, 2 * p * r / (p + r))
"""
MINIMAL_LINES = 100_000
PYTREC = """
import sys, pytrec_eval
qrels = pytrec_eval.parse_qrel(open(sys.argv[1]))
run = pytrec_eval.parse_run(open(sys.argv[2]))
values = pytrec_eval.RelevanceEvaluator(qrels, {"set_P", "set_recall", "set_F"}).evaluate(run)
print({m: sum(v[m] for v in values.values()) / len(values) for m in ("set_P", "set_recall", "set_F")})
"""
BEGIN, END = "<!-- scaling: bench/bench_scaling.py -->", "<!-- /scaling -->"
SHAPES_BEGIN, SHAPES_END = "<!-- shapes: bench/bench_scaling.py --shapes -->", "<!-- /shapes -->"


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


#: The shapes that once cost more than the input (``--shapes``): label -> (gold lines, run lines), each
#: line made from its number ``i``. 2M queries of one line each stand in for the issue's 10M: the peer takes
#: 2 GiB for each million.
LONG = "d" * 2_000_000
SHAPES = {
    "gold of 1M queries, a run of 1,000 lines": (
        lambda i: f"q{i:07d} 0 d{i % 1000:04d} 1\n",
        1_000_000,
        lambda i: f"q{i:07d} Q0 d{i:04d} 1 1.0 r\n",
        1_000,
    ),
    "2M queries, one line each": (
        lambda i: f"q{i:07d} 0 d{i % 1000:04d} 1\n",
        2_000_000,
        lambda i: f"q{i:07d} Q0 d{i % 1000:04d} 1 1.0 r\n",
        2_000_000,
    ),
    "one query, 10M lines": (
        lambda i: f"q1 0 d{i * 1000:08d} 1\n",
        10_000,
        lambda i: f"q1 Q0 d{i:08d} {i + 1} {1 - i / 1e7:.8f} r\n",
        10_000_000,
    ),
    "3 lines of 2M-character ids": (
        lambda i: f"q1 0 {LONG}{i} 1\n",
        2,
        lambda i: f"q1 Q0 {LONG}{i} {i + 1} {1 - i / 10} r\n",
        3,
    ),
    "one 2M-character id among 10,000 lines": (
        lambda i: f"q1 0 d{i} 1\n",
        10,
        lambda i: f"q1 Q0 {LONG if i == 5_000 else f'd{i}'} {i + 1} {1 / (i + 1):.6f} r\n",
        10_000,
    ),
}


def write_shape(folder: str, label: str) -> tuple[str, str, str]:
    gold_line, gold_lines, run_line, run_lines = SHAPES[label]
    tag = str(list(SHAPES).index(label))
    gold, run = os.path.join(folder, f"gold.shape{tag}"), os.path.join(folder, f"run.shape{tag}")
    for path, line, count in ((gold, gold_line, gold_lines), (run, run_line, run_lines)):
        with open(path, "w") as f:
            for first in range(0, count, 100_000):
                f.writelines(line(i) for i in range(first, min(first + 100_000, count)))
    return gold, run, run


def argv(tool: str, gold: str, run: str, ours: str) -> list[str]:
    python = [sys.executable]
    if tool == "ir_coliee":
        return [*python, "-m", "ir_coliee", "eval", gold, ours]
    if tool == "ir_measures CLI":
        return [*python, "-m", "ir_measures", gold, run, "SetP", "SetR", "SetF"]
    return [*python, "-c", MINIMAL if tool == "minimal" else PYTREC, gold, run]


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


def measure(files: tuple[str, str, str], pairs: int, tools: tuple[str, ...] = TOOLS) -> Figures:
    """Each of ``tools`` on ``files`` (the gold, the peers' run, ours) in turn, ``pairs`` times."""
    rounds = [{tool: timed(argv(tool, *files)) for tool in tools} for _ in range(pairs)]
    out: Figures = {}
    for tool in tools:
        done = [(a, b) for r in rounds if (a := r[tool]) and (b := r["ir_measures CLI"])]
        if not done:
            out[tool] = None
            continue
        columns = [(a[0], a[1], a[0] / b[0], a[1] / b[1]) for a, b in done]
        seconds, mib, time_ratio, memory_ratio = map(statistics.median, zip(*columns))
        out[tool] = (seconds, mib, time_ratio, memory_ratio)
    return out


def cell(figures: Figures, tool: str, at: int, form: str) -> str:
    if tool not in figures:
        return "—"  # not run at this size
    value = figures[tool]
    return "refused" if value is None else format(value[at], form)


def draw(rows: list[tuple[str, int, Figures]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sized = [(lines, m) for label, lines, m in rows if label.endswith("lines")]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2), dpi=80)
    for tool in TOOLS:
        xs = [lines for lines, m in sized if tool in m]
        for at, ax in enumerate(axes):
            ys = [m[tool][at] for _, m in sized if tool in m]  # type: ignore
            ax.loglog(xs, ys, marker="o", label=tool, linestyle=":" if tool == "minimal" else "-")
    for ax, what in zip(axes, ("wall seconds", "peak MiB")):
        ax.set_xlabel("run lines")
        ax.set_ylabel(what)
        ax.grid(True, which="major", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def table(rows: list[tuple[str, int, Figures]]) -> list[str]:
    tools = [
        t for t in TOOLS if any(t in m for _, _, m in rows)
    ]  # (the shapes run no minimal scorer)
    head = (
        "| run | "
        + " | ".join(f"{t} (s)" for t in tools)
        + " | time ratio | "
        + " | ".join(f"{t} (MiB)" for t in tools)
        + " | memory ratio |"
    )
    lines = [head, "|" + "---|" * (len(tools) * 2 + 3)]
    for label, _, m in rows:
        cells = [cell(m, t, 0, ".2f") for t in tools] + [cell(m, "ir_coliee", 2, ".2f")]
        cells += [cell(m, t, 1, ".0f") for t in tools] + [cell(m, "ir_coliee", 3, ".2f")]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def behind(rows: list[tuple[str, int, Figures]], tool: str = "ir_coliee") -> str:
    """The rows where ``tool`` took more time or memory than the peer, by how much."""
    said = []
    for label, _, m in rows:
        ours = m.get(tool)
        over = (
            []
            if ours is None
            else [f"{w} {r:.2f}" for w, r in zip(("time", "memory"), ours[2:]) if round(r, 2) > 1]
        )
        if over:
            said.append(f"{label} ({', '.join(over)})")
    return "; ".join(said) or "none"


def markdown(rows: list[tuple[str, int, Figures]], pairs: int, load: str, shapes: bool) -> str:
    title = "No cliff for any shape" if shapes else "Scaling: cost against run lines"
    command = "bench/bench_scaling.py" + (" --shapes" if shapes else "")
    lines = [
        f"## {title}",
        "",
        f"Generated by `python {command} --markdown docs/benchmarks.md`; "
        + (f"medians of {pairs} rounds" if pairs > 1 else "one round")
        + " of fresh processes run in turn; ratios: medians of the per-round ratios ir_coliee /"
        " ir_measures CLI.",
        "",
        f"Machine: {machine()}; load average {load} (other processes shared the cores: the rounds"
        " in turn keep the ratios, not the seconds).",
        "",
        f"Rows where ir_coliee takes more than the peer (ratios): {behind(rows)}.",
        "",
        SHAPES_WHY if shapes else SCALING_WHY,
        "",
    ]
    if not shapes:
        said = behind(rows, "minimal")
        lines += [f"Rows where the minimal scorer takes more than the peer: {said}.", ""]
    if not shapes:
        lines += ["![wall seconds and peak memory against run lines, log-log](scaling.png)", ""]
    return "\n".join(lines + table(rows)) + "\n"


#: Why the figures are what they are (the readers by size, and what the peer has that ir_coliee has not).
SCALING_WHY = (
    "Three readers by size: a run file of up to 16 MiB (about 450,000 lines here) is split by Python"
    " in pieces of 16 KiB, without pyarrow, whose import alone maps 47 MiB; a larger one is read by"
    " Arrow's CSV reader on all cores; a file that is not clean (runs of blanks, a lone carriage"
    " return, a bad line) goes to the line reader, which names the line. Every run is counted by one"
    " engine, numpy's. Below about 25,000 lines the peak is 2 to 3 MiB above the peer's 30: ir_coliee's"
    " own modules (about 1.5 MiB) and the numpy code its counting pages in (1 MiB), where the peer's"
    " process holds numpy (imported by pytrec_eval) and ir_measures too, but counts in pytrec_eval's"
    " C++. The minimal column is a 20-line scorer built as ir_coliee is, with no check of any kind:"
    " ir_measures (whose objects the measures are) and numpy (the engine) imported, the files split"
    " by str.split and the pairs counted in three numpy calls (run up to 100,000 lines). It is no"
    " floor in time, nor at scale; up to 10,000 lines its peak is what those two imports and the"
    " least counting hold."
)
SHAPES_WHY = (
    "The shapes that once grew with the product of two counts, or copied a long line once per block:"
    " duplicates are found by sorting the coded pairs, ids are held once each, and a line of megabytes"
    " is read whole. 2M queries of one line each stand in for 10M, where the peer takes about 20 GiB."
)


def write_section(page: str, section: str, begin: str = BEGIN, end: str = END) -> None:
    """The section between the markers of ``page`` (appended the first time)."""
    text = Path(page).read_text()
    block = f"{begin}\n{section}{end}\n"
    if begin in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end) + 1 :]
    else:
        text = text.rstrip("\n") + "\n\n" + block
    Path(page).write_text(text)


def cases_of(
    folder: str, sizes: list[int], shapes: bool
) -> list[tuple[str, int, tuple[str, str, str]]]:
    if shapes:
        return [(label, SHAPES[label][3], write_shape(folder, label)) for label in SHAPES]
    cases = [(f"{n:,} lines", n, write_trec(folder, n)) for n in sizes]
    duplicated = max(n for n in sizes if n <= 2_000_000)
    cases.append(
        (f"{duplicated:,} lines, one twice", duplicated, write_trec(folder, duplicated, True))
    )
    cases.append(("Task 1 pairs, 100,000 random ids", 100_000, write_task1(folder)))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--folder", help="where the files go (default: a temporary folder)")
    parser.add_argument("--markdown", help="write the section into this page, the figure beside it")
    parser.add_argument("--shapes", action="store_true", help="the shapes' rows, not the sizes'")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(__file__).parents[1] / "ir_coliee")],
        check=True,
    )
    print(f"machine: {machine()}")
    before = os.getloadavg()[1]
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        cases = cases_of(folder, sizes, args.shapes)
        rows = []
        for label, lines, files in cases:
            minimal = not args.shapes and lines <= MINIMAL_LINES
            m = measure(files, args.pairs, TOOLS if minimal else TOOLS[:-1])
            rows.append((label, lines, m))
            print(
                f"{label:>34}: "
                + "  ".join(f"{t} {cell(m, t, 0, '.2f')} s {cell(m, t, 1, '.0f')} MiB" for t in m)
                + f"  ratio {cell(m, 'ir_coliee', 2, '.2f')} time {cell(m, 'ir_coliee', 3, '.2f')} memory",
                flush=True,
            )
    load = f"{before:.1f} to {os.getloadavg()[1]:.1f}"
    print(f"load average (5 minutes): {load}")
    if args.markdown:
        section = markdown(rows, args.pairs, load, args.shapes)
        if args.shapes:
            write_section(args.markdown, section, SHAPES_BEGIN, SHAPES_END)
        else:
            draw(rows, str(Path(args.markdown).parent / "scaling.png"))
            write_section(args.markdown, section)
        print(f"wrote {args.markdown}")


if __name__ == "__main__":
    main()
