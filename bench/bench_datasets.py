"""Dataset parsing speed on synthetic data of the real sizes. Prints a table.

    python bench/bench_datasets.py

Statute: a Civil Code of 1,100 articles and the 19 training exam files of a package (about
100 questions each), parsed through ir_datasets (``coliee/task3/2024/train``), against reading
the same files with plain Python (bytes + ElementTree), the floor any parser pays.

Case law: a Task 1 pool of 7,000 case files of 40 KB (``coliee/task1/2024/train``), extracted and
zipped: first iteration and ``docs_store()`` lookups, against reading the files with plain Python.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from statute_data import pair, riteval

WORDS = (
    "synthetic legal text about a person who owns a thing and a contract with another party".split()
)


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def write_statute(root: Path, rng: random.Random) -> None:
    from ir_coliee.data.statute_files import train_exams

    package = root / "COLIEE2024statute_data-English"
    (package / "train").mkdir(parents=True)
    (package / "text").mkdir()
    lines = ["\ufeffSynthetic Civil Code"]
    for number in range(1, 1101):
        if number % 100 == 1:
            lines.append(f"Part {number // 100 + 1} Synthetic Part")
        if number % 20 == 1:
            lines.append(f"Chapter {number // 20 + 1} Synthetic Chapter")
        lines.append(f"({sentence(rng, 3)[:-1]})")
        lines.append(f"Article {number}  (1) {sentence(rng, 25)}")
        lines.extend(f"({p}) {sentence(rng, 20)}" for p in range(2, rng.randint(2, 5)))
    (package / "text" / "civil_code_en-1to724-2.txt").write_text("\n".join(lines) + "\n")
    for exam in train_exams(2024):
        pairs = []
        for i in range(100):
            articles = rng.sample(range(1, 1101), rng.randint(1, 3))
            t1 = "\n".join(f"Article {a}  {sentence(rng, 30)}" for a in articles)
            pairs.append(
                pair(
                    f"{exam}-{i // 5 + 1}-{'AIUEO'[i % 5]}", sentence(rng, 30), t1, rng.choice("YN")
                )
            )
        (package / "train" / f"riteval_{exam}_en.xml").write_text(riteval("".join(pairs)))


def plain_python(root: Path) -> int:
    n = 0
    for path in sorted(root.rglob("*")):
        if path.suffix == ".xml":
            n += len(ET.fromstring(path.read_bytes()).findall("pair"))
        elif path.suffix == ".txt":
            n += path.read_bytes().decode("utf-8").count("\nArticle ")
    return n


def timed(fn: Callable[[], object], repeat: int = 5) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def write_task1(root: Path, rng: random.Random, n: int = 7000) -> list[str]:
    folder = root / "task1_train_files_2024"
    folder.mkdir(parents=True)
    ids = [f"{i:06d}" for i in rng.sample(range(10**6), n)]
    paragraph = " ".join(rng.choice(WORDS) for _ in range(600))
    for doc in ids:
        text = "".join(f"[{p}]\n{paragraph}\n" for p in range(1, 11))
        (folder / f"{doc}.txt").write_text(text)
    labels = {f"{q}.txt": [f"{d}.txt" for d in rng.sample(ids, 3)] for q in ids[:1000]}
    (root / "task1_train_labels_2024.json").write_text(json.dumps(labels))
    return ids


def bench_task1(rows: list[tuple[str, float, str]]) -> float:
    import ir_datasets

    from ir_coliee.data.locator import refresh

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ids = write_task1(root, random.Random(1))
        os.environ["COLIEE_HOME"] = tmp
        folder = root / "task1_train_files_2024"

        def plain() -> int:
            return sum(len(p.read_bytes().decode("utf-8")) for p in sorted(folder.iterdir()))

        def ours() -> int:
            refresh()
            return sum(len(d.text) for d in ir_datasets.load("coliee/task1/2024/train").docs_iter())

        t_plain, _ = timed(plain, repeat=3)
        t_ours, _ = timed(ours, repeat=3)
        rows.append(("task1 7,000 files: plain Python read", t_plain, "bytes + UTF-8 decode"))
        rows.append(
            (
                "task1 7,000 files: ir_coliee docs_iter",
                t_ours,
                f"{t_ours / t_plain:.2f}x plain Python",
            )
        )
        sample = random.Random(2).sample(ids, 1000)
        store = ir_datasets.load("coliee/task1/2024/train").docs_store()
        t_first, _ = timed(lambda: store.get(sample[0]), repeat=1)
        t_hot, _ = timed(lambda: [store.get(d) for d in sample], repeat=3)
        rows.append(("task1 docs_store(): first lookup", t_first, "lists the folder once"))
        rows.append(
            ("task1 docs_store(): 1,000 lookups", t_hot, f"{t_hot / 1000 * 1e3:.3f} ms each")
        )
        shutil.make_archive(
            str(root / "task1_train_files_2024"), "zip", root, "task1_train_files_2024"
        )
        shutil.rmtree(folder)
        refresh()
        t_zip, _ = timed(ours, repeat=3)
        store = ir_datasets.load("coliee/task1/2024/train").docs_store()
        store.get(sample[0])
        t_zip_hot, _ = timed(lambda: [store.get(d) for d in sample], repeat=3)
        rows.append(
            ("task1 zipped: docs_iter", t_zip, f"{t_zip / t_plain:.2f}x plain Python (extracted)")
        )
        rows.append(
            ("task1 zipped: 1,000 lookups", t_zip_hot, f"{t_zip_hot / 1000 * 1e3:.3f} ms each")
        )
    return t_ours / t_plain


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_statute(root, random.Random(0))
        os.environ["COLIEE_HOME"] = tmp
        import ir_datasets

        from ir_coliee.data import statute_files
        from ir_coliee.data.locator import refresh

        def ours() -> tuple[int, int, int]:
            refresh()
            statute_files._PARSED.clear()
            ds = ir_datasets.load("coliee/task3/2024/train")
            return (
                len(list(ds.docs_iter())),
                len(list(ds.queries_iter())),
                len(list(ds.qrels_iter())),
            )

        rows: list[tuple[str, float, str]] = []
        t_ours, counts = timed(ours)
        t_plain, _ = timed(lambda: plain_python(root))
        rows.append(
            (
                "ir_coliee: docs + queries + qrels",
                t_ours,
                "{} articles, {} questions, {} qrels".format(*counts),
            )
        )
        rows.append(("plain Python: read + XML parse", t_plain, "no article or gold parsing"))
        t_lookup, _ = timed(
            lambda: ir_datasets.load("coliee/task3/2024/train").docs_store().get("724"), repeat=3
        )
        store = ir_datasets.load("coliee/task3/2024/train").docs_store()
        store.get("1")
        t_hot, _ = timed(lambda: [store.get(str(i)) for i in range(1, 1001)], repeat=3)
        rows.append(("docs_store(): first lookup (builds)", t_lookup, "in memory"))
        rows.append(
            ("docs_store(): 1,000 lookups after", t_hot, f"{t_hot / 1000 * 1e6:.1f} µs each")
        )

    statute_ratio = t_ours / t_plain
    task1_ratio = bench_task1(rows)
    print(
        "statute package: Civil Code + 19 training exams (best of 5); Task 1 pool of 7,000 cases (best of 3)"
    )
    print(f"{'what':<42} {'seconds':>8}  note")
    for name, t, note in rows:
        print(f"{name:<42} {t:>8.3f}  {note}")
    print(f"ratio ir_coliee / plain Python: statute {statute_ratio:.2f}, task1 {task1_ratio:.2f}")


if __name__ == "__main__":
    main()
