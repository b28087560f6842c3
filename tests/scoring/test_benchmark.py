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
from support.cases import dataset_columns
from support.cli import run_cli
from support.statute_data import write_package

import ir_coliee
from ir_coliee.errors import ColieeError
from ir_coliee.inputs.gold import load_gold
from ir_coliee.measures.significance import PerQuery, Stat, correct, stratified_wins
from ir_coliee.outputs.names import short_name
from ir_coliee.scoring.benchmark import TIDY_HEADER, BenchmarkResult, Scored, benchmark
from ir_coliee.scoring.score import score

TASK1 = [f"coliee/task1/{y}/test" for y in (2022, 2023, 2024, 2025)]
TASK3 = [f"coliee/task3/{y}/test" for y in (2021, 2022, 2023, 2024)]
#: The cells of one system on the grid: each COLIEE benchmark's default measures, and P@1 of the other.
CELLS = sum(len(dataset_columns(b)) for b in [*TASK1, *TASK3]) + 1
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
    result = benchmark(runs, measures=measures, resamples=200, seed=3, family="all")
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
            alone_gold(b.name),
            runs[b.name],
            alone.measures,
            resamples=200,
            correction="none",
            seed=3,
        )
        for m in alone.measures:
            p = tested.loc["B", f"{m} p-value"]
            assert b.p_values[m]["B"] == p
            raw.append(p)
    # family="all": one Holm correction over every cell of the grid, none per benchmark
    assert [result.p_value(cell, "B") for cell in result.cells] == correct(raw, "holm")
    assert math.isnan(result.p_value(result.cells[0], "A"))
    # the default family: the headline cell of each benchmark only, corrected together; the others untested
    headline = BenchmarkResult(result.scored, ["A", "B"], "A", "holm", 200, 3)
    heads = [(b.name, b.headline) for b in result.scored]
    assert [headline.p_value(cell, "B") for cell in heads] == correct(
        [result.scored[i].p_values[m]["B"] for i, (_, m) in enumerate(heads)], "holm"
    )
    assert all(
        math.isnan(headline.p_value(cell, "B")) for cell in result.cells if cell not in heads
    )
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
    assert (
        repr(result) == f"BenchmarkResult(benchmarks={[*TASK1, *TASK3, other]}, systems=['A', 'B'])"
    )
    assert result.summary_rows() is result.summary_rows()  # the stratified test runs once
    (summary,) = result.summary_rows()
    # B loses or ties each of the 9 benchmarks on its headline; A wins every benchmark but none by chance
    assert summary["wins"] == 0 and summary["wins"] + summary["ties"] + summary["losses"] == 9
    assert summary["benchmarks won"] == 0.0
    assert 0 < summary["stratified p-value"] < 0.05
    # the statute test sets are served from the 2025 package's labelled copies: said, per cell
    assert any(f.rule == "other-edition" and f.path == TASK3[0] for f in result.findings)
    assert not any(
        f.rule == "guess" for f in result.findings
    )  # the TREC benchmark is not called a COLIEE task


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
    assert (
        cell["value"] == pytest.approx(2 / 3)
        and cell["p-value"] is None
        and cell["test"] == "baseline"
    )
    assert doc["summary"][0]["system"] == "B"
    markdown = out["markdown"].splitlines()
    # two header rows (benchmark over measure), the rule, a row per system, the note
    assert len(markdown) == 7 and markdown[2].count("|") == markdown[0].count("|")
    first = dataset_columns(TASK1[0])  # T1 2022: its measures and its rank
    assert markdown[0].startswith("|  | T1 2022 |" + "  |" * len(first) + " T1 2023‡ |")
    assert "| other |" in markdown[0]
    assert markdown[2].startswith("|  | " + " | ".join(first) + " | rank |")
    # the headline family of the default: one test per benchmark, 9 in all
    assert markdown[6].startswith(
        "†: p &lt; 0.05 against A, the paired test valid for each measure, holm correction"
    )
    assert "over the headline measure of each benchmark (9 tests)" in markdown[6]
    assert markdown[4].startswith("| B |" + " 0.0000 |" * len(first) + " 2 |")  # finds nothing
    assert out["latex"].startswith("\\begin{table}")
    assert f"\\multicolumn{{{len(first) + 1}}}{{c}}{{T1 2022}}" in out["latex"]
    assert doc["family"] == "headline" and [b["official table"] for b in doc["benchmarks"][:4]] == [
        None,
        "partial",
        "complete",
        "partial",
    ]
    assert result.pvalues.attrs["correction"] == "holm"


