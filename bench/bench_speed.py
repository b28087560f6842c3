"""Where users wait, side by side with the peers, from 1k to 10M run lines. Prints tables (and with
``--markdown PATH`` writes them, with the machine, as a Markdown page: ``docs/benchmarks.md``).

    python bench/bench_speed.py [--sizes 1000,10000,100000,1000000,10000000] [--markdown docs/benchmarks.md]

Every figure is the best of ``--repeat`` wall-clock runs (the package's modules compiled to bytecode
first, as an installed package has them) (fresh processes for commands and start-up, ours and the
peer's run in turn, A B A B, so that a machine slower for a while weighs on both alike) with the peak
resident memory of the process where it says so. The run is a TREC file of 1,000
documents per query (``task3-L`` style; ``size / 1000`` queries), document ids from a pool of 10,000
as COLIEE runs have; the gold holds 1 to 5 relevant documents per query. Sections:

* a real-size submission: a Task 1 run of 2,000 lines (400 queries x 5, the official ``pairs`` format)
  and its label JSON gold, against the same pairs as TREC files for ``python -m ir_measures``; and
  ``validate``, ``compare`` (1,000 resamples) and ``tune`` on it, each a fresh process;
* reading a Task 1 run of 10,000 to 400,000 lines in a fresh process with each reader alone (the line
  reader, Arrow): where the package switches from one to the next;
* the command: ``ir_coliee eval GOLD RUN`` (the official measures of the task the files imply, here
  MicroP, MicroR, MicroF1) against ``python -m ir_measures GOLD RUN SetP SetR SetF``;
* big inputs, each against the peer on the same pairs: TREC qrels of 2M lines, a label JSON of 1M queries
  (the peer reads the same pairs as qrels), and a run of 2M lines with and without one duplicate line;
* reading the file: ``ir_coliee.read_run`` (every check) against ``polars.read_csv`` and
  ``pandas.read_csv`` (no checks) and ``ir_measures.read_trec_run``;
* scoring in memory: ir_coliee's MicroP, MicroR, MicroF1 from a DataFrame, namedtuples and dicts,
  against pytrec_eval's SetP, SetR, SetF through ir_measures, ranx (warm, and a fresh process with
  its numba compilation) and the numpy floor (ids as codes, matches counted with ``bincount``);
* ``compare`` (10,000 resamples, three micro measures, two runs) against the numpy floor that
  computes every measure from one set of resampled count sums; ``tune`` on 400k lines;
* start-up (``import ir_coliee`` against ``import ir_measures, ir_datasets``) and the first touch of a
  data root (7,000 case files) against ``os.walk``.
"""

from __future__ import annotations

import argparse
import operator
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Optional

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

POOL = 10_000
PER_QUERY = 1_000
SIZES = (1_000, 10_000, 100_000, 1_000_000, 2_000_000, 10_000_000)


# --- data --------------------------------------------------------------------------------------------


def write_files(folder: str, lines: int) -> tuple[str, str]:
    """A TREC run of ``lines`` lines and its gold, written with Arrow (10M lines in seconds)."""
    per_query = min(lines, PER_QUERY)
    n_queries = lines // per_query
    q = np.repeat(np.arange(n_queries), per_query)
    i = np.tile(np.arange(per_query), n_queries)
    qids = pa.array([f"q{k:05d}" for k in range(n_queries)]).take(pa.array(q))
    docs = pa.array([f"d{k:07d}" for k in range(POOL)]).take(pa.array((q * 7919 + i) % POOL))
    ranks = pa.array([str(k + 1) for k in range(per_query)]).take(pa.array(i))
    scores = pa.array([f"{1 - k / per_query:.6f}" for k in range(per_query)]).take(pa.array(i))
    text = pc.binary_join_element_wise(qids, "Q0", docs, ranks, scores, "bench\n", " ")
    run, gold = os.path.join(folder, f"task3-L.{lines}"), os.path.join(folder, f"gold.{lines}")
    with open(run, "wb") as f:
        offsets = np.frombuffer(text.buffers()[1], dtype=np.int32)[
            text.offset : text.offset + len(text) + 1
        ]
        f.write(text.buffers()[2].to_pybytes()[offsets[0] : offsets[-1]])
    with open(gold, "w") as f:
        for k in range(n_queries):
            f.writelines(
                f"q{k:05d} 0 d{(k * 7919 + j * 97) % POOL:07d} 1\n" for j in range(1 + k % 5)
            )
    return run, gold


