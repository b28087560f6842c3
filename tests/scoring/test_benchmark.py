"""Systems across benchmarks: every value equals scoring the benchmark alone, every raw p-value equals its
valid test computed alone, one correction over the grid, summaries that never average measures, one
document per output format, and the command on a manifest and on folders."""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction

import pytest
from support.caselaw_data import write_task1_flat
from support.cli import run_cli
from support.statute_data import write_package

import ir_coliee
from ir_coliee.errors import ColieeError
from ir_coliee.measures.significance import PerQuery, Stat, correct, stratified_wins
from ir_coliee.scoring.benchmark import TIDY_HEADER, benchmark
from ir_coliee.scoring.gold import load_gold
from ir_coliee.scoring.score import score

TASK1 = [f"coliee/task1/{y}/test" for y in (2022, 2023, 2024, 2025)]
TASK3 = [f"coliee/task3/{y}/test" for y in (2021, 2022, 2023, 2024)]
OTHER_QRELS = "q1 0 d1 1\nq1 0 d2 1\nq2 0 d3 1\nq3 0 d1 1\n"
#: the non-COLIEE benchmark: P@1 of A is 2/3 (q1, q2 right), of B 1/3 (q3 right)
OTHER = {
    "A": {"q1": {"d1": 3.0, "d5": 2.0}, "q2": {"d3": 1.0}, "q3": {"d2": 1.0}},
    "B": {"q1": {"d9": 3.0, "d1": 2.0}, "q2": {"d4": 1.0}, "q3": {"d1": 1.0}},
}


@pytest.fixture
def grid(coliee_home, tmp_path):
    """Two systems over Task 1 2022-2025, Task 3 2021-2024 (gold from the 2025 package) and a TREC benchmark."""
    for year in (2022, 2023, 2024, 2025):
        write_task1_flat(coliee_home, year, with_test_gold=True)
    write_package(coliee_home, 2025, "R06", None)
    other = tmp_path / "other.qrels"
    other.write_text(OTHER_QRELS)
    runs: dict[str, dict[str, object]] = {}
    for b in TASK1:
        runs[b] = {
            "A": {"000200": {"000300": 2.0, "000301": 1.0}, "000201": {"000301": 1.0}},
            "B": {"000200": {"000301": 1.0}, "000201": {"000300": 1.0}},
        }
    for b in TASK3:
        gold = load_gold(b).tables["documents"]
        runs[b] = {
            "A": {q: {a: 1.0 for a in articles} for q, articles in gold.items()},
            "B": {q: {_wrong_article(gold, q): 1.0} for q in gold},
        }
    runs[str(other)] = OTHER
    return runs, str(other)


def _wrong_article(gold: dict[str, dict[str, int]], question: str) -> str:
    """An article of the benchmark's gold (its id convention) that is not ``question``'s, else a new one."""
    others = sorted({a for articles in gold.values() for a in articles} - set(gold[question]))
    return others[0] if others else "9" * len(next(iter(gold[question])))


def test_every_value_and_raw_p_value_equals_the_benchmark_scored_alone(grid):
    runs, other = grid
    measures = {other: ["P@1", "R@2"]}
    result = benchmark(runs, measures=measures, resamples=200, seed=3)
    assert [b.name for b in result.scored] == [*TASK1, *TASK3, other]
    assert result.cells[:3] == [(TASK1[0], "MicroP"), (TASK1[0], "MicroR"), (TASK1[0], "MicroF1")]
    assert (TASK3[0], "MacroF2") in result.cells and (other, "P@1") in result.cells
    raw = []
    for b in result.scored:
        alone = score(b.name, runs[b.name], measures=measures.get(b.name))
        for row in alone.rows:
            for m in alone.measures:
                assert result.value((b.name, m), row["run"]) == row[m], (b.name, m)
        tested = ir_coliee.compare(
            alone_gold(b.name), runs[b.name], alone.measures, resamples=200, correction="none", seed=3
        )
        for m in alone.measures:
            p = tested.loc["B", f"{m} p-value"]
            assert b.p_values[m]["B"] == p
            raw.append(p)
    # one Holm correction over every cell of the grid, none per benchmark
    assert [result.p_value(cell, "B") for cell in result.cells] == correct(raw, "holm")
    assert math.isnan(result.p_value(result.cells[0], "A"))
    # Task 1: A finds both gold cases of three retrieved: MicroP 2/3, MicroR 2/2; B none
    assert result.value((TASK1[0], "MicroP"), "A") == pytest.approx(float(Fraction(2, 3)))
    assert result.value((TASK1[0], "MicroF1"), "B") == 0.0
    assert result.value((other, "P@1"), "A") == pytest.approx(2 / 3)


