"""Writes the synthetic sample release in ir_coliee/sample/ (deterministic; ids and runs only, no text).

Every file is made up by this script in the official layouts: no COLIEE data is involved.
Run: python scripts/make_sample.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "ir_coliee" / "sample"
TAG = "sampleRun1"


def task1(rng: random.Random) -> None:
    pool = [f"{rng.randrange(10**6):06d}" for _ in range(400)]
    queries = pool[:25]
    gold = {f"{q}.txt": [f"{d}.txt" for d in rng.sample(pool[25:], rng.randint(1, 5))] for q in queries}
    (OUT / "task1_test_labels_sample.json").write_text(json.dumps(gold, indent=1) + "\n")
    lines = []
    for q in queries:
        relevant = [d[:-4] for d in gold[f"{q}.txt"]]
        hits = [d for d in relevant if rng.random() < 0.5]
        misses = rng.sample([d for d in pool[25:] if d not in relevant], 5 - len(hits))
        lines += [f"{q} {d} {TAG}\n" for d in hits + misses]
    (OUT / "task1.sampleRun1.txt").write_text("".join(lines))


def task2(rng: random.Random) -> None:
    cases = [f"{i:03d}" for i in range(901, 931)] + [str(i) for i in range(1001, 1011)]
    gold: dict = {}
    lines = []
    for case in cases:
        n_par = rng.randint(20, 60)
        relevant = sorted(rng.sample(range(1, n_par + 1), rng.randint(1, 2)))
        names = [f"{p:03d}.txt" for p in relevant]
        gold[case] = ", ".join(names) if rng.random() < 0.3 else names
        guess = relevant[0] if rng.random() < 0.6 else rng.randint(1, n_par)
        lines.append(f"{case} {guess:03d} {TAG}\n")
    (OUT / "task2_test_labels_sample.json").write_text(json.dumps(gold, indent=1) + "\n")
    (OUT / "task2.sampleRun1.txt").write_text("".join(lines))


def statute(rng: random.Random) -> None:
    questions = [f"R05-{i:02d}-{s}" for i in range(1, 21) for s in "AI"]
    articles = [str(a) for a in range(1, 725)] + ["3-2", "398-22", "724-2"]
    qrels, task3, task3l, answers, task4 = [], [], [], [], []
    for q in questions:
        relevant = rng.sample(articles, rng.choice([1, 1, 1, 2, 3]))
        qrels += [f"{q} 0 {a} 1\n" for a in relevant]
        ranked = [a for a in rng.sample(articles, 12) if a not in relevant][:10]
        for a in relevant:
            if rng.random() < 0.8:
                ranked.insert(rng.choice([0, 0, 1, 2, 5, 8]), a)
        ranked = ranked[:10]
        task3 += [f"{q} {a} {TAG}\n" for a in ranked[: rng.randint(1, 3)]]
        task3l += [f"{q} Q0 {a} {r} {1 - r / 20:.4f} {TAG}\n" for r, a in enumerate(ranked, 1)]
        label = rng.choice("YN")
        answers.append(f"{q} {label} gold\n")
        task4.append(f"{q} {label if rng.random() < 0.7 else 'YN'.replace(label, '')} {TAG}\n")
    (OUT / "task3_gold_sample.qrels").write_text("".join(qrels))
    (OUT / "task3.sampleRun1").write_text("".join(task3))
    (OUT / "task3-L.sampleRun1").write_text("/* synthetic sample: ranked list, 10 per question */\n" + "".join(task3l))
    (OUT / "task4_gold_sample.txt").write_text("".join(answers))
    (OUT / "R05.task4.sampleRun1").write_text("".join(task4))


def tort_record(i: int, sides: dict, decision: bool, rng: random.Random, guess: bool) -> dict:
    """One tort; with ``guess``, a system's answers (each label right 3 times out of 4)."""

    def label(value: bool) -> bool:
        return value if not guess or rng.random() < 0.75 else not value

    record = {
        "version": "sample",
        "tort_id": f"sample-{i:02d}",
        "undisputed_facts": [{"id": f, "description": f"合成の事実 {i}-{f}（サンプル）"} for f in range(1, 4)],
    }
    for side, claims in sides.items():
        record[f"{side}_claims"] = [
            {"id": c, "description": f"合成の主張 {side} {c}", "is_accepted": label(accepted)} for c, accepted in claims
        ]
    record["court_decision"] = label(decision)
    return record


def pilot(rng: random.Random) -> None:
    gold, submission = [], []
    for i in range(1, 21):
        sides = {
            side: [(c, rng.random() < 0.4) for c in range(1, rng.randint(1, 4) + 1)]
            for side in ("plaintiff", "defendant")
        }
        decision = rng.random() < 0.5
        gold.append(tort_record(i, sides, decision, rng, guess=False))
        submission.append(tort_record(i, sides, decision, rng, guess=True))
    for name, torts in (("pilot_gold_sample.jsonl", gold), ("pilot.sampleRun1.jsonl", submission)):
        (OUT / name).write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in torts), encoding="utf-8")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2024)
    task1(rng)
    task2(rng)
    statute(rng)
    pilot(rng)
