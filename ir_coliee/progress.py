"""Progress bars for the steps users wait on (reading a large run, tuning, resampling), on standard error.

Shown on a terminal only (as tqdm decides by default); ``IR_COLIEE_PROGRESS=1`` forces them on (``0``
off). Where none is shown, tqdm is not even imported: a command on a small file should not pay for it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, Optional, TypeVar

T = TypeVar("T")
ENV = "IR_COLIEE_PROGRESS"


def _shown() -> bool:
    forced = os.environ.get(ENV)
    if forced is not None:
        return forced != "0"
    return sys.stderr is not None and sys.stderr.isatty()


def progress(
    items: Iterable[T], desc: str, total: Optional[int] = None, unit: str = "it"
) -> Iterator[T]:
    """``items``, with a progress bar where one is wanted."""
    if not _shown():
        return iter(items)
    from tqdm.auto import tqdm

    return iter(tqdm(items, desc=f"ir_coliee: {desc}", total=total, unit=unit, leave=False))


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def tqdm_bar(desc: str, total: int, unit: str = "B") -> Any:
    """A progress bar moved by hand (``update(n)``, then ``close()``), e.g. by bytes read."""
    if not _shown():
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(desc=f"ir_coliee: {desc}", total=total, unit=unit, unit_scale=True, leave=False)
