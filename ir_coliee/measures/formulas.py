"""The scores as functions of one query's (or summed) counts: true positives, retrieved, relevant.

Each formula also takes numpy arrays of counts (:meth:`array`, used by ``compare`` on thousands of
resampled sums at once), with the same operations in the same order, so each element is the float the
scalar call gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def _ratio(num: Any, den: Any) -> np.ndarray:
    """``num / den`` element by element, 0 where ``den`` is 0."""
    import numpy as np

    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)


def _share(tp: int, total: int) -> float:
    """Precision (of the retrieved) or recall (of the relevant): 0 of none."""
    return tp / total if total else 0.0


class _Formula:
    """Formulas are values: equal when of one type with equal parameters (micro sums of two measures must
    not be added). Plain classes, not dataclasses: importing ``dataclasses`` would add to every start-up."""

    __slots__: tuple[str, ...] = ()

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key() == self._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self._key()))})"


class Precision(_Formula):
    """|ret ∩ rel| / |ret|; 0 when nothing is retrieved (COLIEE-SPEC section 6)."""

    def __call__(self, tp: int, retrieved: int, relevant: int) -> float:
        return _share(tp, retrieved)

    def array(self, tp: Any, retrieved: Any, relevant: Any) -> np.ndarray:
        return _ratio(tp, retrieved)


class Recall(_Formula):
    """|ret ∩ rel| / |rel|; 0 when nothing is relevant."""

    def __call__(self, tp: int, retrieved: int, relevant: int) -> float:
        return _share(tp, relevant)

    def array(self, tp: Any, retrieved: Any, relevant: Any) -> np.ndarray:
        return _ratio(tp, relevant)


class FBeta(_Formula):
    """(1+β²)·P·R / (β²·P + R), written as the organisers write it; 0 when P + R = 0."""

    __slots__ = ("beta",)

    def __init__(self, beta: float):
        self.beta = beta

    def __reduce__(self):  # keeps pickling working with __slots__
        return (FBeta, (self.beta,))

    def __call__(self, tp: int, retrieved: int, relevant: int) -> float:
        p = _share(tp, retrieved)
        r = _share(tp, relevant)
        if p + r == 0:
            return 0.0
        b2 = self.beta * self.beta
        return (1 + b2) * p * r / (b2 * p + r)

    def array(self, tp: Any, retrieved: Any, relevant: Any) -> np.ndarray:
        p, r = _ratio(tp, retrieved), _ratio(tp, relevant)
        b2 = self.beta * self.beta
        return _ratio((1 + b2) * p * r, b2 * p + r)


def on_arrays(formula: Any, tp: Any, retrieved: Any, relevant: Any) -> np.ndarray:
    """``formula`` element by element over arrays of counts: its own :meth:`array` where it has one (the
    package's formulas), else the scalar formula on each element (a formula written as a plain function)."""
    import numpy as np

    vector = getattr(formula, "array", None) or np.frompyfunc(formula, 3, 1)
    return np.asarray(vector(tp, retrieved, relevant), dtype=float)