def test_refusals_name_what_is_missing(grid):
    _, other = grid
    # a gold file without measures and without a task in its name is not guessed to be a COLIEE task
    with pytest.raises(
        ColieeError, match=r"names no COLIEE task .*give its measures, measures=\{.*--measure "
    ):
        benchmark({other: OTHER}, resamples=10)
    with pytest.raises(ColieeError, match="baseline 'C' has no run"):
        benchmark({other: OTHER}, measures=["P@1"], baseline="C")
    with pytest.raises(
        ColieeError, match="neither a file, a COLIEE dataset id nor an ir_datasets id"
    ):
        benchmark({"no/such/benchmark": OTHER}, measures=["P@1"])


def _stratum(
    a: list[tuple[int, int, int]], b: list[tuple[int, int, int]]
) -> tuple[Stat, PerQuery, PerQuery]:
    import numpy as np

    from ir_coliee.measures import MicroF1
    from ir_coliee.measures.provider import formula_of

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
    argv = [
        "benchmark",
        tmp_path / "runs",
        manifest,
        "--measure",
        f"{other}=P@1",
        "--resamples",
        "100",
    ]
    _, out, _ = run_cli(capsys, *argv, "--format", "json")
    doc = json.loads(out)
    api = benchmark(runs, measures={other: ["P@1"]}, resamples=100)
    expected = {(c[0], c[1], c[2]): c for c in api.tidy_rows()}
    assert len(doc["cells"]) == len(expected) == 2 * CELLS
    for cell in doc["cells"]:
        value, p = expected[(cell["system"], cell["benchmark"], cell["measure"])][3:5]
        assert cell["value"] == pytest.approx(value)
        assert (cell["p-value"] is None and math.isnan(p)) or cell["p-value"] == pytest.approx(p)
    _, markdown, _ = run_cli(capsys, *argv, "--format", "markdown")
    # B finds nothing on Task 1 2022; with two queries a benchmark no cell survives Holm over 9 headline
    # cells; B's official place: last of the complete 2024 table (26 runs and B: 27/27), over that 1 table, the
    # partial 2023 and 2025 not counted; won: 0 benchmarks, printed with a fixed digit
    assert markdown.splitlines()[4].startswith("| B | 0.0000 |") and "| 0/9/0 | 0.0 |" in markdown
    assert markdown.splitlines()[4].endswith(" | 1.00 (1) |")
    # the family and the names from the command line: every cell of B corrected together
    named = ["--name", f"{other}=TREC", "--name", "B=ours", "--family", "all", "--format", "latex"]
    _, latex, _ = run_cli(capsys, *argv, *named)
    assert (
        f"holm correction over every cell ({CELLS} tests)" in latex
        and "\\multicolumn{2}{c}{TREC}" in latex
    )
    assert (
        "\nours & 0.0000 & " in latex and str(tmp_path) not in latex
    )  # no absolute path in a header
    _, _, err = run_cli(capsys, *argv, "--name", "A=X", "--name", "B=X", expect=2)
    assert "the systems 'A' and 'B' would print as one name 'X'" in err
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
    if (
        "ir-coliee-test/unnamed" not in ir_datasets.registry
    ):  # an entry that names no official measures
        ir_datasets.registry.register("ir-coliee-test/unnamed", Dataset(Qrels()))
    expected = (
        "benchmark 'ir-coliee-test/unnamed' names no official measures: give its measures, "
        "measures={'ir-coliee-test/unnamed': [...]} in Python or --measure ir-coliee-test/unnamed=MEASURE"
    )
    with pytest.raises(ColieeError) as refused:
        benchmark({"ir-coliee-test/unnamed": OTHER}, resamples=50)
    assert str(refused.value) == expected


