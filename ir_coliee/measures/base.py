"""What every ir_coliee measure shares: its parameters and how it validates them."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypeVar

from ir_measures.measures.base import Agg, Measure, ParamInfo

from ir_coliee.errors import ColieeArgumentError
from ir_coliee.measures.values import ExactMeanAgg, Formula, MicroAgg

CUTOFF = ParamInfo(
    dtype=int,
    required=False,
    desc="only the k best-scored documents of each query count as retrieved (ties broken as trec_eval "
    "does: document id descending); without it every run line counts, as in COLIEE submissions",
)
M = TypeVar("M", bound="ColieeMeasure")

REL = ParamInfo(
    dtype=int, default=1, desc="minimum relevance score counted as relevant (inclusive)"
)


class ColieeMeasure(Measure):
    """Base of the measures that the ``ir_coliee`` provider computes (see ``ir_coliee.measures.pipeline``)."""

    SUPPORTED_PARAMS: dict[str, ParamInfo] = {"cutoff": CUTOFF, "rel": REL}  # noqa: RUF012 (as ir_measures declares it)
    #: How per-query values are averaged: ``micro`` (sum the counts, then apply the formula) or ``mean``.
    AVERAGING: ClassVar[Literal["micro", "mean"]] = "mean"
    #: What the gold of the measure names: documents (relevance judgements) or Y/N answers.
    TAKES: ClassVar[Literal["documents", "answers"]] = "documents"
    #: The formula in words, shown in the generated docs.
    FORMULA: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # a declared measure is named as its class says it is (``__name__``), as ir_measures reads it
        cls.NAME = cls.__dict__.get("__name__", cls.NAME)

    def __init__(self, **params: Any) -> None:
        unknown = sorted(set(params) - set(self.SUPPORTED_PARAMS))
        if unknown:
            raise ColieeArgumentError(
                f"{self.NAME} takes no parameter {', '.join(unknown)} "
                f"(its parameters: {', '.join(self.SUPPORTED_PARAMS)})"
            )
        super().__init__(**params)

    def validate_params(self) -> None:
        super().validate_params()
        cutoff = self.params.get("cutoff")
        if cutoff is not None and (isinstance(cutoff, bool) or cutoff < 1):
            self.validated = False
            raise ColieeArgumentError(
                f"{self.NAME}: cutoff must be a positive whole number, got {cutoff!r}"
            )

    def formula(self) -> Formula:
        """The score as a function of counts (true positives, retrieved, relevant): of one query's counts
        for a mean, of the summed counts for a micro measure. Each measure type gives its own."""
        raise NotImplementedError(f"{self.NAME} declares no formula")

    def aggregator(self) -> Agg:
        """Follows the declared averaging: micro measures add counts, the others take an exact mean."""
        return MicroAgg() if self.AVERAGING == "micro" else ExactMeanAgg()


#: Every name ``ir_measures.parse_measure`` learns once ``ir_coliee`` is imported, filled where each
#: measure is declared (:func:`declare`); the exports, the host registration and the docs read it.
REGISTRY: dict[str, ColieeMeasure] = {}


def declare(measure: M, name: str = "") -> M:
    """Register ``measure`` under ``name`` (default: its ``NAME``) and return it: a new measure is its class
    (with its :meth:`ColieeMeasure.formula`) and this declaration."""
    if type(measure).formula is ColieeMeasure.formula:
        raise TypeError(
            f"{measure.NAME} declares no formula: give its class a formula() (docs/architecture.md)"
        )
    REGISTRY[name or str(measure.NAME)] = measure
    return measure
