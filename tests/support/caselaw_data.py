"""A synthetic case-law data root in the official layouts (COLIEE-SPEC sections 2-3); all text made up."""

from __future__ import annotations

import json
from pathlib import Path


def case_text(n: int, french: bool = False) -> str:
    body = (
        f"Summary: synthetic headnote of case {n}.\n"
        "[1]\nThe synthetic applicant appeals <FRAGMENT_SUPPRESSED> a synthetic decision.\n"
        "[2]\nSynthetic reasons, second paragraph.\n"
    )
    if french:
        body += "[3]\nMotifs synthétiques du jugement, en français.\n"
    return body


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


TASK1_TRAIN = ["000028", "000029", "000100", "000101", "000102"]
TASK1_TEST = ["000200", "000201", "000300", "000301"]


def write_task1_flat(root: Path, year: int = 2024, with_test_gold: bool = False) -> None:
    train = root / f"task1_train_files_{year}"
    for i, doc in enumerate(TASK1_TRAIN):
        write(train / f"{doc}.txt", case_text(i, french=doc == "000102"))
    write(train / ".DS_Store", "\x00")
    write(train / "notes.md", "not a case")
    labels = {
        "000028.txt": ["000100.txt", "000101.txt", "000100.txt"],
        "000029.txt": ["000102.txt"],
    }
    write(root / f"task1_train_labels_{year}.json", json.dumps(labels, indent=4))
    test = (
        root / f"task1_test_files_{year}" / f"task1_test_files_{year}"
    )  # a zip unpacked into a nested folder
    for i, doc in enumerate(TASK1_TEST):
        write(test / f"{doc}.txt", case_text(10 + i))
    write(
        root / f"task1_test_no_labels_{year}.json", json.dumps({"000200.txt": [], "000201.txt": []})
    )
    if with_test_gold:
        write(
            root / f"task1_test_labels_{year}.json",
            json.dumps({"000200.txt": ["000300.txt"], "000201": ["000301"]}),
        )


def write_task1_2021(root: Path) -> None:
    for i, doc in enumerate(["000001", "000002", "000003", "000004"]):
        write(root / "task1_files" / f"{doc}.txt", case_text(i))
    write(root / "task1_train_labels_2021.json", json.dumps({"000001.txt": ["000003.txt"]}))
    write(
        root / "task1_test_labels_2021.json",
        json.dumps({"000002.txt": ["000004.txt", "000003.txt"]}),
    )


def write_task1_2021_public_copy(root: Path) -> None:
    """2021 as every public copy holds it: bare label names, and a test list that is a JSON list."""
    for i, doc in enumerate(["000001", "000002", "000003", "000004"]):
        write(root / "task1_files" / f"{doc}.txt", case_text(i))
    write(root / "train_labels.json", json.dumps({"000001.txt": ["000003.txt", "000003.txt"]}))
    write(root / "test_no_labels.json", json.dumps(["000002.txt", "000004.txt"]))


def write_task1_2020(root: Path) -> None:
    folder = root / "task1_train_2020"
    for query in ("001", "002"):
        write(folder / query / "base_case.txt", f"Synthetic base case {query}.\n")
        for cand in ("001", "002", "003"):
            write(
                folder / query / "candidates" / f"{cand}.txt",
                f"Candidate {cand} of query {query}.\n",
            )
    write(
        root / "task1_train_2020_labels.json",
        json.dumps({"001": ["002.txt"], "002": ["001.txt", "003.txt"]}),
    )


def write_task2(root: Path, year: int = 2026) -> None:
    folder = root / f"task2_test_files_{year}"
    for case, n_par in (("999", 3), ("1000", 2)):
        write(folder / case / "base_case.txt", f"Synthetic base case of {case}.\n")
        write(folder / case / "entailed_fragment.txt", f"Synthetic decision fragment of {case}.\n")
        for p in range(1, n_par + 1):
            write(
                folder / case / "paragraphs" / f"{p:03d}.txt",
                f" [{p}] Synthetic paragraph {p} of case {case}.\n",
            )
        write(folder / case / "paragraphs" / ".DS_Store", "\x00")
    labels = {"999": ["002.txt"], "1000": "001.txt, 002.txt"}
    write(root / f"task2_test_labels_{year}.json", json.dumps(labels))


