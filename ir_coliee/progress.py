"""Progress bars for the steps users wait on (reading a large run, tuning, resampling, BM25), on standard
error.

Shown on a terminal only: not in CI logs or pipes, where each redraw would be a line (:func:`shown`, which
the bars of other packages ir_coliee drives, ``bm25s``'s, follow too); ``IR_COLIEE_PROGRESS=1`` forces them
on (``0`` off). Reads of a file show a bar by bytes, with a time estimate. Where none is shown, tqdm is not
even imported: a command on a small file should not pay for it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Optional, TypeVar

T = TypeVar("T")
ENV = "IR_COLIEE_PROGRESS"


def shown() -> bool:
    """Whether progress bars are wanted: standard error is a terminal, or ``IR_COLIEE_PROGRESS`` says."""
    forced = os.environ.get(ENV)
    if forced is not None:
        return forced != "0"
    return sys.stderr is not None and sys.stderr.isatty()


def progress(
    items: Iterable[T], desc: str, total: Optional[int] = None, unit: str = "it"
) -> Iterator[T]:
    """``items``, with a progress bar where one is wanted."""
    if not shown():
        return iter(items)
    from tqdm.auto import tqdm

    return iter(tqdm(items, desc=f"ir_coliee: {desc}", total=total, unit=unit, leave=False))


def progress_bytes(
    items: Iterable[T], desc: str, total: int, size: Callable[[T], int]
) -> Iterator[T]:
    """``items`` (the lines of a file of ``total`` bytes, each ``size(item)`` bytes), with a bar by bytes
    and a time estimate where one is wanted."""
    if not shown():
        return iter(items)
    return _moved(items, tqdm_bar(desc, total), size)


def _moved(items: Iterable[T], bar: Any, size: Callable[[T], int]) -> Iterator[T]:
    done = 0
    try:
        for n, item in enumerate(items, 1):
            done += size(item)
            if n % 4096 == 0:  # a bar moved per line would cost more than the line
                bar.update(done)
                done = 0
            yield item
        bar.update(done)
    finally:
        bar.close()


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def tqdm_bar(desc: str, total: int) -> Any:
    """A progress bar moved by hand (``update(n)``, then ``close()``), e.g. by bytes read."""
    if not shown():
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(desc=f"ir_coliee: {desc}", total=total, unit="B", unit_scale=True, leave=False)