def test_folders_named_by_dataset_ids_per_exam_subsets_too(tmp_path):
    from ir_coliee.inputs.manifest import runs_in_folder

    for folder, name, line in (
        ("coliee/task3/2024/train/h30", "task3.A", "H30-1-A 1 A\n"),
        ("coliee/task1/2025/test", "task1.A.txt", "000200 000300 A\n"),
    ):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / name).write_text(line)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "task1.B").write_text("x\n")  # not a dataset id: not a benchmark, said
    (tmp_path / "coliee" / "task1" / "2025" / "x").write_text("x\n")  # one level too high
    (
        tmp_path / "coliee" / "task1" / "2025" / "test" / "teamC"
    ).mkdir()  # a team folder: its benchmark's
    (tmp_path / "coliee" / "task1" / "2025" / "test" / "teamC" / "task1.C").write_text(
        "000200 000300 C\n"
    )
    (tmp_path / "coliee" / "task1" / "2025" / "test" / "train.log").write_text(
        "epoch 1: loss 0.5\n"
    )
    found, findings = runs_in_folder(tmp_path)
    assert list(found) == ["coliee/task1/2025/test", "coliee/task3/2024/train/h30"]
    assert [list(systems) for systems in found.values()] == [["A", "C"], ["A"]]
    expected = "skipped: not in a folder named by a dataset id (e.g. coliee/task1/2025/test/)"
    assert [(f.path, f.message) for f in findings] == [
        (str(tmp_path / "coliee" / "task1" / "2025" / "x"), expected),
        (
            str(tmp_path / "coliee/task1/2025/test/train.log"),
            "skipped: not a Task 1 run (line 1): 4 columns",
        ),
        (str(tmp_path / "notes" / "task1.B"), expected),
    ]


def test_files_naming_one_system_are_each_named_by_their_path_never_one(tmp_path):
    from ir_coliee.inputs.manifest import runs_in_folder

    folder = tmp_path / "coliee" / "task1" / "2025" / "test"
    (folder / "team").mkdir(parents=True)
    for name in ("task1.bm25", "task1.bm25.txt", "bm25", "team/bm25", "task1.X"):
        (folder / name).write_text("000200 000300 x\n")
    found, findings = runs_in_folder(tmp_path)
    assert {b: {s: run.path for s, run in systems.items()} for b, systems in found.items()} == {
        "coliee/task1/2025/test": {
            "bm25": str(folder / "bm25"),
            "X": str(folder / "task1.X"),
            "task1.bm25": str(folder / "task1.bm25"),
            "task1.bm25.txt": str(folder / "task1.bm25.txt"),
            "team/bm25": str(folder / "team" / "bm25"),
        }
    }
    assert [f.message for f in findings] == [
        f"4 files of coliee/task1/2025/test name the system 'bm25': this one is named {n!r}"
        for n in ("bm25", "task1.bm25", "task1.bm25.txt", "team/bm25")
    ]


