"""The results page (``ir_coliee.report``, ``ir_coliee report``) on the sample release and on release-shaped
team folders: every number read back from the HTML equals the API's, the page is self-contained and
escapes what files say, and without matplotlib it is complete and says how to get the figures."""

from __future__ import annotations

import re

import pytest
from support.cli import run_cli
from support.pagecheck import assert_api_numbers
from support.season import page_tables, write_season

import ir_coliee
from ir_coliee.scoring.demo import sample_release

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
    ours = [r for r in tables["placement"] if r["entry"] == "this run"]
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


def test_the_page_is_self_contained_and_escapes_what_files_say(release, tmp_path):
    gold, season = write_season(tmp_path, "3")
    hostile = season / "team00" / "task3.team00run"
    hostile.write_text(hostile.read_text().replace("team00run", '<b>x</b>&"'))
    page = ir_coliee.report(gold, [season], resamples=RESAMPLES)
    assert "<b>x</b>" not in page.html and "&lt;b&gt;x&lt;/b&gt;&amp;&quot;" in page.html
    assert '<b>x</b>&"' in {row["run"] for row in page_tables(page.html)["leaderboard"]}
    assert not re.search(
        r"<(script|link|img|iframe)\b|\bsrc=|@import|url\((?!#)", page.html
    )  # url(#id): a clip path
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', page.html))
    assert page.html.count("<svg") == 4 and page.html.count('role="img" aria-label="Bar chart') == 4


def test_without_matplotlib_the_page_is_whole_and_says_how_to_get_figures(
    release, tmp_path, monkeypatch
):
    from ir_coliee.formats import plots

    real = plots.importlib.util.find_spec
    monkeypatch.setattr(
        plots.importlib.util, "find_spec", lambda n, *a: None if n == "matplotlib" else real(n, *a)
    )
    gold, season = write_season(tmp_path, "1")
    page = ir_coliee.report(gold, [season], resamples=RESAMPLES)
    assert "<svg" not in page.html and "pip install &#x27;ir_coliee[plot]&#x27;" in page.html
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


def test_the_pilot_page_has_its_leaderboard_and_says_no_grouping_applies(release, tmp_path):
    """The pilot's torts are grouped by a category file only: no analyses by default, the rest whole; its
    2025 table places the run by accuracy, the relevance rows (no accuracy) unranked."""
    import ir_datasets

    from ir_coliee.formats.pilot import write_torts
    from ir_coliee.scoring.demo import pilot_submission

    gold = "coliee/pilot/2025/test"
    path = write_torts(pilot_submission(ir_datasets.load(gold)), tmp_path / "pilot.ours.jsonl")
    page = ir_coliee.report(gold, [path], resamples=RESAMPLES)
    tables = page_tables(page.html)
    assert page.analysis is None and "No grouping applies to this gold" in page.html
    want = ir_coliee.score(gold, [path]).table.iloc[0]
    assert tables["leaderboard"][0]["AnswerAccuracy"] == want["AnswerAccuracy"] == 0.5
    assert [r["rank"] for r in tables["placement"]] == [1, 2, ""]