# --- timing ------------------------------------------------------------------------------------------


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


#: Runs a module as ``python -m`` would and writes the peak memory of its own address space when it
#: exits. (A child's ``ru_maxrss`` starts from its parent's size at the fork, which here holds the data;
#: ``VmHWM`` belongs to the address space made at ``exec``.)
PEAK = """
import atexit, runpy, sys, resource
def report():
    try:
        with open("/proc/self/status") as f:
            kib = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except OSError:
        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open({report!r}, "w") as f:
        f.write(str(kib))
atexit.register(report)
sys.argv = {argv!r}
{run}
"""


Spec = tuple[Sequence[str], Optional[str]]


def command(argv: Sequence[str], repeat: int, module: Optional[str] = None) -> tuple[float, float]:
    """Best wall time (s) and peak memory (MiB) of a fresh Python process: ``python -m module argv`` or
    ``python -c argv[0]``."""
    return in_turn([(argv, module)], repeat)[0]


def in_turn(specs: Sequence[Spec], repeat: int) -> list[tuple[float, float]]:
    """:func:`command` for each ``(argv, module)`` of ``specs``, run in turn (A B A B ...): a machine that
    is slower for a while slows every command alike, so that the ratios hold."""
    times: list[list[float]] = [[] for _ in specs]
    peaks: list[list[float]] = [[] for _ in specs]
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "peak")
        codes = []
        for argv, module in specs:
            run = (
                f"runpy.run_module({module!r}, run_name='__main__')"
                if module
                else f"exec({argv[0]!r})"
            )
            codes.append(
                (PEAK.format(report=report, argv=[module or "-c", *argv], run=run), module, argv)
            )
        for _ in range(repeat):
            for i, (code, module, argv) in enumerate(codes):
                start = time.perf_counter()
                result = subprocess.run(
                    [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
                )
                times[i].append(time.perf_counter() - start)
                if result.returncode != 0:
                    raise RuntimeError(
                        f"{module} {' '.join(argv)} failed: {result.stderr.decode()[-500:]}"
                    )
                with open(report) as f:
                    peaks[i].append(int(f.read()) / 1024)
    return [(min(t), max(p)) for t, p in zip(times, peaks)]


def python(code: str, repeat: int) -> tuple[float, float]:
    return command([code], repeat)


class Table:
    """Rows printed as they come, kept for the Markdown page."""

    def __init__(self, title: str, header: Sequence[str], out: list[str]):
        self.title, self.header, self.rows, self.out = title, list(header), [], out
        print(f"\n{title}\n" + "  ".join(f"{h:>14}" for h in self.header), flush=True)

    def add(self, *cells: object) -> None:
        row = [
            c
            if isinstance(c, str)
            else "—"
            if c is None
            else f"{c:,.3f}"
            if isinstance(c, float)
            else f"{c:,}"
            for c in cells
        ]
        self.rows.append(row)
        print("  ".join(f"{c:>14}" for c in row), flush=True)

    def markdown(self) -> str:
        lines = [
            f"### {self.title}",
            "",
            "| " + " | ".join(self.header) + " |",
            "|" + "---|" * len(self.header),
        ]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines) + "\n"


def ratio(slow: Optional[float], fast: Optional[float]) -> str:
    return f"{slow / fast:.1f}x" if slow and fast else "—"


# --- the numpy floors ----------------------------------------------------------------------------------