def _hand_made(other: str, family: str = "headline") -> BenchmarkResult:
    """Two systems on Task 1 2024 (its published table complete), Task 1 2025 (partial) and a gold file, with
    chosen values and raw p-values of B against A."""
    nan = math.nan
    better = _stratum([(1, 1, 1)] * 10, [(0, 1, 1)] * 10)
    t1_2024 = Scored(
        "coliee/task1/2024/test",
        ["MicroP", "MicroF1"],
        "MicroF1",
        {"MicroP": {"A": 1 / 2, "B": 1 / 4}, "MicroF1": {"A": 2 / 5, "B": 3 / 5}},
        {"MicroP": {"A": nan, "B": 0.001}, "MicroF1": {"A": nan, "B": 0.01}},
        {},
        {"A": (3, 26), "B": (1, 26)},
        "complete",
        {"B": better},
        [],
    )
    t1_2025 = Scored(
        "coliee/task1/2025/test",
        ["MicroF1"],
        "MicroF1",
        {"MicroF1": {"A": 3 / 10, "B": 7 / 20}},
        {"MicroF1": {"A": nan, "B": 0.02}},
        {},
        {},
        "partial",
        {"B": better},
        [],
    )
    trec = Scored(
        other,
        ["P@1"],
        "P@1",
        {"P@1": {"A": 2 / 3, "B": 1 / 3}},
        {"P@1": {"A": nan, "B": 0.5}},
        {},
        {},
        None,
        {"B": better},
        [],
    )
    return BenchmarkResult(
        [t1_2024, t1_2025, trec], ["A", "B"], "A", "holm", 200, 0, family, {"B": "ours"}
    )


def test_the_paper_table_groups_ranks_marks_the_best_and_says_partial_tables(tmp_path):
    other = tmp_path / "other.qrels"
    other.write_text(OTHER_QRELS)
    result = _hand_made(str(other))
    # the headline family: Holm over B's 0.01, 0.02, 0.5 = 3 x 0.01, 2 x 0.02, 0.5; MicroP is not tested
    assert result.p_value(("coliee/task1/2024/test", "MicroF1"), "B") == pytest.approx(0.03)
    assert result.p_value(("coliee/task1/2025/test", "MicroF1"), "B") == pytest.approx(0.04)
    assert result.p_value((str(other), "P@1"), "B") == 0.5
    assert math.isnan(result.p_value(("coliee/task1/2024/test", "MicroP"), "B"))
    out = io.StringIO()
    result.write(out, "markdown")
    lines = out.getvalue().splitlines()
    # mean MicroF1 over the two benchmarks that share it: A (2/5 + 3/10)/2 = 0.35, B (3/5 + 7/20)/2 = 0.475;
    # W/T/L of B: wins Task 1 2024 and 2025 (p 0.03, 0.04), ties the gold file; won: the stratified test's
    # benchmarks won on the per-query data (better on all 3); official place: first of the complete 2024 table
    # only (26 runs and B: 1/27)
    assert lines[:5] == [
        "|  | T1 2024 |  |  | T1 2025‡ |  | other |  | mean | vs A |  |  |  |",
        "|---|" + "---:|" * 12,
        "|  | MicroP | MicroF1 | rank | MicroF1 | rank | P@1 | rank | MicroF1 | W/T/L | won | p | official place |",
        "| A | **0.5000** | 0.4000 | 2 | 0.3000 | 2 | **0.6667** | 1 | 0.3500 | – | – | – | – |",
        "| ours | 0.2500 | **0.6000†** | 1 | **0.3500†** | 1 | 0.3333 | 2 | **0.4750** | 2/1/0 | 3.0 | "
        + lines[4].split(" | ")[-2]
        + " | 0.04 (1) |",
    ]
    assert "holm correction over the headline measure of each benchmark (3 tests)" in lines[6]
    assert "‡: the published table is partial, no placement" in lines[6]
    latex = io.StringIO()
    result.write(latex, "latex")
    text = latex.getvalue()
    assert (
        "\\begin{tabular}{l" + "r" * 12 + "}" in text
        and "\\toprule" in text
        and "\\bottomrule" in text
    )
    assert " & \\multicolumn{3}{c}{T1 2024} & \\multicolumn{2}{c}{T1 2025$^\\ddagger$} & " in text
    assert "\\textbf{0.6000$^\\dagger$}" in text and "\\textbf{0.5000}" in text
    assert "\\caption{$^\\dagger$: p $<$ 0.05 against A" in text
    assert "holm correction over the headline measure of each benchmark (3 tests)" in text
    doc = json.loads(_written(result, "json"))
    assert doc["family"] == "headline"
    assert [(b["name"], b["official table"]) for b in doc["benchmarks"]] == [
        ("T1 2024", "complete"),
        ("T1 2025", "partial"),
        ("other", None),
    ]
    micro_p = next(c for c in doc["cells"] if c["system"] == "B" and c["measure"] == "MicroP")
    assert micro_p["p-value"] is None and micro_p["official table"] == "complete"