def index_2019(task: str, instances: dict[str, tuple[list[str], str]]) -> str:
    """A 2019 index: per instance its candidate (or paragraph) files and the gold ids ("013,045")."""
    parts = ["<?xml version='1.0' encoding='UTF-8'?>\n<dataset>\n"]
    for qid, (files, gold) in instances.items():
        if task == "1":
            cands = "".join(f"<candidate_case id='{f[:-4]}'>{f}</candidate_case>" for f in files)
            parts.append(
                f"<instance id='{qid}'><query>{qid}/base_case.txt</query><candidate_cases>{cands}</candidate_cases>"
                f"<cases_noticed>{gold}</cases_noticed></instance>\n"
            )
        else:
            pars = "".join(f"<paragraph id='{f[:-4]}'>{f}</paragraph>" for f in files)
            parts.append(
                f"<instance id='{qid}'><query><base_case>{qid}/base_case.txt</base_case>"
                f"<entailed_fragment>{qid}/entailed_fragment.txt</entailed_fragment></query>"
                f"<noticed_case>{pars}</noticed_case><entailing_paragraphs>{gold}</entailing_paragraphs></instance>\n"
            )
    return "".join(parts) + "</dataset>\n"


def write_2019(root: Path) -> None:
    for split in ("train", "test"):
        folder = root / f"COLIEE2019_task1_{split}"
        for qid in ("001", "002"):
            write(folder / qid / "base_case.txt", f"Synthetic 2019 {split} base case {qid}.\n")
            for cand in ("001", "002", "003"):
                write(
                    folder / qid / "candidates" / f"{cand}.txt",
                    f"2019 {split} candidate {cand} of {qid}.\n",
                )
        gold = {"001": "002,003", "002": "001"} if split == "train" else {"001": "", "002": ""}
        write(
            folder / "task1.xml",
            index_2019("1", {q: (["001.txt", "002.txt", "003.txt"], g) for q, g in gold.items()}),
        )
    golden = index_2019("1", {"001": (["001.txt"], "003"), "002": (["001.txt"], "002, 002")})
    write(root / "COLIEE2019_task1_test" / "task1_test_golden-labels.xml", golden)
    folder = root / "COLIEE2019_task2_train"
    for qid in ("001", "002"):
        write(folder / qid / "base_case.txt", f"2019 base case {qid}.\n")
        write(folder / qid / "entailed_fragment.txt", f"2019 fragment {qid}.\n")
        for p in ("001", "002"):
            write(
                folder / qid / "paragraphs" / f"{p}.txt",
                f" [{int(p)}] 2019 paragraph {p} of {qid}.\n",
            )
    write(
        folder / "task2.xml",
        index_2019("2", {"001": (["001.txt", "002.txt"], "002"), "002": (["001.txt"], "001,002")}),
    )


TASK1_2026_TRAIN = ["000028", "000029", "000100", "000101"]


def write_task1_2026_train(root: Path) -> None:
    """The 2026 Task 1 training release as shipped (COLIEE-SPEC section 2): the labels, named with the
    ``clean_`` prefix, inside the split's folder, and the case files one level down in ``cases/``; the
    labels indented by 2, without a final newline, a list not sorted."""
    folder = root / "task1_train_files_2026"
    for i, doc in enumerate(TASK1_2026_TRAIN):
        write(folder / "cases" / f"{doc}.txt", case_text(20 + i))
    labels = {"000028.txt": ["000101.txt", "000100.txt"], "000029.txt": ["000100.txt"]}
    write(folder / "clean_task1_train_labels_2026.json", json.dumps(labels, indent=2))


def write_task2_2026_train(root: Path) -> None:
    """The 2026 Task 2 training release: 2025's train and test cases together, the labels mixing both
    shapes in one file (lists for the train cases, ", "-joined strings for the test ones)."""
    folder = root / "task2_train_files_2026"
    for case, n_par in (("825", 2), ("826", 3)):
        write(folder / case / "base_case.txt", f"Synthetic base case of {case}.\n")
        write(folder / case / "entailed_fragment.txt", f"Synthetic decision fragment of {case}.\n")
        for p in range(1, n_par + 1):
            write(
                folder / case / "paragraphs" / f"{p:03d}.txt",
                f" [{p}] Synthetic paragraph {p} of case {case}.\n",
            )
    labels = {"825": ["002.txt"], "826": "001.txt, 003.txt"}
    write(root / "task2_train_labels_2026.json", json.dumps(labels))
