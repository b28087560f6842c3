"""Reading and writing the official COLIEE submission formats (COLIEE-SPEC section 5).

The formats themselves are data (:mod:`ir_coliee.model.formats`): ``pairs`` (``000001 000018 univABC``,
Tasks 1, 2, 3), ``trec`` (``H19-1-3 Q0 96 1 0.84 univABC``, Task 3 and its ranked ``task3-L`` files)
and ``answers`` (``H19-1-3 N univABC``, Tasks 4, 5). Every reader here, and the validator, checks a
line with :func:`~ir_coliee.table.run_lines.parse_line`, so they report the same problem with the same words.

Runs come back as a pandas DataFrame with ``query_id``, ``doc_id`` (for answers: the label) and
``score`` columns, which ir_measures and PyTerrier take as they are. Where a format has no score,
line order is the ranking: the first line gets the highest score. Writing such a file, a run with equal
scores is written in the order ir_measures (pytrec_eval, trec_eval) ranks ties, document id descending, so the
file read back ranks as the run it was written from, and every shape of one run gets the same AP, R@k, ...

Two readers, one result. The fast one (:mod:`~ir_coliee.table.run_fast`) reads whole columns (ids kept as
codes, :class:`~ir_coliee.table.tables.CodedRun`): split by Python at the one separator, for a file of up
to 16 MiB while pyarrow is not loaded (its import alone maps 47 MiB) and for a file of long lines; by
pyarrow's CSV reader (all cores) otherwise, chosen by measurement over polars, pandas' C parser and a
numpy splitter of our own. It takes the common file, one space or tab between fields, and checks on whole
columns what the other checks line by line (column count, scores, answers, duplicates, late comments).
Anything else (runs of spaces, a lone carriage return, a bad line) goes to the line-by-line reader, which
reports the exact line. ``bench/bench_scaling.py`` measures the sizes side by side with the peers.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal, Optional, cast

from ir_coliee.errors import ColieeArgumentError, ColieeFormatError, PathLike
from ir_coliee.formats.textfile import is_input, regular_file
from ir_coliee.model.formats import FORMATS, FormatName

if TYPE_CHECKING:
    import pandas as pd

from ir_coliee.table.run_fast import parse_fast
from ir_coliee.table.run_lines import FormatOption, ParsedRun, first_format, parse_checked
from ir_coliee.table.run_write import write_run as write_any


def parse_run(
    path: PathLike, format: FormatOption = "auto", allowed: Optional[tuple[FormatName, ...]] = None
) -> ParsedRun:
    """Read a submission file in any official format.

    ``format="auto"`` takes the format among ``allowed`` (default: all; a task's formats, e.g.
    ``("answers",)`` for Task 4, so that ``q y tag`` is an unknown answer, not a document) that the
    first run line fits. Raises :class:`~ir_coliee.errors.ColieeFormatError` naming the file and line for
    a wrong column count, a non-numeric score, an answer other than Y/N, two different answers to one
    question, an empty file or bytes that are not UTF-8.
    """
    if format != "auto" and format not in FORMATS:
        raise ColieeArgumentError(
            f"unknown run format {format!r}; expected one of auto, {', '.join(FORMATS)}"
        )
    candidates = (format,) if format != "auto" else (allowed or tuple(FORMATS))
    with regular_file(path) as readable:
        before = _state(readable)
        lineno, name = first_format(readable, candidates)
        parsed = parse_fast(readable, name, lineno - 1) or parse_checked(readable, name)
        if _state(readable) != before:
            raise ColieeFormatError(
                readable,
                None,
                "changed while it was being read",
                "a file that stays as it is while it is read",
            )
    return parsed._replace(path=os.fspath(path))


def _state(path: PathLike) -> tuple[int, int]:
    """Size and modification time: a file rewritten or truncated while read changes one of them."""
    try:
        info = os.stat(path)
    except OSError:
        return (-1, -1)
    return info.st_size, info.st_mtime_ns


#: The columns a run frame is read with: ir_measures' (``query_id``, ``doc_id``, ``score``), or PyTerrier's
#: result frame (``qid``, ``docno``, ``score``, ``rank``: what ``pt.Transformer.from_df`` and ``pt.Experiment`` take).
Columns = Literal["ir_measures", "pyterrier"]


def read_run(
    path: PathLike, format: FormatOption = "auto", columns: Columns = "ir_measures"
) -> pd.DataFrame:
    """The run in a submission file, as a DataFrame for ir_measures, or with ``columns="pyterrier"`` as a
    PyTerrier result frame (ranks from 0 within each query, best score first, as PyTerrier numbers them)."""
    frame = parse_run(path, format).run
    if columns == "ir_measures":
        return frame
    if columns != "pyterrier":
        raise ColieeArgumentError(f"unknown columns {columns!r}; expected ir_measures or pyterrier")
    frame = frame.rename(columns={"query_id": "qid", "doc_id": "docno"})
    frame = frame.sort_values(["qid", "score"], ascending=[True, False], kind="stable")
    frame = frame.reset_index(drop=True)
    frame["rank"] = frame.groupby("qid", sort=False).cumcount()
    return frame


def write_run(
    run: object, path: PathLike, format: FormatName, tag: str, max_per_query: Optional[int] = None
) -> str:
    """Write ``run`` as an official submission file (:func:`~ir_coliee.table.run_write.write_run`): any
    shape a verb takes, a run file too, read as :func:`read_run` reads it (a conversion between formats)."""
    return write_any(
        read_run(cast(PathLike, run)) if is_input(run) else run, path, format, tag, max_per_query
    )
