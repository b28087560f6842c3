"""Set-based precision, recall and F over (query, document) pairs, micro- or macro-averaged.

Micro (COLIEE Tasks 1, 2): sums of counts over the gold queries. Macro (Task 3): the mean over
the gold queries of the per-query value; macro F is the mean of per-query F, not F of the means.
"""

from __future__ import annotations

from typing import Any

from ir_measures.measures.base import ParamInfo

from ir_coliee.errors import ColieeArgumentError
from ir_coliee.measures.base import CUTOFF, REL, ColieeMeasure, declare
from ir_coliee.measures.formulas import FBeta, Precision, Recall
from ir_coliee.measures.values import Formula

BETA = ParamInfo(
    dtype=(int, float),
    default=1.0,
    desc="weight of recall against precision: F = (1+β²)·P·R / (β²·P + R); β=2 is COLIEE's F2",
)

#: β values with a short name of their own (``MicroF1``, ``MacroF2``, ...).
NAMED_BETAS = (1.0, 2.0)


class _Precision(ColieeMeasure):
    """Micro and macro precision: one formula, of summed counts or of each query's."""

    def formula(self) -> Formula:
        return Precision()


class _Recall(ColieeMeasure):
    """Micro and macro recall: one formula, of summed counts or of each query's."""

    def formula(self) -> Formula:
        return Recall()


class _MicroP(_Precision):
    """Micro precision: Σ|ret∩rel| / Σ|ret| over the gold queries (COLIEE Tasks 1, 2)."""

    __name__ = "MicroP"
    AVERAGING = "micro"
    FORMULA = "P = Σ_q |ret_q ∩ rel_q| / Σ_q |ret_q|; 0 when nothing is retrieved"


class _MicroR(_Recall):
    """Micro recall: Σ|ret∩rel| / Σ|rel| over the gold queries (COLIEE Tasks 1, 2)."""

    __name__ = "MicroR"
    AVERAGING = "micro"
    FORMULA = "R = Σ_q |ret_q ∩ rel_q| / Σ_q |rel_q|"


class _MacroP(_Precision):
    """Macro precision: the mean over gold queries of |ret∩rel| / |ret| (COLIEE Task 3)."""

    __name__ = "MacroP"
    FORMULA = "P = mean_q |ret_q ∩ rel_q| / |ret_q|; P_q = 0 when nothing is retrieved"


class _MacroR(_Recall):
    """Macro recall: the mean over gold queries of |ret∩rel| / |rel| (COLIEE Task 3)."""

    __name__ = "MacroR"
    FORMULA = "R = mean_q |ret_q ∩ rel_q| / |rel_q|"


class _FMeasure(ColieeMeasure):
    """Shared naming of the F measures: β is stored as a float and β = 1, 2 print as ``F1``, ``F2``."""

    SUPPORTED_PARAMS: dict[str, ParamInfo] = {"cutoff": CUTOFF, "rel": REL, "beta": BETA}  # noqa: RUF012

    def __init__(self, **params: Any) -> None:
        beta = params.get("beta")
        if isinstance(beta, int) and not isinstance(beta, bool):
            params["beta"] = float(beta)
        super().__init__(**params)

    def validate_params(self) -> None:
        super().validate_params()
        # a larger beta squared overflows: every value would be NaN
        if not 0 < self["beta"] <= 1e150:
            self.validated = False
            raise ColieeArgumentError(
                f"{self.NAME}: beta must be above 0 and at most 1e150, got {self['beta']!r}"
            )

    def formula(self) -> Formula:
        return FBeta(self["beta"])

    def __repr__(self) -> str:
        beta = self["beta"]
        name = f"{self.NAME}{int(beta)}" if beta in NAMED_BETAS else f"{self.NAME}(beta={beta!r})"
        if self["rel"] != REL.default:
            sep = "," if "(" in name else "("
            name = f"{name.rstrip(')')}{sep}rel={self['rel']!r})"
        if self.params.get("cutoff") is not None:
            name = f"{name}@{self.params['cutoff']}"
        return name


class _MicroF(_FMeasure):
    """Micro F-measure: F_β of micro precision and micro recall (COLIEE Tasks 1, 2 use F1)."""

    __name__ = "MicroF"
    AVERAGING = "micro"
    FORMULA = "F = (1+β²)·P·R / (β²·P + R) of micro P and micro R; 0 when P + R = 0"


class _MacroF(_FMeasure):
    """Macro F-measure: the mean over gold queries of per-query F_β (COLIEE Task 3 uses F2)."""

    __name__ = "MacroF"
    FORMULA = "F = mean_q (1+β²)·P_q·R_q / (β²·P_q + R_q); F_q = 0 when P_q + R_q = 0"


MicroP = declare(_MicroP())
MicroR = declare(_MicroR())
MicroF = declare(_MicroF())
MicroF1 = declare(_MicroF(beta=1.0), "MicroF1")
MicroF2 = declare(_MicroF(beta=2.0), "MicroF2")
MacroP = declare(_MacroP())
MacroR = declare(_MacroR())
MacroF = declare(_MacroF())
MacroF1 = declare(_MacroF(beta=1.0), "MacroF1")
MacroF2 = declare(_MacroF(beta=2.0), "MacroF2")