def test_the_official_place_is_a_mean_of_relative_placements_over_complete_tables(tmp_path):
    """5th among 25 runs and B (5/26), last among 17 and B (18/18): (5/26 + 18/18) / 2, over 2 tables."""
    t1_2024, t1_2025, trec = _hand_made(str(tmp_path / "gone.qrels")).scored
    scored = [
        t1_2024._replace(placement={"B": (5, 25)}),
        t1_2025._replace(placement={"B": (18, 17)}, official="complete"),
        trec,
    ]
    result = BenchmarkResult(scored, ["A", "B"], "A", "holm", 200, 0)
    (row,) = result.summary_rows()
    assert (
        row["mean official place"] == pytest.approx((5 / 26 + 18 / 18) / 2)
        and row["official tables"] == 2
    )
    markdown = _written(result, "markdown")
    assert markdown.splitlines()[4].endswith(f" | {(5 / 26 + 1) / 2:.2f} (2) |")
    assert "won: benchmarks won in the stratified test (a tie counts one half)" in markdown
    assert json.loads(_written(result, "json"))["summary"][0]["official tables"] == 2


def _written(result: BenchmarkResult, style: str) -> str:
    out = io.StringIO()
    result.write(out, style)
    return out.getvalue()


def test_every_cell_family_corrects_and_marks_every_cell(tmp_path):
    result = _hand_made(str(tmp_path / "gone.qrels"), family="all")
    # Holm over 0.001, 0.01, 0.02, 0.5: 4 x 0.001, 3 x 0.01, 2 x 0.02, 0.5
    corrected = [result.p_value(cell, "B") for cell in result.cells]
    assert corrected == pytest.approx([0.004, 0.03, 0.04, 0.5])
    markdown = _written(result, "markdown")
    assert (
        "| ours | 0.2500† | **0.6000†** |" in markdown and "over every cell (4 tests)" in markdown
    )
    # a gold file that is not there (any more) keeps its name as given; a name given overrides
    shown = str(tmp_path / "gone.qrels").replace("_", "\\_")  # (Markdown: _ escaped, no emphasis)
    assert f"| {shown} |" in markdown


def test_no_correction_is_said_so_names_are_escaped_and_each_group_is_ruled(tmp_path):
    hand = _hand_made(str(tmp_path / "gone.qrels"))
    other = str(tmp_path / "gone.qrels")
    names = {"B": "my_*run*", other: "toy_set"}
    result = BenchmarkResult(hand.scored, ["A", "B"], "A", "none", 200, 0, "headline", names)
    markdown = _written(result, "markdown")
    # raw p-values 0.01, 0.02 (headline) and 0.5: no correction, the names as written, not emphasis
    assert "| T1 2024 |  |  | T1 2025‡ |  | toy\\_set |" in markdown
    assert "| my\\_\\*run\\* | 0.2500 | **0.6000†** |" in markdown
    assert "no correction (3 tests)" in markdown and "none correction" not in markdown
    latex = _written(result, "latex")
    # under T1 2024 (MicroP, MicroF1, rank), T1 2025 and toy (measure, rank), the summary; the mean stands alone
    rules = "\\cmidrule(lr){2-4} \\cmidrule(lr){5-6} \\cmidrule(lr){7-8} \\cmidrule(lr){10-13}"
    assert f"{{vs A}} \\\\\n{rules}\n & MicroP & MicroF1 & rank & " in latex
    assert (
        "\nmy\\_{*}run{*} & 0.2500 & " in latex  # a "*" braced: never a row's \\* when first
        and "toy\\_set" in latex
        and "no correction (3 tests)" in latex
    )


