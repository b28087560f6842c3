"""Declarations of the official COLIEE measures, each with its formula (:mod:`.formulas`), and the ir_measures
provider that computes them (:mod:`.provider`, :mod:`.pipeline`)."""

from ir_coliee.measures.answer import AnswerAccuracy
from ir_coliee.measures.base import REGISTRY, ColieeMeasure
from ir_coliee.measures.set_measures import (
    MacroF,
    MacroF1,
    MacroF2,
    MacroP,
    MacroR,
    MicroF,
    MicroF1,
    MicroF2,
    MicroP,
    MicroR,
)

__all__ = [
    "REGISTRY",
    "AnswerAccuracy",
    "ColieeMeasure",
    "MacroF",
    "MacroF1",
    "MacroF2",
    "MacroP",
    "MacroR",
    "MicroF",
    "MicroF1",
    "MicroF2",
    "MicroP",
    "MicroR",
]
