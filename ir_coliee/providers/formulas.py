"""The scores as functions of one query's (or summed) counts: true positives, retrieved, relevant."""

from __future__ import annotations

from dataclasses import dataclass


def _precision(tp: int, retrieved: int) -> float:
    return tp / retrieved if retrieved else 0.0


def _recall(tp: int, relevant: int) -> float:
    return tp / relevant if relevant else 0.0


@dataclass(frozen=True)
class Precision:
    """|ret ∩ rel| / |ret|; 0 when nothing is retrieved (COLIEE-SPEC section 6)."""

    def __call__(self, tp: int, retrieved: int, relevant: int) -> float:
        return _precision(tp, retrieved)


@dataclass(frozen=True)
class Recall:
    """|ret ∩ rel| / |rel|; 0 when nothing is relevant."""

    def __call__(self, tp: int, retrieved: int, relevant: int) -> float:
        return _recall(tp, relevant)


@dataclass(frozen=True)
class FBeta:
    """(1+β²)·P·R / (β²·P + R), written as the organisers write it; 0 when P + R = 0."""

    beta: float

    def __call__(self, tp: int, retrieved: int, relevant: int) -> float:
        p = _precision(tp, retrieved)
        r = _recall(tp, relevant)
        if p + r == 0:
            return 0.0
        b2 = self.beta * self.beta
        return (1 + b2) * p * r / (b2 * p + r)
