"""Writes the synthetic sample release in ir_coliee/sample/release/ (deterministic).

Every file is made up here, in the official layouts of the 2025 edition (COLIEE-SPEC sections 2-5),
so that ``ir_coliee demo`` can run the whole loop: load the datasets through their ir_datasets ids,
retrieve with BM25, write and validate official submission files, score them. The texts are
generated from topic word lists: no COLIEE data is involved.

Run: python scripts/make_sample.py
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "ir_coliee" / "sample" / "release"
MARK = "SYNTHETIC SAMPLE (written by ir_coliee, not COLIEE data)"

TOPICS = [
    "lease tenant landlord rent premises repair deposit",
    "sale buyer seller defect warranty delivery price",
    "loan lender borrower interest repayment guarantee surety",
    "minor guardian consent capacity rescind juridical act",
    "mortgage creditor priority auction collateral registration",
    "tort negligence damages injury compensation liability fault",
    "agency agent principal authority representation ratify",
    "prescription period acquisition possession lapse claim",
    "inheritance heir estate succession will legacy share",
    "marriage spouse divorce property custody support",
    "contract offer acceptance formation mistake fraud duress",
    "easement neighbor land passage boundary water access",
    "employment worker employer wage dismissal contract term",
    "unjust enrichment benefit loss restitution good faith",
    "pledge movable possession secured debt retention right",
]
COMMON = "the a of to and in that is by for with on as be it shall may".split()


def topic_text(rng: random.Random, topic: int, n: int) -> str:
    words = TOPICS[topic].split()
    return (
        " ".join(
            rng.choice(words) if rng.random() < 0.45 else rng.choice(COMMON) for _ in range(n)
        ).capitalize()
        + "."
    )


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def statute(rng: random.Random) -> None:
    package = OUT / "COLIEE2025statute_data-English"
    lines = [f"{MARK}: Civil Code", "Part I General Provisions", "Chapter I Synthetic Chapter"]
    article_topic = {}
    for number in range(1, 61):
        if number == 31:
            lines.append("Part II Synthetic Part")
        if number == 20:
            lines.append("Articles 20 to 22  Deleted")
        if 20 <= number <= 22:
            continue
        topic = rng.randrange(len(TOPICS))
        article_topic[str(number)] = topic
        lines.append(f"({TOPICS[topic].split()[0].capitalize()})")
        lines.append(f"Article {number}  {topic_text(rng, topic, 25)}")
        lines.append(f"(2) {topic_text(rng, topic, 15)}")
    write(package / "text" / "civil_code_en-1to724-2.txt", "\ufeff" + "\n".join(lines) + "\n")
    # as distributed: the English test questions without labels in the 2025 package; their gold only in
    # the 2026 Japanese package (simple/simple_R06_jp.xml, one <article> per gold article; COLIEE-SPEC 4, 10)
    questions, gold = [], []
    for i in range(40):
        qid = f"R06-{i // 5 + 1:02d}-{'AIUEO'[i % 5]}"
        articles = rng.sample(sorted(article_topic), rng.choice([1, 1, 2]))
        question = topic_text(rng, article_topic[articles[0]], 20)
        questions.append(f'<pair id="{qid}">\n<t2>\n{question}\n</t2>\n</pair>\n')
        listed = "".join(f"<article>{a}</article>" for a in articles)
        gold.append(
            f'<pair id="{qid}" label="{rng.choice("YN")}">{listed}<t2>合成の質問 {qid}。</t2></pair>\n'
        )
    write(package / "test-for-task4" / "TestData_en.xml", _dataset(questions))
    write(package / "README.txt", f"{MARK}\n")
    japanese = OUT / "COLIEE2026statute_data-Japanese"
    write(japanese / "simple" / "simple_R06_jp.xml", _dataset(gold))
    write(japanese / "README.txt", f"{MARK}: the R06 gold only\n")


def _dataset(pairs: list[str]) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<!-- {MARK} -->\n<dataset>\n{"".join(pairs)}</dataset>\n'


def task1(rng: random.Random) -> None:
    ids = sorted(f"{rng.randrange(10**6):06d}" for _ in range(80))
    topic = {d: rng.randrange(len(TOPICS)) for d in ids}
    folder = OUT / "task1_test_files_2025"
    for d in ids:
        paragraphs = "".join(f"[{p}]\n{topic_text(rng, topic[d], 40)}\n" for p in range(1, 6))
        write(folder / f"{d}.txt", f"{MARK}\n{paragraphs}")
    queries = ids[:20]
    labels = {}
    for q in queries:
        same = [d for d in ids[20:] if topic[d] == topic[q]]
        labels[f"{q}.txt"] = [
            f"{d}.txt" for d in (rng.sample(same, min(len(same), 2)) or rng.sample(ids[20:], 1))
        ]
    write(OUT / "task1_test_labels_2025.json", json.dumps(labels, indent=1) + "\n")
    write(
        OUT / "task1_test_no_labels_2025.json", json.dumps({q: [] for q in labels}, indent=1) + "\n"
    )
    # as in the real pools (COLIEE-SPEC section 10): byte-identical cases under other ids, here twins of
    # three relevant cases, which the gold does not name (their own generator: the other files stay as they were)
    twins = random.Random(10)
    relevant = sorted({d for docs in labels.values() for d in docs})
    for i, original in enumerate(twins.sample(relevant, 3)):
        (folder / f"{900001 + i:06d}.txt").write_bytes((folder / original).read_bytes())


def task2(rng: random.Random) -> None:
    folder = OUT / "task2_test_files_2025"
    labels = {}
    for case in [str(n) for n in range(995, 1005)]:
        topics = rng.sample(range(len(TOPICS)), 6)
        n_par = 12
        entailing = rng.randrange(1, n_par + 1)
        for p in range(1, n_par + 1):
            write(
                folder / case / "paragraphs" / f"{p:03d}.txt",
                f" [{p}] {topic_text(rng, topics[p % 6], 30)}\n",
            )
        write(folder / case / "base_case.txt", f"{MARK}\n{topic_text(rng, topics[0], 60)}\n")
        write(
            folder / case / "entailed_fragment.txt",
            f"{topic_text(rng, topics[entailing % 6], 15)}\n",
        )
        labels[case] = f"{entailing:03d}.txt" if rng.random() < 0.5 else [f"{entailing:03d}.txt"]
    write(OUT / "task2_test_labels_2025.json", json.dumps(labels, indent=1) + "\n")


def pilot(rng: random.Random) -> None:
    torts = []
    for i in range(1, 21):
        topic = rng.randrange(len(TOPICS))
        torts.append(
            {
                "version": "sample",
                "tort_id": f"sample-{i:02d}",
                "undisputed_facts": [
                    {"id": f, "description": f"合成の事実 {i}-{f}（{MARK}）"} for f in range(1, 4)
                ],
                "plaintiff_claims": [
                    {
                        "id": c,
                        "description": f"原告の合成の主張 {c}: {topic_text(rng, topic, 8)}",
                        "is_accepted": rng.random() < 0.6,
                    }
                    for c in range(1, rng.randint(2, 4))
                ],
                "defendant_claims": [
                    {
                        "id": c,
                        "description": f"被告の合成の主張 {c}",
                        "is_accepted": rng.random() < 0.3,
                    }
                    for c in range(1, rng.randint(1, 3))
                ],
                "court_decision": rng.random() < 0.55,
            }
        )
    write(
        OUT / "COLIEE2025_pilot" / "pilot_test.jsonl",
        "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in torts),
    )


if __name__ == "__main__":
    shutil.rmtree(OUT, ignore_errors=True)
    rng = random.Random(2025)
    statute(rng)
    task1(rng)
    task2(rng)
    pilot(rng)
    write(OUT / "README.txt", f"{MARK}: a tiny release in the official layouts of COLIEE 2025.\n")
