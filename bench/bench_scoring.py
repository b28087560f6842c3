"""Scoring speed: ir_coliee's MicroF1 + MacroF2 against pytrec_eval's SetP + SetR + SetF through
ir_measures, on the same synthetic run, for each run shape ir_measures accepts. Prints a table.

    python bench/bench_scoring.py [--queries 10000] [--docs 1000] [--repeat 1]

Also times reading the run from an official submission file (``ir_coliee.read_run``).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from typing import Callable

import ir_measures
import pandas as pd

import ir_coliee


def make_data(n_queries: int, n_docs: int, seed: int = 0) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(n_queries):
        qid = f"q{q:06d}"
        docs = rng.sample(range(n_docs * 5), n_docs)
        run[qid] = {f"d{d:07d}": rng.random() for d in docs}
        relevant = [*rng.sample(docs[: n_docs // 2], rng.randint(1, 5)), n_docs * 5 + q]
        qrels[qid] = {f"d{d:07d}": 1 for d in relevant}
    return qrels, run


def as_frame(run: dict[str, dict[str, float]]) -> pd.DataFrame:
    qids, dids, scores = [], [], []
    for qid, docs in run.items():
        qids.extend([qid] * len(docs))
        dids.extend(docs)
        scores.extend(docs.values())
    return pd.DataFrame({"query_id": qids, "doc_id": dids, "score": scores})


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    qrels, run = make_data(args.queries, args.docs)
    frame = as_frame(run)
    ours = [ir_coliee.MicroF1, ir_coliee.MacroF2]
    theirs = [ir_measures.SetP, ir_measures.SetR, ir_measures.SetF]
    rows: list[tuple[str, float, float]] = []
    for shape, run_input in (("dict of dicts", run), ("DataFrame", frame)):
        t_ours, r_ours = timed(lambda r=run_input: ir_measures.calc_aggregate(ours, qrels, r), args.repeat)
        t_theirs, _r_theirs = timed(lambda r=run_input: ir_measures.calc_aggregate(theirs, qrels, r), args.repeat)
        rows.append((shape, t_ours, t_theirs))
        # the same macro F2 by an independent implementation: trec_eval's set_F with beta=4 is F2
        check = ir_measures.calc_aggregate([ir_measures.SetF(beta=4.0)], qrels, run_input)
        assert abs(r_ours[ir_coliee.MacroF2] - check[ir_measures.SetF(beta=4.0)]) < 1e-9

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "task3-L.bench")
        ir_coliee.write_run(frame, path, format="trec", tag="bench")
        t_read, _ = timed(lambda: ir_coliee.read_run(path), args.repeat)
        t_pd, _ = timed(lambda: pd.read_csv(path, sep=" ", header=None, dtype={0: str, 2: str}), args.repeat)
        t_trec, _ = timed(lambda: list(ir_measures.read_trec_run(path)), args.repeat)

    n_lines = len(frame)
    print(f"{args.queries:,} queries x {args.docs:,} documents = {n_lines:,} run lines (best of {args.repeat})")
    print()
    print(f"{'run given as':<16} {'MicroF1+MacroF2 (s)':>20} {'SetP+SetR+SetF (s)':>20} {'speed-up':>9}")
    for shape, t_ours, t_theirs in rows:
        print(f"{shape:<16} {t_ours:>20.2f} {t_theirs:>20.2f} {t_theirs / t_ours:>8.1f}x")
    print()
    print(f"{'reading the run file':<36} {'seconds':>8} {'vs read_run':>12}")
    for name, t in (
        ("ir_coliee.read_run (validating)", t_read),
        ("pandas.read_csv (no checks)", t_pd),
        ("ir_measures.read_trec_run", t_trec),
    ):
        print(f"{name:<36} {t:>8.2f} {t / t_read:>11.2f}x")


if __name__ == "__main__":
    main()