def test_short_names_of_benchmarks(tmp_path):
    gold = tmp_path / "trec.dl.qrels"
    gold.write_text(OTHER_QRELS)
    assert short_name("coliee/task1/2025/test") == "T1 2025"
    assert short_name("coliee/task3/2024/train/h30") == "T3 2024 train/h30"
    assert short_name(str(gold)) == "trec.dl"  # never an absolute path
    assert short_name("msmarco-passage/dev/small") == "msmarco-passage/dev/small"
    # two gold files of one name in two folders: each named with its folder, not merged into one group
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "qrels.txt").write_text(OTHER_QRELS)
    twins = [
        Scored(
            str(tmp_path / f / "qrels.txt"),
            ["P@1"],
            "P@1",
            {"P@1": {"A": 1.0}},
            {"P@1": {"A": math.nan}},
            {},
            {},
            None,
            {},
            [],
        )
        for f in ("a", "b")
    ]
    result = BenchmarkResult(twins, ["A"], "A", "holm", 10, 0, names={"A": "BM25"})
    assert [result.names[b.name] for b in twins] == ["a/qrels", "b/qrels"] and result.names[
        "A"
    ] == "BM25"
    with pytest.raises(ColieeError, match="family='grid': expected 'headline' or 'all'"):
        benchmark({str(gold): OTHER}, measures=["P@1"], family="grid")  # type: ignore[arg-type]


def test_gold_files_of_one_name_get_names_long_enough_to_tell_them_apart(tmp_path, monkeypatch):
    """More parent folders, then the extension, until no two gold files print alike; a table is written."""
    from ir_coliee.errors import ColieeArgumentError
    from ir_coliee.outputs.names import paper_names

    paths = ["a/x/qrels.txt", "b/x/qrels.txt", "c/y/qrels.txt", "c/y/qrels.tsv", "other.qrels"]
    for path in paths:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(OTHER_QRELS)
    monkeypatch.chdir(tmp_path)
    shown = paper_names([*paths, TASK1[0]], ["A", "B"], {"B": "ours"})
    assert [shown[p] for p in paths] == [
        "a/x/qrels",
        "b/x/qrels",
        "y/qrels.txt",
        "qrels.tsv",
        "other",
    ]
    assert (shown[TASK1[0]], shown["A"], shown["B"]) == ("T1 2022", "A", "ours")
    with pytest.raises(
        ColieeArgumentError, match=r"benchmarks 'other.qrels' and '.*other.qrels' are the same file"
    ):
        paper_names(["other.qrels", str(tmp_path / "other.qrels")], ["A"], {})
    with pytest.raises(
        ColieeArgumentError, match=r"systems 'A' and 'B' would print as one name 'X': give names="
    ):
        benchmark({"other.qrels": OTHER}, measures=["P@1"], names={"A": "X", "B": "X"})
    clash = r"benchmarks 'a/x/qrels.txt' and 'other.qrels' would print as one name 'T': give names="
    with pytest.raises(ColieeArgumentError, match=clash):
        benchmark(
            {"a/x/qrels.txt": OTHER, "other.qrels": OTHER},
            measures=["P@1"],
            names={"a/x/qrels.txt": "T", "other.qrels": "T"},
        )
    result = benchmark(
        {p: OTHER for p in paths[:4]},
        measures=["P@1"],
        resamples=10,
        names={"a/x/qrels.txt": "a|x"},
    )
    first = _written(result, "markdown").splitlines()[
        0
    ]  # a | in a name escaped in the header as in the rows
    assert (
        first
        == "|  | a\\|x |  | b/x/qrels |  | y/qrels.txt |  | qrels.tsv |  | mean | vs A |  |  |  |"
    )