def floor_counts(
    query_column: object, doc_column: object, gold: dict[str, dict[str, int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per gold query (tp, retrieved, relevant) with nothing but codes and bincount: no checks, no
    duplicate handling, no per-query values."""
    queries, query_ids = pd.factorize(query_column)
    docs, doc_ids = pd.factorize(doc_column)
    gold_queries = list(gold)
    pairs = [(q, d) for q, judged in gold.items() for d, r in judged.items() if r >= 1]
    line_query = pd.Index(gold_queries).get_indexer(query_ids)[queries]
    doc_code = pd.Index(doc_ids).get_indexer([d for _, d in pairs])
    query_code = pd.Index(gold_queries).get_indexer([q for q, _ in pairs])
    relevant_pairs = np.sort(query_code.astype(np.int64) * len(doc_ids) + doc_code)
    kept = line_query >= 0
    line_pairs = line_query[kept].astype(np.int64) * len(doc_ids) + docs[kept]
    hits = np.isin(line_pairs, relevant_pairs)
    n = len(gold_queries)
    tp = np.bincount(line_query[kept][hits], minlength=n)
    retrieved = np.bincount(line_query[kept], minlength=n)
    relevant = np.bincount(query_code, minlength=n)
    return tp, retrieved, relevant


def floor_micro(run: object, gold: dict[str, dict[str, int]]) -> tuple[float, float, float]:
    """MicroP, MicroR, MicroF1 from a DataFrame, or from a list of namedtuples (its columns taken first:
    any implementation pays for that)."""
    if isinstance(run, pd.DataFrame):
        columns = (run["query_id"], run["doc_id"])
    else:
        columns = tuple(
            np.fromiter(map(operator.itemgetter(i), run), dtype=object, count=len(run))
            for i in (0, 1)
        )
    tp, ret, rel = (int(a.sum()) for a in floor_counts(*columns, gold))
    p, r = tp / ret if ret else 0.0, tp / rel if rel else 0.0
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def floor_compare(a: np.ndarray, b: np.ndarray, resamples: int, seed: int = 0) -> None:
    """Bootstrap intervals of both runs and the randomization test, for MicroP, MicroR, MicroF1, from
    one set of resampled count sums (``a``, ``b``: (queries, 3) counts)."""
    rng = np.random.default_rng(seed)
    n = len(a)

    def measures(s: np.ndarray) -> list[np.ndarray]:
        tp, ret, rel = s[:, 0], s[:, 1], s[:, 2]
        p = np.divide(tp, ret, out=np.zeros_like(tp), where=ret > 0)
        r = np.divide(tp, rel, out=np.zeros_like(tp), where=rel > 0)
        return [p, r, np.divide(2 * p * r, p + r, out=np.zeros_like(p), where=p + r > 0)]

    both = np.hstack([a, b]).astype(float)
    diff = (a - b).astype(float)
    for _ in range(0, resamples, 500):
        drawn = rng.integers(0, n, size=(500, n)) + np.arange(500)[:, None] * n
        weights = np.bincount(drawn.ravel(), minlength=500 * n).reshape(500, n)
        sums = weights @ both
        measures(sums[:, :3]), measures(sums[:, 3:])
        swaps = rng.integers(0, 2, size=(500, n)).astype(float) @ diff
        measures(a.sum(0) - swaps), measures(b.sum(0) + swaps)


# --- sections ------------------------------------------------------------------------------------------


def write_task1(folder: str, queries: int, per_query: int) -> tuple[str, str, str, str]:
    """A Task 1 run in the official ``pairs`` format with its label JSON gold, and the same pairs as a TREC
    run and TREC qrels for the peer: 1 to 7 noticed cases per query, 2 of them retrieved where there are."""
    import json

    rng = np.random.default_rng(7)
    labels, pairs = {}, []
    for q in range(1, queries + 1):
        relevant = rng.choice(np.arange(1, 4001), int(rng.integers(1, 8)), replace=False).tolist()
        labels[f"{q:06d}.txt"] = [f"{d:06d}.txt" for d in relevant]
        others = [
            d
            for d in rng.choice(np.arange(1, 4001), per_query + 2, replace=False).tolist()
            if d not in relevant
        ]
        pairs += [(f"{q:06d}", f"{d:06d}") for d in (relevant[:2] + others)[:per_query]]
    name = f"{queries * per_query}"
    paths = [
        os.path.join(folder, f)
        for f in (f"labels.{name}.json", f"task1.TEAM{name}", f"qrels.{name}", f"trec.{name}")
    ]
    Path(paths[0]).write_text(json.dumps(labels))
    Path(paths[1]).write_text("".join(f"{q} {d} TEAM\n" for q, d in pairs))
    Path(paths[2]).write_text(
        "".join(f"{k[:-4]} 0 {d[:-4]} 1\n" for k, docs in labels.items() for d in docs)
    )
    Path(paths[3]).write_text(
        "".join(
            f"{q} Q0 {d} {i % per_query + 1} {per_query - i % per_query} TEAM\n"
            for i, (q, d) in enumerate(pairs)
        )
    )
    return paths[0], paths[1], paths[2], paths[3]


def section_real_size(folder: str, repeat: int, out: list[str]) -> Table:
    table = Table(
        "A real-size submission: Task 1, label JSON gold, the official pairs format (fresh processes, wall seconds)",
        [
            "what",
            "ir_coliee (s)",
            "python -m ir_measures ... SetP SetR SetF (s)",
            "ratio",
            "ir_coliee peak (MiB)",
        ],
        out,
    )
    for queries, per_query in ((400, 5), (400, 250)):
        labels, run, qrels, trec = write_task1(folder, queries, per_query)
        (ours, peak), (theirs, _) = in_turn(
            [
                (["eval", labels, run, "--task", "1"], "ir_coliee"),
                ([qrels, trec, "SetP", "SetR", "SetF"], "ir_measures"),
            ],
            repeat * 3,
        )
        table.add(
            f"eval, {queries * per_query:,} lines", ours, theirs, f"{ours / theirs:.2f}", peak
        )
    labels, run, qrels, trec = write_task1(folder, 400, 5)
    home = os.path.join(
        folder, "home"
    )  # a data root holding the 2025 test labels under their official name
    os.makedirs(home, exist_ok=True)
    shutil.copy(labels, os.path.join(home, "task1_test_labels_2025.json"))
    os.environ["COLIEE_HOME"] = home  # (the peer does not read it)
    (ours, peak), (theirs, _) = in_turn(
        [
            (["eval", "coliee/task1/2025/test", run], "ir_coliee"),
            ([qrels, trec, "SetP", "SetR", "SetF"], "ir_measures"),
        ],
        repeat * 3,
    )
    del os.environ["COLIEE_HOME"]
    table.add(
        "eval, 2,000 lines, gold = coliee/task1/2025/test",
        ours,
        theirs,
        f"{ours / theirs:.2f}",
        peak,
    )
    other = os.path.join(folder, "task1.OTHER2000")
    kept = Path(run).read_text().replace(" TEAM\n", " OTHER\n").splitlines(keepends=True)
    Path(other).write_text(
        "".join(line for i, line in enumerate(kept) if i % 5 != 4)
    )  # a second, shorter run
    for what, argv in (
        ("validate, 2,000 lines", ["validate", run, "--task", "1"]),
        (
            "compare, 2 runs of 2,000 lines, 1,000 resamples",
            ["compare", labels, run, other, "--task", "1", "--resamples", "1000"],
        ),
        ("tune, 2,000 lines", ["tune", labels, run, "--task", "1"]),
    ):
        ours, peak = command(argv, repeat * 3, module="ir_coliee")
        table.add(what, ours, None, "—", peak)
    return table


def section_engines(folder: str, repeat: int, out: list[str]) -> Table:
    """Which reader at which size: the line reader, the fast reader's split columns and its Arrow columns,
    each alone in a fresh process (imports included), on Task 1 runs in the ``pairs`` format; the limit in
    ``ir_coliee.table.run_fast`` (``SPLIT_FILE``) keeps the split one where Arrow's import (47 MiB) would
    take more memory than the peer's whole run."""
    table = Table(
        "Reading a pairs run in a fresh process, by reader (wall seconds; peaks in MiB)",
        ["lines", "MiB", "line reader", "split", "Arrow", "split peak", "Arrow peak"],
        out,
    )
    fast = (
        "import ir_coliee.table.run_fast as fast\nfast.SPLIT_FILE = {limit}\n"
        "assert fast.parse_fast({path!r}, 'pairs', 0)"
    )
    read = {
        "lines": "from ir_coliee.table.run_lines import parse_checked\nparse_checked({path!r}, 'pairs')",
        "split": fast.replace("{limit}", str(1 << 40)),
        "arrow": fast.replace("{limit}", "0"),
    }
    for queries in (40, 100, 400, 1_600, 3_200):
        _, run, _, _ = write_task1(folder, queries, 250)
        engines = ("lines", "split", "arrow") if queries <= 100 else ("split", "arrow")
        timed = dict(
            zip(engines, in_turn([([read[e].format(path=run)], None) for e in engines], repeat * 3))
        )
        lines = timed.get("lines", (None, None))
        size = os.path.getsize(run) / (1 << 20)
        table.add(
            queries * 250,
            f"{size:.1f}",
            lines[0],
            timed["split"][0],
            timed["arrow"][0],
            timed["split"][1],
            timed["arrow"][1],
        )
    return table


def section_command(files: dict[int, tuple[str, str]], repeat: int, out: list[str]) -> Table:
    table = Table(
        "The command: ir_coliee eval GOLD RUN against python -m ir_measures GOLD RUN SetP SetR SetF",
        [
            "lines",
            "ir_coliee (s)",
            "ir_measures CLI (s)",
            "speed-up",
            "ir_coliee peak (MiB)",
            "ir_measures peak (MiB)",
        ],
        out,
    )
    for lines, (run, gold) in files.items():
        if lines >= 1_000_000:  # the peer takes 30 s at 10M lines: run once, ours at its best
            ours, our_peak = command(["eval", gold, run], repeat, module="ir_coliee")
            theirs, their_peak = command(
                [gold, run, "SetP", "SetR", "SetF"], 1, module="ir_measures"
            )
        else:
            (ours, our_peak), (theirs, their_peak) = in_turn(
                [
                    (["eval", gold, run], "ir_coliee"),
                    ([gold, run, "SetP", "SetR", "SetF"], "ir_measures"),
                ],
                repeat,
            )
        table.add(lines, ours, theirs, ratio(theirs, ours), our_peak, their_peak)
    return table


def write_big_gold(folder: str, queries: int, per_query: int) -> tuple[str, str]:
    """TREC qrels of ``queries * per_query`` lines and a run of one line per query (every third one relevant)."""
    gold, run = (
        os.path.join(folder, f"qrels.big{queries}"),
        os.path.join(folder, f"run.big{queries}"),
    )
    with open(gold, "w") as f:
        f.writelines(
            f"q{q} 0 d{(q + j) % POOL} 1\n" for q in range(queries) for j in range(per_query)
        )
    with open(run, "w") as f:
        f.writelines(f"q{q} Q0 d{(q + q % 3 * 7) % POOL} 1 1.0 big\n" for q in range(queries))
    return gold, run


def with_duplicate(run: str) -> str:
    """A copy of ``run`` whose middle line is given twice."""
    lines = Path(run).read_bytes().splitlines(keepends=True)
    copy = run + ".duplicate"
    Path(copy).write_bytes(b"".join(lines[: len(lines) // 2 + 1] + lines[len(lines) // 2 :]))
    return copy


def section_big_inputs(
    folder: str, files: dict[int, tuple[str, str]], repeat: int, out: list[str]
) -> Table:
    """The inputs that once cost twice the peer's memory: a big gold, a label JSON of many queries, a run with
    one duplicate line (which must cost no extra pass over the run)."""
    table = Table(
        "Big inputs: ir_coliee eval GOLD RUN against python -m ir_measures on the same pairs (best of runs in turn)",
        [
            "input",
            "ir_coliee (s)",
            "ir_measures CLI (s)",
            "speed-up",
            "ir_coliee peak (MiB)",
            "ir_measures peak (MiB)",
        ],
        out,
    )
    gold, run = write_big_gold(folder, 400_000, 5)
    labels, pairs, qrels, trec = write_task1(folder, 1_000_000, 1)
    rows = [
        ("qrels of 2,000,000 lines", gold, run, gold, run),
        ("label JSON of 1,000,000 queries", labels, pairs, qrels, trec),
    ]
    if 2_000_000 in files:
        big_run, big_gold = files[2_000_000]
        rows.append(("run of 2,000,000 lines", big_gold, big_run, big_gold, big_run))
        duplicated = with_duplicate(big_run)
        rows.append(
            ("the same run, one line given twice", big_gold, duplicated, big_gold, duplicated)
        )
    for what, our_gold, our_run, their_gold, their_run in rows:
        (ours, our_peak), (theirs, their_peak) = in_turn(
            [
                (["eval", our_gold, our_run], "ir_coliee"),
                ([their_gold, their_run, "SetP", "SetR", "SetF"], "ir_measures"),
            ],
            repeat,
        )
        table.add(what, ours, theirs, ratio(theirs, ours), our_peak, their_peak)
    return table


def section_reading(files: dict[int, tuple[str, str]], repeat: int, out: list[str]) -> Table:
    import ir_measures
    import polars as pl

    import ir_coliee

    table = Table(
        "Reading the run file (seconds; ratio: ir_coliee / polars)",
        ["lines", "ir_coliee.read_run", "polars", "pandas", "ir_measures", "ir_coliee / polars"],
        out,
    )
    for lines, (run, _) in files.items():
        ours = best(lambda r=run: ir_coliee.parse_run(r), repeat)
        polars = best(lambda r=run: pl.read_csv(r, separator=" ", has_header=False), repeat)
        pandas = best(
            lambda r=run: pd.read_csv(r, sep=" ", header=None, dtype={0: str, 2: str}), repeat
        )
        trec = (
            best(lambda r=run: list(ir_measures.read_trec_run(r)), 1)
            if lines <= 1_000_000
            else None
        )
        table.add(lines, ours, polars, pandas, trec, f"{ours / polars:.2f}")
    return table


def _ranx(frame: pd.DataFrame, gold_frame: pd.DataFrame) -> float:
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_df(
        gold_frame, q_id_col="query_id", doc_id_col="doc_id", score_col="relevance"
    )
    frame = frame.astype({"query_id": object, "doc_id": object})  # ranx takes object columns only
    ranked = Run.from_df(frame, q_id_col="query_id", doc_id_col="doc_id", score_col="score")
    start = time.perf_counter()
    evaluate(qrels, ranked, ["precision", "recall", "f1"], make_comparable=True)
    return time.perf_counter() - start


RANX_COLD = """
import pandas as pd, time
from ranx import Qrels, Run, evaluate
frame = pd.read_csv({run!r}, sep=" ", header=None, names=["query_id", "q0", "doc_id", "rank", "score", "tag"], dtype={{"query_id": object, "doc_id": object}})
gold = pd.read_csv({gold!r}, sep=" ", header=None, names=["query_id", "it", "doc_id", "relevance"], dtype={{"query_id": object, "doc_id": object}})
evaluate(Qrels.from_df(gold, "query_id", "doc_id", "relevance"), Run.from_df(frame, "query_id", "doc_id", "score"), ["precision", "recall", "f1"], make_comparable=True)
"""


def section_scoring(files: dict[int, tuple[str, str]], repeat: int, out: list[str]) -> Table:

    table = Table(
        "Scoring in memory (seconds): MicroP, MicroR, MicroF1 against SetP, SetR, SetF; ratios to the numpy "
        "floor from the same input (dicts: to the frame's)",
        [
            "lines",
            "floor (frame)",
            "ir_coliee frame",
            "x floor",
            "floor (tuples)",
            "ir_coliee tuples",
            "x floor",
            "ir_coliee dicts",
            "x floor",
            "pytrec_eval frame",
            "pytrec_eval dicts",
            "ranx warm",
            "ranx cold (process)",
        ],
        out,
    )
    for lines, (run, gold_path) in files.items():
        table.add(lines, *_scoring_row(lines, run, gold_path, repeat))
    return table


def _scoring_row(lines: int, run: str, gold_path: str, repeat: int) -> list[object]:
    import ir_measures
    from ir_measures import ScoredDoc, SetF, SetP, SetR

    import ir_coliee
    from ir_coliee.table.tables import run_table

    ours, theirs = [ir_coliee.MicroP, ir_coliee.MicroR, ir_coliee.MicroF1], [SetP, SetR, SetF]
    frame = ir_coliee.read_run(run)
    gold_frame = pd.DataFrame(ir_coliee.read_qrels(gold_path)).astype(
        {"query_id": object, "doc_id": object}
    )
    gold = {q: dict(zip(g["doc_id"], g["relevance"])) for q, g in gold_frame.groupby("query_id")}
    tuples = [
        ScoredDoc(q, d, s) for q, d, s in zip(frame["query_id"], frame["doc_id"], frame["score"])
    ]
    dicts = run_table(frame)
    floor = best(lambda: floor_micro(frame, gold), repeat)
    floor_tuples = best(lambda: floor_micro(tuples, gold), repeat)
    expected = floor_micro(frame, gold)
    timings = []
    for shape in (frame, tuples, dicts):
        got = ir_measures.calc_aggregate(ours, gold, shape)
        assert all(abs(got[m] - e) < 1e-12 for m, e in zip(ours, expected)), (got, expected)
        timings.append(best(lambda s=shape: ir_measures.calc_aggregate(ours, gold, s), repeat))
    trec_frame = best(lambda: ir_measures.calc_aggregate(theirs, gold, frame), 1)
    trec_dicts = best(lambda: ir_measures.calc_aggregate(theirs, gold, dicts), 1)
    try:
        _ranx(frame, gold_frame)  # compiles
        warm: Optional[float] = min(
            _ranx(frame, gold_frame) for _ in range(1 if lines >= 1_000_000 else repeat)
        )
        cold: Optional[float] = python(RANX_COLD.format(run=run, gold=gold_path), 1)[0]
    except ImportError:
        warm = cold = None
    return [
        floor,
        timings[0],
        ratio(timings[0], floor),
        floor_tuples,
        timings[1],
        ratio(timings[1], floor_tuples),
        timings[2],
        ratio(timings[2], floor),
        trec_frame,
        trec_dicts,
        warm,
        cold,
    ]


def section_compare_tune(
    folder: str, files: dict[int, tuple[str, str]], repeat: int, out: list[str]
) -> Table:

    table = Table(
        "compare (10,000 resamples, MicroP, MicroR, MicroF1, two runs) and tune (seconds)",
        ["what", "ir_coliee", "numpy floor", "x floor"],
        out,
    )
    for n_queries in (400, 10_000):
        ours, floor = _compare_row(n_queries, repeat)
        table.add(f"compare, {n_queries:,} queries", ours, floor, ratio(ours, floor))
    run, gold_path = write_files(folder, 400_000)
    tune, _ = command(["tune", gold_path, run, "--task", "3"], repeat, module="ir_coliee")
    table.add("tune, 400,000 lines (command)", tune, None, "—")
    return table


def _compare_row(n_queries: int, repeat: int) -> tuple[float, float]:
    import ir_coliee
    from ir_coliee.measures.significance import per_query_all

    rng = np.random.default_rng(1)
    gold = {
        f"q{q}": {f"d{d}": 1 for d in rng.choice(50, 3, replace=False)} for q in range(n_queries)
    }
    runs = [
        {
            q: {f"d{d}": float(s) for s, d in enumerate(rng.choice(50, 20, replace=False))}
            for q in gold
        }
        for _ in range(2)
    ]
    measures = [ir_coliee.MicroP, ir_coliee.MicroR, ir_coliee.MicroF1]
    ours = best(lambda: ir_coliee.compare(gold, runs, measures, resamples=10_000), repeat)
    counts = [per_query_all(measures[:1], list(gold), gold, r)[0].counts for r in runs]
    floor = best(lambda: floor_compare(counts[0], counts[1], 10_000), repeat)
    return ours, floor


def section_startup(folder: str, repeat: int, out: list[str]) -> Table:
    table = Table(
        "Start-up and the first touch of a data root (seconds)",
        ["what", "ir_coliee", "peer", "ratio"],
        out,
    )
    ours, _ = python("import ir_coliee", repeat * 3)
    peer, _ = python("import ir_measures, ir_datasets", repeat * 3)
    table.add(
        "import ir_coliee / import ir_measures, ir_datasets", ours, peer, f"{ours / peer:.2f}"
    )
    probe = (
        "import sys\nfrom ir_coliee.cli import main\n"
        f"main(['eval', {os.path.join(folder, 'gold.1000')!r}, {os.path.join(folder, 'task3-L.1000')!r}])\n"
        "assert 'ir_datasets' not in sys.modules, 'eval imported ir_datasets'"
    )
    eval_small, _ = python(probe, repeat)
    table.add("eval of two small files (no ir_datasets)", eval_small, None, "—")
    root = Path(folder) / "root" / "COLIEE2025" / "task1_train_files_2025"
    root.mkdir(parents=True)
    for k in range(7_000):
        (root / f"{k:06d}.txt").write_text("x")
    code = (
        "import os, time\nfrom pathlib import Path\nfrom ir_coliee.data.locator import Locator\n"
        f"root = {str(Path(folder) / 'root')!r}\n"
        "def best(f):\n    t = []\n    for _ in range(15):\n        s = time.perf_counter(); f(); t.append(time.perf_counter() - s)\n    return min(t)\n"
        "w = best(lambda: [len(f) for _, _, f in os.walk(root)])\n"
        "s = best(lambda: Locator(Path(root))._index())\n"
        "print(s, w)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    scan, walk = map(float, result.stdout.split())
    table.add(
        "first touch of a data root of 7,000 files / os.walk", scan, walk, f"{scan / walk:.2f}"
    )
    return table


def machine() -> str:
    from importlib.metadata import PackageNotFoundError, version

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(
                (line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu
            )
    except OSError:
        pass
    versions = [f"Python {platform.python_version()}"]
    for name in (
        "numpy",
        "pandas",
        "pyarrow",
        "ir_measures",
        "ir_datasets",
        "pytrec-eval-terrier",
        "polars",
        "ranx",
    ):
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            versions.append(f"{name} (not installed)")
    return (
        f"{platform.system()} {platform.release()}, {os.cpu_count()} cores ({cpu}); "
        + ", ".join(versions)
    )


#: Where the section of ``bench/bench_scaling.py`` starts: kept when this page is written again.
SCALING = "<!-- scaling: bench/bench_scaling.py -->"

PAGE = """# Benchmarks

Generated by `python bench/bench_speed.py --markdown docs/benchmarks.md` (do not edit by hand); the
script's text says how each figure is taken. Wall-clock seconds, best of {repeat}; commands and
start-up in fresh processes (ours and the peer's in turn), with the peak memory of their own address
space.

Machine: {machine}.

{tables}
Two more scripts print tables of their own: `python bench/bench_memory.py` (the peak memory of `eval` and
`validate` on a 10M-line run and on copies with one flaw each, which the line-by-line reader takes) and
`python bench/bench_datasets.py` (parsing the statute package and a Task 1 pool of 7,000 case files).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", help="also write the tables as a Markdown page")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    out: list[str] = []
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as folder:
        files = {lines: write_files(folder, lines) for lines in sizes}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "compileall",
                "-q",
                str(Path(__file__).parents[1] / "ir_coliee"),
            ],
            check=True,
        )
        tables = [
            section_real_size(folder, args.repeat, out),
            section_engines(folder, args.repeat, out),
            section_command(files, args.repeat, out),
            section_big_inputs(folder, files, args.repeat, out),
            section_reading(files, args.repeat, out),
            section_scoring(files, args.repeat, out),
            section_compare_tune(folder, files, args.repeat, out),
            section_startup(folder, args.repeat, out),
        ]
    if args.markdown:
        page = PAGE.format(
            repeat=args.repeat, machine=machine(), tables="\n".join(t.markdown() for t in tables)
        )
        old = Path(args.markdown).read_text() if Path(args.markdown).exists() else ""
        kept = old[old.index(SCALING) :] if SCALING in old else ""  # bench_scaling.py's section
        Path(args.markdown).write_text(page + ("\n" + kept if kept else ""))
        print(f"\nwrote {args.markdown}")


if __name__ == "__main__":
    main()
