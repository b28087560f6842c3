"""The generated reference pages are committed and current."""

from __future__ import annotations

from pathlib import Path

import pytest

from ir_coliee.docgen import PAGES

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", sorted(PAGES))
def test_generated_page_is_current(name):
    assert (DOCS / name).read_text(encoding="utf-8") == PAGES[name](), (
        f"docs/{name} is stale: run python -m ir_coliee.docgen docs/"
    )


def test_measures_page_names_every_measure_and_the_f2_trap():
    page = PAGES["measures.md"]()
    for name in ("MicroF1", "MacroF2", "AnswerAccuracy"):
        assert f"`{name}`" in page
    assert "SetF(beta=4.0)" in page and "not F2" in page
