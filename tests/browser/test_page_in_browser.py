"""The results page in a real browser (Debian's Chromium, driven headless by playwright): on the sample
release and on seasons of team folders for Tasks 1, 3 and 4, no console error, no request beyond the file,
the numbers read from the DOM are the API's, the page fits a phone and a 1280 px screen, the print style
hides the navigation, and the screenshot is not blank.

Skipped where no browser is found, except under ``CI=true``, where a missing browser fails."""

from __future__ import annotations

import io
import os
import re
import tempfile
from pathlib import Path

import pytest
from support.pagecheck import assert_api_numbers
from support.season import DOM_TABLES, dom_tables, write_sample_runs, write_season

import ir_coliee
from ir_coliee.extras.demo import sample_release

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
#: No GPU, no sandbox (containers), and nothing the browser would fetch on its own account.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
RESAMPLES = 500
#: Each figure's width on the screen and the height of its smallest text.
FIGURES = """[...document.querySelectorAll('figure svg')].map(svg => [
  svg.getBoundingClientRect().width,
  Math.min(...[...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect().height)),
])"""
#: Where the widest table ends (its content, should a cell overflow it).
WIDEST_TABLE = """Math.max(...[...document.querySelectorAll('table')].map(t =>
  t.getBoundingClientRect().left + t.scrollWidth))"""


@pytest.fixture(scope="module")
def browser():
    """A fresh headless Chromium (its own user-data-dir), or a skip where there is none (a failure in CI)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "playwright is not installed (pip install playwright)"
    else:
        missing = (
            ""
            if os.path.exists(CHROMIUM)
            else f"no browser at {CHROMIUM} (apt-get install chromium)"
        )
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs the browser tests: {missing}")
        pytest.skip(missing)
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, headless=True
        )
        yield context
        context.close()


def load(browser, path: Path):
    """The page at ``path`` at 1280 px, every request but the file itself refused and recorded, errors
    recorded."""
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.errors, page.requests = [], []
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.on("pageerror", lambda e: page.errors.append(str(e)))

    def route(r):
        if r.request.url.startswith(("file:", "data:")):
            return r.continue_()
        page.requests.append(r.request.url)
        return r.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    return page


def assert_not_blank(png: bytes) -> None:
    from matplotlib import image

    pixels = image.imread(io.BytesIO(png), format="png")[..., :3]
    assert pixels.shape[0] > 100 and pixels.std() > 0.05  # text, tables, bars: not one colour


def check(browser, gold: str, runs: list, by: list, out: Path) -> bytes:
    result = ir_coliee.report(gold, runs, resamples=RESAMPLES)
    result.write(out)
    page = load(browser, out)
    try:
        tables = dom_tables(page.evaluate(DOM_TABLES))
        files = [r.path for r in result.report.runs]
        assert assert_api_numbers(tables, gold, files, by, RESAMPLES) > 100
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        assert page.evaluate("document.querySelector('main section').id") == "leaderboard"
        png = page.screenshot()
        assert_not_blank(png)
        ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
        assert len(set(ids)) == len(ids) and not any(re.search(r"\s", i) for i in ids)
        # a phone: tables scroll, the page not; figures one under the other, each the page's width,
        # their smallest text (the legend's) still 8 px high
        page.set_viewport_size({"width": 390, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        figures = page.evaluate(FIGURES)
        assert figures and all(300 < width <= 390 and text >= 8 for width, text in figures), figures
        assert_not_blank(page.screenshot())
        # on paper (an A4 page's printable width, about 700 px): no navigation, every table whole
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 700, "height": 1000})
        assert page.evaluate("getComputedStyle(document.querySelector('nav')).display") == "none"
        assert page.evaluate(WIDEST_TABLE) <= 700
        assert page.errors == [] and page.requests == []
    finally:
        page.close()
    return png


def test_the_sample_release_page(browser, tmp_path):
    with sample_release():
        gold, runs = write_sample_runs(tmp_path)
        png = check(
            browser, gold, runs, ["relevant", "single-multiple", "anonymised"], tmp_path / "r.html"
        )
    if os.environ.get("IR_COLIEE_SCREENSHOT"):  # how docs/report.png is made
        Path(os.environ["IR_COLIEE_SCREENSHOT"]).write_bytes(png)


@pytest.mark.parametrize(
    ("task", "by"),
    [
        ("1", ["relevant", "single-multiple"]),
        ("3", ["relevant", "single-multiple", "anonymised"]),
        ("4", ["anonymised"]),
    ],
)
def test_a_season_of_team_folders(browser, tmp_path, task, by):
    with sample_release():
        gold, season = write_season(tmp_path, task)
        check(browser, gold, [season], by, tmp_path / "r.html")


def test_a_request_or_an_error_would_be_seen(browser, tmp_path):
    """The checks can fail: a page that fetches a style sheet and throws is caught on both counts."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<link rel="stylesheet" href="https://example.org/x.css"><script>throw new Error("boom")</script>'
    )
    page = load(browser, bad)
    assert page.requests == ["https://example.org/x.css"] and "boom" in " ".join(page.errors)
    page.close()
