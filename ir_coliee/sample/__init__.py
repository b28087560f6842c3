"""The synthetic sample release (made by ``scripts/make_sample.py``; ids and runs only, no COLIEE data)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent

#: (task, edition, title, gold file, run file) of each bundled sample run
SAMPLE_RUNS: list[tuple[str, Optional[int], str, Path, Path]] = [
    ("1", 2024, "Task 1, case law retrieval", HERE / "task1_test_labels_sample.json", HERE / "task1.sampleRun1.txt"),
    ("2", 2024, "Task 2, case law entailment", HERE / "task2_test_labels_sample.json", HERE / "task2.sampleRun1.txt"),
    ("3", 2024, "Task 3, statute law retrieval", HERE / "task3_gold_sample.qrels", HERE / "task3.sampleRun1"),
    ("3", 2024, "Task 3, ranked list (task3-L)", HERE / "task3_gold_sample.qrels", HERE / "task3-L.sampleRun1"),
    ("4", 2024, "Task 4, statute law entailment", HERE / "task4_gold_sample.txt", HERE / "R05.task4.sampleRun1"),
    ("pilot", 2025, "Pilot, Japanese tort cases", HERE / "pilot_gold_sample.jsonl", HERE / "pilot.sampleRun1.jsonl"),
]
