"""The hand-computed case in every shape ir_measures takes, and the check that a result is its values to the
last digit: shared by the front-end tests and the PyTerrier ones."""

from __future__ import annotations

import ir_measures
import pandas as pd
import pytest
from ir_measures import Qrel, ScoredDoc

from ir_coliee import MacroF2, MacroP, MacroR, MicroF1, MicroP, MicroR
from support.cases import GOLD, MACRO_F2, MACRO_P, MACRO_R, MICRO_F1, MICRO_P, MICRO_R, RUN

OURS = [MicroP, MicroR, MicroF1, MacroP, MacroR, MacroF2]
EXPECTED = {
    MicroP: MICRO_P,
    MicroR: MICRO_R,
    MicroF1: MICRO_F1,
    MacroP: MACRO_P,
    MacroR: MACRO_R,
    MacroF2: MACRO_F2,
}


def gold_as(kind: str):
    rows = [Qrel(q, d, r) for q, docs in GOLD.items() for d, r in docs.items()]
    if kind == "dict":
        return GOLD
    if kind == "namedtuples":
        return rows
    return pd.DataFrame(rows)[["query_id", "doc_id", "relevance"]]


def run_as(kind: str, run=RUN):
    rows = [ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    if kind == "dict":
        return run
    if kind == "namedtuples":
        return rows
    return pd.DataFrame(rows)


def assert_expected(result):
    for m, v in EXPECTED.items():
        assert result[m] == pytest.approx(v, abs=1e-15), m
    # and to the last digit across front ends: compare with the reference call exactly
    reference = ir_measures.calc_aggregate(OURS, GOLD, RUN)
    for m in EXPECTED:
        assert result[m] == reference[m], m


KINDS = ["dict", "namedtuples", "frame"]