def alone_gold(benchmark_id: str) -> object:
    gold = load_gold(benchmark_id)
    return next(iter(gold.tables.values()))


def test_frames_summary_and_findings(grid):
    runs, other = grid
    result = ir_coliee.benchmark(runs, measures={other: ["P@1"]}, resamples=200)
    table, pvalues = result.table, result.pvalues
    assert list(table.index) == ["A", "B"] and table.columns.names == ["benchmark", "measure"]
    assert table.loc["A", (TASK1[0], "MicroF1")] == pytest.approx(0.8)  # P 2/3, R 1: F1 = 4/5
    assert pvalues.shape == table.shape and pvalues.loc["A"].isna().all()
    assert repr(result) == f"BenchmarkResult(benchmarks={[*TASK1, *TASK3, other]}, systems=['A', 'B'])"
    assert result.summary_rows() is result.summary_rows()  # the stratified test runs once
    (summary,) = result.summary_rows()
    # B loses or ties each of the 9 benchmarks on its headline; A wins every benchmark but none by chance
    assert summary["wins"] == 0 and summary["wins"] + summary["ties"] + summary["losses"] == 9
    assert summary["benchmarks won"] == 0.0
    assert 0 < summary["stratified p-value"] < 0.05
    # the statute test sets are served from the 2025 package's labelled copies: said, per cell
    assert any(f.rule == "other-edition" and f.path == TASK3[0] for f in result.findings)
    assert not any(f.rule == "guess" for f in result.findings)  # the TREC benchmark is not called a COLIEE task


def test_every_output_format_is_one_parseable_document(grid):
    runs, other = grid
    result = benchmark(runs, measures={other: ["P@1"]}, resamples=100)
    out = {}
    for style in ("tsv", "csv", "json", "markdown", "latex"):
        buffer = io.StringIO()
        result.write(buffer, style)
        out[style] = buffer.getvalue()
    rows = list(csv.reader(io.StringIO(out["csv"])))
    assert rows[0] == TIDY_HEADER and len(rows) == 1 + 2 * len(result.cells)
    assert rows == [line.split("\t") for line in out["tsv"].splitlines()]
    doc = json.loads(out["json"])
    cell = next(c for c in doc["cells"] if c["system"] == "A" and c["measure"] == "P@1")
    assert cell["value"] == pytest.approx(2 / 3) and cell["p-value"] is None and cell["test"] == "baseline"
    assert doc["summary"][0]["system"] == "B"
    markdown = out["markdown"].splitlines()
    assert len(markdown) == 6 and markdown[0].count("|") == len(result.cells) + 6
    assert (
        markdown[5]
        == f"* p < 0.05 against A (holm correction over {len(result.cells)} tests; W/T/L on each benchmark's ranking measure)"
    )
    assert markdown[3].startswith("| B | 0.0000* |") or markdown[3].startswith("| B | 0.0000 |")
    assert out["latex"].startswith("\\begin{tabular}") and "\\end{tabular}\n% * p < 0.05" in out["latex"]
    assert result.pvalues.attrs["correction"] == "holm"


def test_refusals_name_what_is_missing(grid):
    _, other = grid
    # a gold file without measures and without a task in its name is not guessed to be a COLIEE task
    with pytest.raises(ColieeError, match=r"names no COLIEE task .*give its measures, measures=\{.*--measure "):
        benchmark({other: OTHER}, resamples=10)
    with pytest.raises(ColieeError, match="baseline 'C' has no run"):
        benchmark({other: OTHER}, measures=["P@1"], baseline="C")
    with pytest.raises(ColieeError, match="neither a file, a COLIEE dataset id nor an ir_datasets id"):
        benchmark({"no/such/benchmark": OTHER}, measures=["P@1"])


def _stratum(a: list[tuple[int, int, int]], b: list[tuple[int, int, int]]) -> tuple[Stat, PerQuery, PerQuery]:
    import numpy as np

    from ir_coliee.measures import MicroF1
    from ir_coliee.measures.pipeline import formula_of

    def data(counts: list[tuple[int, int, int]]) -> PerQuery:
        return PerQuery(np.zeros(len(counts)), np.array(counts, dtype=np.int64))

    return Stat(formula_of(MicroF1)), data(a), data(b)


def test_stratified_wins_counts_benchmarks_and_never_adds_measures():
    better = [(1, 1, 1)] * 10  # every query right
    worse = [(0, 1, 1)] * 10  # every query wrong
    # A wins all 5 benchmarks. Under the null each query of a benchmark is swapped with chance 1/2: A still
    # wins a benchmark when fewer than 5 of its 10 queries are swapped, (1 - C(10,5)/2^10) / 2 = 386/1024,
    # loses it as often, ties otherwise; the two-sided p is P(5 wins) + P(0 wins) = 2 (386/1024)^5
    wins, p = stratified_wins([_stratum(better, worse)] * 5, 20_000, seed=0)
    assert wins == 5.0
    assert p == pytest.approx(2 * (386 / 1024) ** 5, abs=0.004)
    # identical systems tie everywhere (a tie counts one half): 1 of 2 and p = 1
    wins, p = stratified_wins([_stratum(better, better), _stratum(worse, worse)], 500, seed=0)
    assert wins == 1.0 and p == 1.0


