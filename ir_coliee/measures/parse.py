"""Measures by name: each name parsed as ir_measures parses it (trec_eval's names too) and checked for
sound parameters, the official set where none is named; per-query values as a frame with the counts
behind them."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Optional, Union

import ir_measures
from ir_measures.measures.base import Measure

from ir_coliee.errors import ColieeArgumentError
from ir_coliee.measures.values import CountedValue
from ir_coliee.model import TaskLike, official_measures

if TYPE_CHECKING:
    import pandas as pd

MeasureLike = Union[str, Measure]


_NAME = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(.*)$", re.S)


def _spelled(name: str) -> str:
    """``name`` with its measure name in the registry's case when that is unambiguous (``microf1@5`` ->
    ``MicroF1@5``); else as given."""
    m = _NAME.match(name)
    if not m or m.group(1) in ir_measures.measures.registry:
        return name
    same = [k for k in ir_measures.measures.registry if k.lower() == m.group(1).lower()]
    return same[0] + m.group(2) if len(same) == 1 else name


#: trec_eval keeps cutoffs in a C int: a larger one overflows (pytrec_eval's key error).
_MAX_CUTOFF = 2**31 - 1


def _sound(measure: Measure) -> Measure:
    """``measure``, refused (``ValueError``) where its parameters would crash or mislead the code that computes
    it: a cutoff below 1 aborts trec_eval's C code (the whole process), a relevance level below 1 or a
    ``beta`` that is not a finite number gives no meaningful value."""
    params = getattr(measure, "params", {})
    cutoff, rel, beta = params.get("cutoff"), params.get("rel"), params.get("beta")
    if cutoff is not None and not (isinstance(cutoff, int) and 1 <= cutoff <= _MAX_CUTOFF):
        raise ColieeArgumentError(
            f"cutoff must be a whole number from 1 to {_MAX_CUTOFF:,}, got {cutoff!r}"
        )
    if rel is not None and not (isinstance(rel, int) and rel >= 1):
        raise ColieeArgumentError(f"rel must be a whole number of at least 1, got {rel!r}")
    if beta is not None and not (
        isinstance(beta, (int, float)) and math.isfinite(beta) and beta >= 0
    ):
        raise ColieeArgumentError(f"beta must be a finite number of at least 0, got {beta!r}")
    return measure


def _trec_named(name: MeasureLike) -> list[Measure]:
    """``name`` read as trec_eval names measures (``map``, ``ndcg_cut_10``, ``P_1``; ``P`` its family), as
    ``pt.Experiment`` reads its ``eval_metrics``; no measure where it is no such name."""
    if not isinstance(name, str):
        return []
    try:
        return [_sound(m) for m in ir_measures.parse_trec_measure(name)]
    except ValueError:
        return []


def parse_measures(measures: Iterable[MeasureLike]) -> list[Measure]:
    """Measures from names such as ``"MicroF1@5"``, ``"MacroF(beta=2)"`` or ``"AP"`` (names in any case
    where unambiguous; trec_eval's ``map`` or ``ndcg_cut_10`` too, as PyTerrier takes them), each once (the first kept: a measure named twice would make two columns of one name);
    an unknown name is an error that suggests the closest known ones."""
    out = []
    for m in measures:
        try:
            out.append(_sound(ir_measures.parse_measure(_spelled(m)) if isinstance(m, str) else m))
        except (NameError, ValueError, AssertionError, SyntaxError) as e:
            if trec := _trec_named(m):
                out += trec
                continue
            found = _NAME.match(m) if isinstance(m, str) else None
            import difflib

            close = (
                difflib.get_close_matches(found.group(1), list(ir_measures.measures.registry), n=3)
                if found
                else []
            )
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            raise ColieeArgumentError(f"unknown or malformed measure {m!r}: {e}{hint}") from None
    return list(dict.fromkeys(out))


def chosen_measures(
    measures: Optional[Sequence[MeasureLike]], task: Optional[TaskLike], year: Optional[int]
) -> list[Measure]:
    """The measures named, else the official ones of ``task`` and ``year`` (one of the two is needed)."""
    if measures is not None:
        return parse_measures(measures)
    if task is None:
        raise ColieeArgumentError(
            "give the measures, or the task (and year) whose official measures to use"
        )
    # as score's default: every shape of run ranks
    return official_measures(task, year, ranked=True)


def per_query_frame(metrics: Iterable[tuple[str, object, float]]) -> pd.DataFrame:
    """Per-query metrics (``ir_measures.Metric`` or any ``(query_id, measure, value)``) as rows
    ``query_id, measure, value, tp, retrieved, relevant``; the counts are those behind an ir_coliee
    value (empty for other measures)."""
    import pandas as pd

    rows = []
    for query_id, measure, value in metrics:
        counts: tuple[Optional[int], ...] = (None,) * 3
        if isinstance(value, CountedValue):
            counts = (value.tp, value.retrieved, value.relevant)
        rows.append((query_id, str(measure), float(value), *counts))
    columns = ["query_id", "measure", "value", "tp", "retrieved", "relevant"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype(dict.fromkeys(("tp", "retrieved", "relevant"), "Int64"))
