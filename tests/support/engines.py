"""The fast reader's engines one at a time, for the tests that hold them to each other."""

from __future__ import annotations

from typing import Optional

import pytest

from ir_coliee.model.formats import FormatName
from ir_coliee.table import run_fast as fast
from ir_coliee.table.runs import ParsedRun


def split_alone(path: str, fmt: FormatName, skip: int) -> Optional[ParsedRun]:
    """The numpy engine's result, or ``None`` where it hands the file on (Arrow is not asked)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fast, "_arrow_columns", lambda *args: None)
        return fast.parse_fast(path, fmt, skip, engine="split")
