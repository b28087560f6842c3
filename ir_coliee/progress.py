"""Progress bars for the steps users wait on (reading a large run, tuning, resampling), on standard error.

Shown on a terminal only, as tqdm decides; ``IR_COLIEE_PROGRESS=1`` forces them on (``0`` off).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any, Optional, TypeVar

T = TypeVar("T")
ENV = "IR_COLIEE_PROGRESS"


def progress(items: Iterable[T], desc: str, total: Optional[int] = None, unit: str = "it") -> Iterator[T]:
    """``items``, with a progress bar where one is wanted."""
    from tqdm.auto import tqdm

    return iter(tqdm(items, desc=f"ir_coliee: {desc}", total=total, unit=unit, disable=_disabled(), leave=False))


def _disabled() -> Optional[bool]:
    """tqdm's ``disable``: ``None`` lets it decide (a terminal or not); the environment forces it."""
    forced = os.environ.get(ENV)
    return None if forced is None else forced == "0"


def tqdm_bar(desc: str, total: int, unit: str = "B") -> Any:
    """A progress bar moved by hand (``update(n)``, then ``close()``), e.g. by bytes read."""
    from tqdm.auto import tqdm

    return tqdm(desc=f"ir_coliee: {desc}", total=total, unit=unit, unit_scale=True, disable=_disabled(), leave=False)
