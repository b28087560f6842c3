"""Shared fixtures. Tests marked ``requires_data`` need the licensed COLIEE files: they run when
``COLIEE_HOME`` points at them and are the only tests ever skipped."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from ir_coliee.model import EDITIONS

# CI runs a fixed set of generated examples (no flaky failures from a new random draw); set
# HYPOTHESIS_PROFILE=fuzz for a long random search.
settings.register_profile("default", derandomize=True, print_blob=True)
settings.register_profile("fuzz", max_examples=5000, derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

if os.environ.get("IR_COLIEE_TEST_NEW_EDITION"):
    # the edition recipe of docs/architecture.md, applied before any test: the suite must pass unedited
    from ir_coliee import model

    model.EDITIONS[2027] = model.EDITIONS[2026]._replace(year=2027, statute_exam="R08")

if os.environ.get("IR_COLIEE_TEST_NEW_DEFAULT"):
    # one measure added to Task 1's defaults, one line in the model: tests about other things pass unedited
    from ir_coliee.model import official

    official.OFFICIAL = tuple(
        e._replace(for_discussion="nDCG@10") if e.task == "1" else e for e in official.OFFICIAL
    )


def pytest_report_header() -> str:
    return f"COLIEE editions in the model: {min(EDITIONS)}-{max(EDITIONS)}"


def pytest_collection_modifyitems(config, items):
    if os.environ.get("COLIEE_HOME"):
        return
    skip = pytest.mark.skip(reason="licensed COLIEE data: set COLIEE_HOME to the folder holding it")
    for item in items:
        if "requires_data" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def write(tmp_path):
    """Write ``text`` (str or bytes) to ``tmp_path/name`` and return the path."""

    def _write(name: str, text) -> str:
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_bytes(text.encode("utf-8"))
        return str(path)

    return _write


@pytest.fixture
def coliee_home(tmp_path, monkeypatch):
    """An empty data root as ``$COLIEE_HOME``; the file scan is forgotten before and after."""
    from ir_coliee.data.locator import refresh

    monkeypatch.setenv("COLIEE_HOME", str(tmp_path))
    refresh()
    yield tmp_path
    refresh()


@pytest.fixture
def statute_root(coliee_home):
    """The data root with the synthetic statute packages (tests/support/statute_data.py)."""
    from support.statute_data import write_statute_root

    write_statute_root(coliee_home)
    return coliee_home
