"""Declarations of the official COLIEE measures, each with its formula (:mod:`.formulas`), and the ir_measures
provider that computes them (:mod:`.provider`, :mod:`.pipeline`)."""

from ir_coliee.measures.answer import AnswerAccuracy  # noqa: F401  (exported through REGISTRY)
from ir_coliee.measures.base import REGISTRY, ColieeMeasure
from ir_coliee.measures.set_measures import (  # noqa: F401  (exported through REGISTRY)
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

#: The registry, the measures' base, and every measure the modules above declare, under its name (what
#: :data:`REGISTRY` holds once they are imported; the names imported tell static type checkers).
__all__ = ["REGISTRY", "ColieeMeasure", *REGISTRY]