def test_the_command_reads_a_manifest_and_folders_and_prints_the_api_values(grid, tmp_path, capsys):
    """The paper's grid as one command: Task 3 2021-2024 and the TREC benchmark from a manifest, Task 1
    2022-2025 from folders named by the dataset ids; every cell as the API computes it."""
    runs, other = grid
    from ir_coliee.table.runs import write_run

    lines = ["# benchmark system run"]
    for number, benchmark_id in enumerate([*TASK3, other]):
        for system, run in runs[benchmark_id].items():
            fmt = "trec" if benchmark_id == other else "pairs"
            path = write_run(run, tmp_path / f"{number}.{system}", format=fmt, tag=system)
            lines.append(f"{benchmark_id}\t{system}\t{path}")
    manifest = tmp_path / "runs.tsv"
    manifest.write_text("\n".join(lines) + "\n")
    for benchmark_id in TASK1:
        folder = tmp_path / "runs" / benchmark_id
        folder.mkdir(parents=True)
        for system, run in runs[benchmark_id].items():
            write_run(run, folder / f"task1.{system}", format="pairs", tag=f"TEAM{system}")
    argv = ["benchmark", tmp_path / "runs", manifest, "--measure", f"{other}=P@1", "--resamples", "100"]
    _, out, _ = run_cli(capsys, *argv, "--format", "json")
    doc = json.loads(out)
    api = benchmark(runs, measures={other: ["P@1"]}, resamples=100)
    expected = {(c[0], c[1], c[2]): c for c in api.tidy_rows()}
    assert len(doc["cells"]) == len(expected) == 2 * (4 * 3 + 4 * 3 + 1)
    for cell in doc["cells"]:
        value, p = expected[(cell["system"], cell["benchmark"], cell["measure"])][3:5]
        assert cell["value"] == pytest.approx(value)
        assert (cell["p-value"] is None and math.isnan(p)) or cell["p-value"] == pytest.approx(p)
    _, markdown, _ = run_cli(capsys, *argv, "--format", "markdown")
    # B finds nothing on Task 1 2022; with two queries a benchmark no cell survives Holm over 50 cells
    assert markdown.splitlines()[3].startswith("| B | 0.0000 |") and "| 0/9/0 | 0 |" in markdown
    bad = tmp_path / "bad.tsv"
    bad.write_text(f"{other} A\n")
    _, _, err = run_cli(capsys, "benchmark", str(bad), expect=2)
    assert "bad.tsv:1" in err and "BENCHMARK SYSTEM PATH" in err


def test_another_ir_datasets_entry_is_scored_with_its_official_measures(grid):
    """An ir_datasets id that is not COLIEE's: its qrels, and the measures its documentation names."""
    import ir_datasets
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import BaseQrels, TrecQrel

    class Qrels(BaseQrels):
        def qrels_iter(self):
            for line in OTHER_QRELS.splitlines():
                q, _, d, r = line.split()
                yield TrecQrel(q, d, int(r), "0")

        def qrels_cls(self):
            return TrecQrel

    class Doc:
        def documentation(self):
            return {"official_measures": ["P@1"]}

    if "ir-coliee-test/other" not in ir_datasets.registry:
        ir_datasets.registry.register("ir-coliee-test/other", Dataset(Qrels(), Doc()))
    result = benchmark({"ir-coliee-test/other": OTHER}, resamples=50)
    assert result.cells == [("ir-coliee-test/other", "P@1")]
    assert result.value(result.cells[0], "A") == pytest.approx(2 / 3)
    assert result.value(result.cells[0], "B") == pytest.approx(1 / 3)
    assert result.findings == []  # no claim of a COLIEE task


def test_folders_named_by_dataset_ids_per_exam_subsets_too(tmp_path):
    from ir_coliee.scoring.manifest import runs_in_folder

    for folder, name in (("coliee/task3/2024/train/h30", "task3.A"), ("coliee/task1/2025/test", "task1.A.txt")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / name).write_text("x\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "task1.B").write_text("x\n")  # not a dataset id: not a benchmark
    found, findings = runs_in_folder(tmp_path)
    assert list(found) == ["coliee/task1/2025/test", "coliee/task3/2024/train/h30"]
    assert [list(systems) for systems in found.values()] == [["A"], ["A"]]
    assert findings == []
