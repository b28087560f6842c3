"""``ir_coliee demo``: the whole loop on the bundled synthetic sample release.

For each task it loads the 2025 test dataset through its ir_datasets id, runs a lexical baseline
(BM25 from the ``bm25s`` package; trivial rules where there is nothing to rank), writes an official
submission file, validates it and scores it as the organisers do.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, Optional

import ir_datasets

from ir_coliee.data.locator import data_root_at
from ir_coliee.errors import Finding
from ir_coliee.extras.baseline import task1_run, task2_run, task3_run
from ir_coliee.formats.pilot import ColieeClaim, ColieeTort, write_torts
from ir_coliee.model import EDITIONS, FormatName, edition_dataset, task_of
from ir_coliee.scoring.report import Report
from ir_coliee.scoring.score import score
from ir_coliee.scoring.validate import validate_run
from ir_coliee.table.runs import write_run

RELEASE = Path(__file__).resolve().parents[1] / "sample" / "release"
YEAR = 2025
TAG = "bm25demo"


@contextlib.contextmanager
def sample_release() -> Iterator[Path]:
    """Point the data root at the bundled synthetic release for the duration of the block."""
    with data_root_at(str(RELEASE)):
        yield RELEASE


def task4_run(dataset) -> dict[str, dict[str, float]]:
    """The majority answer of bar-exam questions, Y, for every question."""
    return {q.query_id: {"Y": 1.0} for q in dataset.queries_iter()}


def pilot_submission(dataset) -> list[ColieeTort]:
    """Tort found; the plaintiff's claims accepted, the defendant's not."""

    def answer(claims: Sequence[ColieeClaim], accepted: bool) -> tuple[ColieeClaim, ...]:
        return tuple(c._replace(is_accepted=accepted) for c in claims)

    return [
        t._replace(
            court_decision=True,
            plaintiff_claims=answer(t.plaintiff_claims, True),
            defendant_claims=answer(t.defendant_claims, False),
        )
        for t in dataset.torts_iter()
    ]


class Step(NamedTuple):
    """One task of the demo: the submission written, its validation and its official scores."""

    dataset_id: str
    baseline: str
    path: Path
    findings: list[Finding]
    report: Report


def _steps(out: Path) -> list[tuple[str, str, Callable[[], Path]]]:
    """(task, what the baseline does, writer of its file) of each demo step."""

    def load(task: str) -> object:
        return ir_datasets.load(edition_dataset(task, YEAR))

    def writer(
        task: str, name: str, make: Callable[[object], object], fmt: Optional[FormatName] = None
    ) -> Callable[[], Path]:
        """Write ``make`` of the task's dataset as ``{name}.{TAG}``, in the task's official format
        (or ``fmt``: Task 3's ``task3.*`` sets are pairs)."""
        chosen = fmt or task_of(task).formats[0]
        path = out / f"{name}.{TAG}"
        return lambda: Path(write_run(make(load(task)), path, format=chosen, tag=TAG))

    # R06.task4.bm25demo: the exam names the file
    answers_name = f"{EDITIONS[YEAR].statute_exam}.task4"
    return [
        ("1", "BM25, 5 cases per query", writer("1", "task1", task1_run)),
        ("2", "BM25, best paragraph of each case", writer("2", "task2", task2_run)),
        ("3", "BM25, best article", writer("3", "task3", lambda ds: task3_run(ds, 1), fmt="pairs")),
        # a task3-L file: 10 articles a question, within its limit of 100
        ("3", "BM25, ranked list of 10", writer("3", "task3-L", lambda ds: task3_run(ds, 10))),
        ("4", "always Y", writer("4", answers_name, task4_run)),
        (
            "pilot",
            "tort found, plaintiff's claims accepted",
            lambda: Path(write_torts(pilot_submission(load("pilot")), out / f"pilot.{TAG}.jsonl")),
        ),
    ]


def run_demo(out_dir: Optional[str] = None) -> Iterator[Step]:
    """Run every step on the sample release: write each submission, validate it, score it."""
    with contextlib.ExitStack() as stack:
        out = Path(out_dir) if out_dir else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        out.mkdir(parents=True, exist_ok=True)
        stack.enter_context(sample_release())
        for task, baseline, write in _steps(out):
            dataset_id = edition_dataset(task, YEAR)
            path = write()
            findings = validate_run(path, task, dataset=dataset_id)
            yield Step(dataset_id, baseline, path, findings, score(dataset_id, str(path)))
