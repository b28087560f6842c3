"""A season as the organisers receive it, on the bundled sample release: each team's submission files in
its own folder under their official names, with a README and a log beside them (which a walk skips), and
readers of the results page's tables (from the HTML, or as a browser reports them from the DOM)."""

from __future__ import annotations

import html.parser
from pathlib import Path

import ir_datasets

from ir_coliee.model import EDITIONS, edition_dataset, task_of
from ir_coliee.table.runs import write_run

YEAR = 2025
#: Teams per task; Task 4 has more runs than a ten-colour palette holds.
TEAMS = {"1": 3, "3": 3, "4": 12}


def _gold(dataset_id: str) -> dict[str, dict[str, int]]:
    gold: dict[str, dict[str, int]] = {}
    for q in ir_datasets.load(dataset_id).qrels_iter():
        gold.setdefault(q.query_id, {})[q.doc_id] = q.relevance
    return gold


def _run(task: str, gold: dict[str, dict[str, int]], team: int) -> dict[str, dict[str, float]]:
    """Team ``team``'s run: the gold with every (team + 2)-th question wrong (answers flipped, an article
    or case swapped for a wrong one), and for a retrieval task a wrong item added to every third question."""
    run = {}
    for i, (q, docs) in enumerate(sorted(gold.items())):
        wrong = i % (team + 2) == 0
        if task == "4":
            answer = next(iter(docs))
            run[q] = {({"Y": "N", "N": "Y"}[answer] if wrong else answer): 1.0}
        else:
            items = {"999999" if wrong and j == 0 else d: 1.0 / (j + 1) for j, d in enumerate(docs)}
            run[q] = {**items, **({"888888": 0.01} if i % 3 == team % 3 else {})}
    return run


def write_season(root: Path, task: str) -> tuple[str, Path]:
    """The sample release's 2025 test set of ``task`` (its dataset id) and a season folder of its runs."""
    dataset_id = edition_dataset(task, YEAR)
    gold = _gold(dataset_id)
    season = root / f"season{task}"
    season.mkdir(parents=True)
    (season / "README.md").write_text("# Submissions\nOne folder per team.\n")
    for team in range(TEAMS[task]):
        folder = season / f"team{team:02d}"
        folder.mkdir()
        tag = f"team{team:02d}run"
        name = {"1": f"task1.{tag}", "3": f"task3.{tag}"}.get(
            task, f"{EDITIONS[YEAR].statute_exam}.task4.{tag}"
        )
        write_run(_run(task, gold, team), folder / name, format=task_of(task).formats[0], tag=tag)
        (folder / "submission.log").write_text(f"uploaded {name}\n")
    return dataset_id, season


class _Tables(html.parser.HTMLParser):
    """Each table of the page by its ``data-table`` name: its rows as ``{column: cell}``."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[dict[str, object]]] = {}
        self.cell: dict[str, str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.current = self.tables.setdefault(a["data-table"], [])
        elif tag == "tr" and getattr(self, "current", None) is not None:
            self.row: dict[str, object] = {}
        elif tag == "td":
            self.cell = {"col": a["data-col"], "value": a.get("data-value"), "text": ""}

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row[self.cell["col"]] = cell(self.cell["value"], self.cell["text"])
            self.cell = None
        elif tag == "tr" and getattr(self, "row", None):
            self.current.append(self.row)
            self.row = {}
        elif tag == "table":
            self.current = None


def cell(value: str | None, text: str) -> object:
    """A number as its exact ``data-value``, text as shown."""
    return text if value is None else float(value)


def page_tables(text: str) -> dict[str, list[dict[str, object]]]:
    parser = _Tables()
    parser.feed(text)
    return parser.tables


#: The same tables as a browser reads them from the DOM (run by the page under test, not part of it).
DOM_TABLES = """() => Object.fromEntries(
  [...document.querySelectorAll('table[data-table]')].map(t => [
    t.dataset.table,
    [...t.tBodies[0].rows].map(r => Object.fromEntries(
      [...r.cells].map(c => [c.dataset.col, [c.dataset.value ?? null, c.textContent]])
    )),
  ])
)"""


def dom_tables(raw: dict) -> dict[str, list[dict[str, object]]]:
    return {
        name: [{col: cell(v, t) for col, (v, t) in row.items()} for row in rows]
        for name, rows in raw.items()
    }


def write_sample_runs(root: Path) -> tuple[str, list[Path]]:
    """The sample release's Task 3 test set and BM25 runs of its 1, 2 and 5 best articles (what the docs'
    screenshot shows)."""
    from ir_coliee.extras.baseline import task3_run

    dataset_id = edition_dataset("3", YEAR)
    dataset = ir_datasets.load(dataset_id)
    return dataset_id, [
        Path(
            write_run(task3_run(dataset, k), root / f"task3.bm25top{k}", "trec", tag=f"bm25top{k}")
        )
        for k in (1, 2, 5)
    ]