def test_an_unknown_correction_is_refused_by_every_door_and_tests_are_named_alike(grid):
    from ir_coliee.errors import ColieeArgumentError

    _, other = grid
    result = benchmark({other: OTHER}, measures=["MicroF1", "P@1"], resamples=10)
    assert {(r[0], r[2]): r[5] for r in result.tidy_rows()} == {
        ("A", "MicroF1"): "baseline",
        ("B", "MicroF1"): "randomization on counts",
        ("A", "P@1"): "baseline",
        ("B", "P@1"): "randomization on values",
    }
    expected = "unknown correction 'fdr_bh'; expected one of holm, bonferroni, none"
    with pytest.raises(ColieeArgumentError, match=expected):
        benchmark({other: OTHER}, measures=["P@1"], correction="fdr_bh")  # type: ignore[arg-type]
    with pytest.raises(ColieeArgumentError, match="unknown correction 'HOLM'"):
        ir_coliee.compare(other, OTHER, ["P@1"], correction="HOLM")  # type: ignore[arg-type]
    with pytest.raises(ColieeArgumentError, match="unknown correction 'HOLM'"):
        correct([0.1, 0.2], "HOLM")  # type: ignore[arg-type]


def test_a_measure_named_twice_is_one_column(grid):
    import ir_measures

    from ir_coliee.measures.parse import parse_measures

    _, other = grid
    assert parse_measures(["P@1", ir_measures.P @ 1, "AP", "P@1"]) == [
        ir_measures.P @ 1,
        ir_measures.AP,
    ]
    result = benchmark({other: OTHER}, measures=["P@1", ir_measures.P @ 1], resamples=10)
    assert result.cells == [(other, "P@1")]
    assert "\\begin{tabular}{lrrrrrr}" in _written(
        result, "latex"
    )  # P@1, rank, and the 4 summary columns


def test_a_file_beside_the_runs_that_shares_no_query_is_skipped_not_a_refusal(
    coliee_home, tmp_path
):
    """A README of three words a line reads as a Task 1 run; it shares no query with the gold: said, skipped."""
    from ir_coliee.inputs.manifest import runs_in_folder

    write_task1_flat(coliee_home, 2025, with_test_gold=True)
    folder = tmp_path / "runs" / "coliee" / "task1" / "2025" / "test"
    folder.mkdir(parents=True)
    (folder / "task1.A").write_text("000200 000300 A\n")
    (folder / "README.md").write_text("# My runs\nSome text here\n")
    found, findings = runs_in_folder(tmp_path / "runs")
    assert list(found["coliee/task1/2025/test"]) == ["A"]
    expected = "skipped: shares no query with the gold of coliee/task1/2025/test"
    assert [(f.path, f.message) for f in findings] == [(str(folder / "README.md"), expected)]


def test_a_training_set_benchmark_is_not_placed_on_the_test_sets_table(coliee_home):
    write_task1_flat(coliee_home, 2024, with_test_gold=True)
    run = {"000028": {"000100": 1.0}, "000200": {"000300": 1.0}}
    runs = {b: {"A": run} for b in ("coliee/task1/2024/train", "coliee/task1/2024/test")}
    result = benchmark(runs, resamples=20)
    assert [(s.official, s.placement) for s in result.scored] == [
        (None, {}),
        ("complete", {"A": (1, 26)}),  # test: P = 1/1, R = 1/2, F1 = 2/3, above every 2024 run
    ]
    # the fixture's test set is not the real one of 400 queries: the place is said to rank other queries
    said = [f for f in result.findings if "where the 2024 test set holds 400" in f.message]
    assert [f.path for f in said] == ["coliee/task1/2024/test"]
    assert said[0].message.startswith("Task 1: the gold holds 2 queries")
