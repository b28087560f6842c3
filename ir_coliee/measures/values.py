"""Per-query values that carry the counts behind them, and the sums that keep them exact.

ir_measures aggregates with ``measure.aggregator()``, but ``pt.Experiment`` ignores aggregators: it
adds per-query values with ``+`` starting from ``0.0`` and divides by the number of queries
(COLIEE-SPEC section 7). A micro-averaged score is not a mean of per-query values, so a plain float
would make PyTerrier print a macro number under a micro name. These float subclasses make that
``sum / n`` come out as the true score:

* a :class:`CountedValue` is the per-query value (what per-query tables show) plus the counts
  (true positives, retrieved, relevant) it was computed from;
* adding micro values yields a :class:`MicroSum` that adds the counts, and dividing it by the
  number of queries summed returns the micro score computed from the summed counts;
* adding macro values yields an :class:`ExactSum`, the correctly rounded sum whatever the order,
  so every front end (ir_measures, ``pt.Evaluate``, ``pt.Experiment`` with batches) agrees to the
  last digit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Optional, SupportsIndex, TypeVar

from ir_measures.measures.base import Agg

_Value = TypeVar("_Value", bound="CountedValue")

#: Turns (true positives, retrieved, relevant) into a score.
Formula = Callable[[int, int, int], float]


class CountedValue(float):
    """A per-query score with the counts behind it.

    ``tp``: relevant documents retrieved (for answers: 1 if the answer is right);
    ``retrieved``: distinct documents retrieved (answers given); ``relevant``: relevant documents in the gold.
    Adding macro values yields an :class:`ExactSum`.
    """

    __slots__ = ("relevant", "retrieved", "tp")
    tp: int
    retrieved: int
    relevant: int

    def __new__(
        cls: type[_Value],
        value: float,
        tp: Optional[int] = None,
        retrieved: int = 0,
        relevant: int = 0,
    ) -> _Value:
        # statistics.mean gives its result as type(data)(result): a number, no counts
        if tp is None:
            return float(value)  # type: ignore[return-value]
        obj = super().__new__(cls, value)
        obj.tp, obj.retrieved, obj.relevant = tp, retrieved, relevant
        return obj

    def __reduce__(self):  # keeps the counts through pickle (e.g. multiprocessing in PyTerrier)
        return (type(self), (float(self), self.tp, self.retrieved, self.relevant))

    def __repr__(self) -> str:
        return (
            f"{float(self)!r} (tp={self.tp}, retrieved={self.retrieved}, relevant={self.relevant})"
        )

    def __add__(self, other):
        return ExactSum(0) + self + other

    __radd__ = __add__


class MicroValue(CountedValue):
    """A per-query value of a micro-averaged measure; sums add counts (see :class:`MicroSum`)."""

    __slots__ = ("formula",)
    formula: Formula

    def __new__(
        cls, formula: Formula, tp: Optional[int] = None, retrieved: int = 0, relevant: int = 0
    ) -> MicroValue:
        if tp is None:  # as CountedValue's: statistics.mean's result, a number
            return float(formula)  # type: ignore[arg-type, return-value]
        obj = super().__new__(cls, formula(tp, retrieved, relevant), tp, retrieved, relevant)
        obj.formula = formula
        return obj

    def __reduce__(self):
        return (type(self), (self.formula, self.tp, self.retrieved, self.relevant))

    def __add__(self, other):
        if _is_plain(other) and not _is_zero(other):
            # a plain number is no per-query count to add (sum() from 0 is, and keeps the micro sum):
            # the plain float arithmetic of this value
            return float(self) + other
        return MicroSum(self.formula, 0, 0, 0, 0) + self + other

    __radd__ = __add__


def _is_plain(other: object) -> bool:
    return type(other) in (int, float, bool)  # a bool is an int


def _is_zero(other: object) -> bool:
    return _is_plain(other) and other == 0


#: Every finite float is a whole multiple of 2**-1074 (the smallest subnormal).
_UNIT_BITS = 1074


def _in_units(x: float) -> int:
    """``x`` as a whole number of units of 2**-1074, exactly."""
    n, d = x.as_integer_ratio()  # d is a power of two
    return n << (_UNIT_BITS + 1 - d.bit_length())


class ExactSum(float):
    """The correctly rounded sum of per-query values, independent of the order of addition: the exact sum is
    kept as a whole number of units of 2**-1074 (an int, fast to add) and rounded once, as ``math.fsum``
    rounds."""

    __slots__ = ("exact",)
    exact: int

    def __new__(cls, exact: int) -> ExactSum:
        obj = super().__new__(cls, exact / (1 << _UNIT_BITS))  # int / int, correctly rounded
        obj.exact = exact
        return obj

    def __add__(self, other):
        if _is_zero(other):
            return self
        if isinstance(other, ExactSum):
            return ExactSum(self.exact + other.exact)
        if isinstance(other, int):  # sum(values, 1): an int is exact, and stays so
            return ExactSum(self.exact + (other << _UNIT_BITS))
        if isinstance(other, float) and not isinstance(other, MicroValue):
            # a non-finite value: plain float arithmetic (a CountedValue would hand the sum back here)
            if not math.isfinite(other):
                return float(self) + float(other)
            return ExactSum(self.exact + _in_units(other))
        return NotImplemented

    __radd__ = __add__


class MicroSum(float):
    """Summed counts of micro values; ``sum / n`` over the ``n`` values summed is the micro score."""

    __slots__ = ("formula", "n", "relevant", "retrieved", "tp")
    formula: Formula
    tp: int
    retrieved: int
    relevant: int
    n: int

    def __new__(cls, formula: Formula, tp: int, retrieved: int, relevant: int, n: int) -> MicroSum:
        # As a plain float it is n times the micro score, so code that treats it as a float sum
        # still gets a mean equal to the micro score (up to rounding; __truediv__ makes it exact).
        obj = super().__new__(cls, n * formula(tp, retrieved, relevant) if n else 0.0)
        obj.formula, obj.n = formula, n
        obj.tp, obj.retrieved, obj.relevant = tp, retrieved, relevant
        return obj

    def __add__(self, other):
        if _is_zero(other):
            return self
        if isinstance(other, MicroValue):
            n = 1
        elif isinstance(other, MicroSum):
            n = other.n
        elif isinstance(other, float) and math.isnan(other):
            # PyTerrier marks topics without gold with NaN; the mean is then NaN as for AP
            return math.nan
        else:
            raise TypeError(
                f"cannot add {other!r} to a micro-averaged sum: micro scores add per-query counts, "
                "so every value must come from the same micro measure"
            )
        if other.formula != self.formula:
            raise TypeError("cannot add values of two different micro measures")
        return MicroSum(
            self.formula,
            self.tp + other.tp,
            self.retrieved + other.retrieved,
            self.relevant + other.relevant,
            self.n + n,
        )

    __radd__ = __add__

    def __truediv__(self, other):
        if other == self.n and self.n:
            return self.formula(self.tp, self.retrieved, self.relevant)
        return float(self) / other


class MicroAgg(Agg):
    """Aggregator of micro measures: adds the counts of every gold query, then applies the formula. (The
    counts are added here, not through :class:`MicroSum`: a sum object per query took most of the time
    of scoring ten thousand queries.)"""

    def __init__(self) -> None:
        self.formula: Optional[Formula] = None
        self.tp = self.retrieved = self.relevant = self.n = 0

    def add(self, value: float) -> None:
        if not isinstance(value, (MicroValue, MicroSum)):
            raise TypeError(
                f"micro-averaged measures need per-query values that carry counts, got the plain {value!r}; "
                "score with the values that the ir_coliee provider yields"
            )
        if self.formula is None:
            self.formula = value.formula
        elif value.formula is not self.formula and value.formula != self.formula:
            raise TypeError("cannot add values of two different micro measures")
        self.tp += value.tp
        self.retrieved += value.retrieved
        self.relevant += value.relevant
        self.n += value.n if isinstance(value, MicroSum) else 1

    def result(self) -> float:
        if self.formula is None or not self.n:
            return math.nan
        return self.formula(self.tp, self.retrieved, self.relevant)


class ExactMeanAgg(Agg):
    """Mean of per-query values with a correctly rounded sum (the same in every front end)."""

    def __init__(self) -> None:
        self.values: list = []

    def add(self, value: float) -> None:
        self.values.append(float(value))

    def result(self) -> float:
        return exact_mean(self.values)


def exact_mean(values: Iterable[float]) -> float:
    """The correctly rounded mean (NaN of no values), as :class:`ExactMeanAgg` takes it."""
    values = list(values)
    return math.fsum(values) / len(values) if values else math.nan


class LazyValues(list):
    """Per-query values made on first use, then kept: a score needs only the aggregates, and making the
    values of a million queries as objects took longer than the rest of scoring them. Otherwise the list
    ir_measures returns, and a list to ``isinstance``: every list operation first makes the values (those
    of another lazy list too), so it concatenates, sorts and compares as one, and pickles and copies as the
    plain list it stands for (multiprocessing and joblib hand results back that way; the function that
    makes it is no value)."""

    def __init__(self, make: Callable[[], Iterable]) -> None:
        super().__init__()
        self._make: Optional[Callable[[], Iterable]] = make

    def _whole(self) -> None:
        if self._make is not None:
            make, self._make = self._make, None
            list.extend(self, make())

    def __radd__(self, other: object) -> list:  # [] + values: list's own + would read it unmade
        return other + self[:] if isinstance(other, list) else NotImplemented

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple:
        return (list, (self[:],))


def _made_first(method: Callable) -> Callable:
    @wraps(method)
    def made(*args, **kwargs):
        for arg in args:
            if isinstance(arg, LazyValues):
                arg._whole()
        return method(*args, **kwargs)

    return made


for _name in (
    *("__len__", "__iter__", "__reversed__", "__getitem__", "__setitem__", "__delitem__"),
    *("__contains__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__repr__"),
    *("__add__", "__iadd__", "__mul__", "__rmul__", "__imul__", "__sizeof__"),
    *("append", "extend", "insert", "pop", "remove", "clear", "index", "count", "copy"),
    *("sort", "reverse"),
):
    setattr(LazyValues, _name, _made_first(getattr(list, _name)))
