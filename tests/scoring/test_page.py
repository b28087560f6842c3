"""The results page (``ir_coliee.report``, ``ir_coliee report``) on the sample release and on release-shaped
team folders: every number read back from the HTML equals the API's, the page is self-contained and
escapes what files say, and without matplotlib it is complete and says how to get the figures."""

from __future__ import annotations

import re

import ir_datasets
import pytest
from support.cli import run_cli
from support.pagecheck import assert_api_numbers, assert_rows
from support.season import page_tables, write_season

import ir_coliee
from ir_coliee.extras.demo import sample_release

RESAMPLES = 500


@pytest.fixture
def release():
    with sample_release():
        yield


@pytest.mark.parametrize("task", ["1", "3", "4"])
def test_every_number_on_the_page_is_the_apis(release, tmp_path, task):
    gold, season = write_season(tmp_path, task)
    page = ir_coliee.report(gold, [season], resamples=RESAMPLES)
    files = [r.path for r in page.report.runs]
    assert len(files) == {"1": 3, "3": 3, "4": 12}[task]  # README and logs skipped, each said once
    assert sum("skipped" in f.message for f in page.findings) == len(files) + 1
    by = ["relevant", "single-multiple", "anonymised"] if task == "3" else ["anonymised"]
    by = ["relevant", "single-multiple"] if task == "1" else by
    tables = page_tables(page.html)
    assert assert_api_numbers(tables, gold, files, by, RESAMPLES) > 100
    # the page opens on the leaderboard; ties share a rank; text shows the value to 4 decimals
    assert page.html.index('id="leaderboard"') < page.html.index('id="significance"')
    ranks = [row["rank"] for row in tables["leaderboard"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    shown = re.search(r'data-col="[^"]+" data-value="(0\.\d+)">([^<]+)<', page.html)
    assert shown and shown[2] == f"{float(shown[1]):.4f}"


def test_placement_on_the_published_table_flags_a_partial_one(release, tmp_path):
    gold, season = write_season(tmp_path, "1")
    page = ir_coliee.report(gold, [season], resamples=RESAMPLES)
    board = page.published
    assert board is not None and not board.complete  # 2025: teams' reproduced rows only
    tables = page_tables(page.html)
    for row in tables["leaderboard"]:
        place = board.place(row[board.headline])[0]
        assert row["placement"] == f"{place} of {len(board.rows) + 1} (partial table)"
    ours = [r for r in tables["placement"] if r["entry"].startswith("this run")]  # tied too
    assert {r["run"] for r in ours} == {r.name for r in page.report.runs}
    assert "(a partial table)" in page.html


def test_a_named_baseline_and_a_refused_one(release, tmp_path):
    gold, season = write_season(tmp_path, "4")
    page = ir_coliee.report(gold, [season], baseline="team03run", resamples=RESAMPLES)
    rows = page_tables(page.html)["significance:AnswerAccuracy"]
    base = [r for r in rows if r["baseline"] == "yes"]
    assert [r["run"] for r in base] == ["team03run"]
    with pytest.raises(
        ir_coliee.ColieeArgumentError, match="baseline 'nobody' is not one of the runs"
    ):
        ir_coliee.report(gold, [season], baseline="nobody", resamples=RESAMPLES)


def test_the_page_is_self_contained_and_escapes_what_files_say(release, tmp_path, capsys):
    gold, season = write_season(tmp_path, "3")
    hostile = season / "team00" / "task3.team00run"
    hostile.write_text(hostile.read_text().replace("team00run", '<b>x</b>&"'))
    mathtext = season / "team01" / "task3.team01run"  # a tag matplotlib would read as mathtext
    mathtext.write_text(mathtext.read_text().replace("team01run", r"$\frac$"))
    page = ir_coliee.report(gold, [season], resamples=RESAMPLES)
    assert (
        page.html.count(r">$\frac$</text>") == 3
    )  # the legend of each grouping's panel, as written
    assert "<b>x</b>" not in page.html and "&lt;b&gt;x&lt;/b&gt;&amp;&quot;" in page.html
    assert '<b>x</b>&"' in {row["run"] for row in page_tables(page.html)["leaderboard"]}
    assert not re.search(
        r"<(script|link|img|iframe)\b|\bsrc=|@import|url\((?!#)", page.html
    )  # url(#id): a clip path
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', page.html))
    assert page.html.count("<svg") == 4 and page.html.count('role="img" aria-label="Bar chart') == 4
    ids = re.findall(r'\bid="([^"]*)"', page.html)  # every SVG's too: one page, one namespace
    assert len(ids) > 100 and len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[A-Za-z][\w.:-]*", i) for i in ids), [i for i in ids if " " in i]
    refs = re.findall(r'(?:url\(#|href="#)([^")]+)', page.html)
    assert refs and set(refs) <= set(ids)  # each reference to an id renamed with it
    plot = tmp_path / "analyse.png"
    run_cli(capsys, "analyse", gold, season, "--by", "relevant", "--plot", plot)
    run_cli(capsys, "compare", gold, season, "--resamples", 50, "--plot", tmp_path / "c.png")
    assert plot.stat().st_size > 1000 and (tmp_path / "c.png").stat().st_size > 1000


def test_without_matplotlib_the_page_is_whole_and_says_how_to_get_figures(
    release, tmp_path, monkeypatch
):
    from ir_coliee.outputs import plots

    real = plots.importlib.util.find_spec
    monkeypatch.setattr(
        plots.importlib.util, "find_spec", lambda n, *a: None if n == "matplotlib" else real(n, *a)
    )
    gold, season = write_season(tmp_path, "1")
    page = ir_coliee.report(gold, [season], resamples=RESAMPLES)
    assert "<svg" not in page.html and "pip install &#x27;ir_coliee[plot]&#x27;" in page.html
    assert "drawing the figures needs matplotlib" in page.html
    assert {"leaderboard", "groups", "per_question"} <= set(page_tables(page.html))


def test_the_command_writes_the_page(release, tmp_path, capsys):
    gold, season = write_season(tmp_path, "3")
    out = tmp_path / "results.html"
    _, stdout, err = run_cli(
        capsys, "report", gold, season, "--out", out, "--resamples", RESAMPLES, "--by", "relevant"
    )
    assert stdout == "" and "README.md" in err
    page = ir_coliee.report(gold, [season], by=["relevant"], resamples=RESAMPLES)
    assert out.read_text(encoding="utf-8") == page.html  # the same page as the API's, byte for byte
    run_cli(capsys, "report", gold, season, "--out", tmp_path, expect=2)


def test_the_pilot_page_has_its_leaderboard_and_the_whole_sets_analyses(release, tmp_path):
    """The pilot's torts are grouped by a category file only: by default the whole set's analyses alone
    (difficulty, histogram); its 2025 table places the run by accuracy, the relevance rows (no accuracy)
    unranked."""
    import ir_datasets

    from ir_coliee.extras.demo import pilot_submission
    from ir_coliee.formats.pilot import write_torts

    gold = "coliee/pilot/2025/test"
    path = write_torts(pilot_submission(ir_datasets.load(gold)), tmp_path / "pilot.ours.jsonl")
    page = ir_coliee.report(gold, [path], resamples=RESAMPLES)
    tables = page_tables(page.html)
    whole = ir_coliee.analyse(gold, [path], []).tables()
    for name in ("groups", "histogram", "per_question"):
        assert_rows(tables[name], *whole[name], name)
    assert [r["group"] for r in tables["groups"]] == ["all"] and "solved" in tables["per_question"][
        0
    ]
    assert page.html.count("<svg") == 1  # the histogram
    want = ir_coliee.score(gold, [path]).table.iloc[0]
    assert tables["leaderboard"][0]["AnswerAccuracy"] == want["AnswerAccuracy"] == 0.5
    assert [r["rank"] for r in tables["placement"]] == [1, 2, ""]
    assert "1 run scored against" in page.html


def test_a_task4_gold_file_gets_the_whole_sets_analyses_in_the_golds_order(release, tmp_path):
    """No grouping applies to a Y/N gold file: the difficulty per question (solved, nothing), the
    histogram and its figure still do; the questions in the gold's order in the analyses and each run."""
    dataset, season = write_season(tmp_path, "4")
    answers = {q.query_id: q.doc_id for q in ir_datasets.load(dataset).qrels_iter()}
    order = sorted(answers, reverse=True)  # not the order a sort would give
    gold = tmp_path / "gold.txt"
    gold.write_text("".join(f"{q} {answers[q]} gold\n" for q in order))
    page = ir_coliee.report(gold, [season], task=4, year=2025, resamples=RESAMPLES)
    files = [r.path for r in page.report.runs]
    tables = page_tables(page.html)
    whole = ir_coliee.analyse(gold, files, [], task=4, year=2025).tables()
    for name in ("groups", "histogram", "per_question"):
        assert_rows(tables[name], *whole[name], name)
    assert [r["query_id"] for r in tables["per_question"]] == order
    assert [r["query_id"] for r in tables["run:team00run"]] == order
    assert page.html.count("<svg") == 1


def test_tiny_p_values_say_so_and_keep_their_exact_value():
    from ir_coliee.outputs import html

    text = html.table("t", "c", ["p-value", "zero"], [[1e-9, 0.0]])
    assert 'data-value="1e-09">&lt; 0.0001<' in text and 'data-value="0.0">0.0000<' in text


def _gated_season(root):
    """A 2026 Task 3 season of 41 questions, each team's run and answer file side by side: A answers 39
    right with every article found and a wrong one beside it (F2 5/6 a question), B answers 35 right
    with the articles alone (F2 1): by recall-gated accuracy A leads (39/41 = 0.951, tied with the
    published first), by MacroF2 B (35/41 = 0.854, tied with the fifth)."""
    qids = [f"R07-{i:02d}-A" for i in range(1, 42)]
    gold, truth = root / "gold.qrels", root / "answers.gold"
    gold.write_text("".join(f"{q} 0 {i} 1\n" for i, q in enumerate(qids, 1)))
    truth.write_text("".join(f"{q} Y g\n" for q in qids))
    answers = []
    for tag, wrong, extra in (("A", 2, True), ("B", 6, False)):
        (root / "season" / f"team{tag}").mkdir(parents=True)
        run = root / "season" / f"team{tag}" / f"task3-IR.{tag}"
        lines = [f"{q} Q0 {i} 1 1.0 {tag}\n" for i, q in enumerate(qids, 1)]
        run.write_text("".join(lines + [f"{q} Q0 999 2 0.5 {tag}\n" for q in qids if extra]))
        answers.append(run.with_name(f"R07.task4.{tag}"))
        answers[-1].write_text(
            "".join(f"{q} {'N' if i < wrong else 'Y'} {tag}\n" for i, q in enumerate(qids))
        )
    return gold, truth, root / "season", answers


def test_2026_task3_ranks_by_recall_gated_accuracy_and_marks_every_tied_run(tmp_path, capsys):
    gold, truth, season, answers = _gated_season(tmp_path)
    page = ir_coliee.report(
        gold, [season], task=3, year=2026, answers=answers, answers_gold=truth, resamples=RESAMPLES
    )
    tables = page_tables(page.html)
    board = {r["run"]: r for r in tables["leaderboard"]}
    assert [r["run"] for r in tables["leaderboard"]] == ["A", "B"]  # by MacroF2, B would lead
    assert (board["A"]["RecallGatedAccuracy"], board["B"]["RecallGatedAccuracy"]) == (
        39 / 41,
        35 / 41,
    )
    assert board["A"]["MacroF2"] < board["B"]["MacroF2"] == 1.0
    assert (board["A"]["placement"], board["B"]["placement"]) == (
        "1 of 8 (partial table)",
        "5 of 8 (partial table)",
    )
    placement = page.html.split('data-table="placement"')[1].split("</table>")[0]
    marked = re.findall(r'<tr class=mark>.*?data-col="entry">([^<]*)<', placement)
    assert marked == ["this run = run1", "this run = codyrag"]
    assert "significance:RecallGatedAccuracy" in tables and "No published table" not in page.html
    skipped = [f.path for f in page.findings if "skipped" in f.message]
    assert sorted(skipped) == sorted(map(str, answers))  # beside the runs, no runs of Task 3
    out = tmp_path / "r.html"
    argv = ["report", gold, season, "--task", "3", "--year", "2026", "--out", out]
    run_cli(capsys, *argv, "--answers", *answers, "--answers-gold", truth, "--resamples", RESAMPLES)
    assert out.read_text(encoding="utf-8") == page.html
    run_cli(capsys, *argv, "--resamples", RESAMPLES)  # without the answers: said what is missing
    assert (
        "ranks by RecallGatedAccuracy, which these runs are not scored by: give each run"
        in out.read_text(encoding="utf-8")
    )
