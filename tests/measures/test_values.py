"""The per-query value types: counts travel with values, sums stay exact."""

from __future__ import annotations

import math
import pickle

import ir_measures
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cases import GOLD, MICRO_F1, RUN

from ir_coliee import MacroF2, MicroF1
from ir_coliee.measures.formulas import FBeta
from ir_coliee.measures.values import CountedValue, ExactSum, MicroAgg, MicroSum, MicroValue


def per_query(measure):
    return [m.value for m in ir_measures.iter_calc([measure], GOLD, RUN)]


def test_builtin_sum_of_micro_values_over_n_is_the_micro_score():
    values = per_query(MicroF1)
    assert sum(values) / len(values) == pytest.approx(MICRO_F1, abs=1e-15)
    assert isinstance(sum(values), MicroSum) and sum(values).tp == 2


def test_micro_sum_as_plain_float_is_n_times_the_score():
    values = per_query(MicroF1)
    assert float(sum(values)) == pytest.approx(3 * MICRO_F1)
    assert sum(values) / 2 == pytest.approx(
        3 * MICRO_F1 / 2
    )  # any other divisor: plain float maths


def test_values_survive_pickle():
    for value in per_query(MicroF1) + per_query(MacroF2):
        copy = pickle.loads(pickle.dumps(value))
        assert (float(copy), copy.tp, copy.retrieved, copy.relevant) == (
            float(value),
            value.tp,
            value.retrieved,
            value.relevant,
        )
        assert type(copy) is type(value)


def test_exact_sum_is_order_independent():
    values = [CountedValue(x, 0, 0, 0) for x in (1e16, 1.0, -1e16, 0.1, 0.2, 0.3)]
    forward = 0.0
    for v in values:
        forward = forward + v
    backward = 0.0
    for v in reversed(values):
        backward = backward + v
    assert isinstance(forward, ExactSum)
    assert float(forward) == float(backward) == math.fsum(values)


@pytest.mark.parametrize(
    "values", [[0.1, math.inf, 0.2], [0.1, math.nan, 0.2], [math.inf, 0.5, 0.25]]
)
def test_a_sum_with_a_value_that_is_not_finite_is_nan_or_inf_as_fsum_gives_it(values):
    """``sum()`` of per-query values, one of them NaN or infinite: the float a plain sum gives, never a
    recursion between the sum and the value."""
    total = sum(CountedValue(v, 1, 1, 1) for v in values)
    expected = math.fsum(values) if math.nan not in values else math.nan
    assert math.isnan(total) if math.isnan(expected) else total == expected


@settings(max_examples=300)
@given(st.lists(st.floats(min_value=-1e300, max_value=1e300), min_size=1))
def test_a_sum_of_values_is_fsum_of_them_in_any_order(values):
    """Subnormals, huge and cancelling values: the correctly rounded sum, forwards and backwards."""
    counted = [CountedValue(v, 0, 0, 0) for v in values]
    assert float(sum(counted)) == float(sum(reversed(counted))) == math.fsum(values)


def test_nan_from_pyterrier_backfill_propagates():
    value = MicroValue(FBeta(1.0), 1, 2, 2)
    assert math.isnan(value + math.nan)


def test_a_micro_value_adds_to_plain_numbers_as_its_float_and_sum_from_zero_stays_micro():
    """A plain number is no count: ``v + 1`` is the float arithmetic of the value, on both sides, while
    ``sum()`` from 0 (ir_measures, PyTerrier) still adds the counts."""
    value = MicroValue(FBeta(1.0), 1, 2, 2)  # P 1/2, R 1/2: F1 1/2
    for number in (1, 0.5, -3, 2.25):
        assert value + number == number + value == 1 / 2 + number
        assert type(value + number) is float and type(number + value) is float
    values = per_query(MicroF1)
    expected = 1.0
    for v in values:  # what sum() of the plain floats gives, in its order
        expected += float(v)
    assert sum(values, 1) == expected
    assert type(sum(values, 1)) is float
    assert isinstance(sum(values), MicroSum) and sum(values) / len(values) == pytest.approx(
        MICRO_F1, abs=1e-15
    )


def test_mixing_micro_values_with_other_measures_is_an_error():
    value = MicroValue(FBeta(1.0), 1, 2, 2)
    with pytest.raises(TypeError, match="micro"):
        value + CountedValue(0.5, 1, 2, 2)
    with pytest.raises(TypeError, match="two different micro measures"):
        value + MicroValue(FBeta(2.0), 1, 2, 2)
    with pytest.raises(TypeError, match="carry counts"):
        MicroAgg().add(0.5)


def test_the_micro_aggregator_adds_counts_then_applies_the_formula():
    agg = MicroAgg()
    agg.add(MicroValue(FBeta(1.0), 1, 2, 2))  # P 1/2, R 1/2
    agg.add(
        MicroValue(FBeta(1.0), 0, 3, 1) + MicroValue(FBeta(1.0), 2, 2, 3)
    )  # a sum of two queries
    # tp 3, retrieved 7, relevant 6: P = 3/7, R = 3/6, F1 = 2PR / (P + R) = 2*3 / (7 + 6)
    assert agg.n == 3
    assert agg.result() == pytest.approx(6 / 13, abs=1e-15)
    with pytest.raises(TypeError, match="two different micro measures"):
        agg.add(MicroValue(FBeta(2.0), 1, 2, 2))
    with pytest.raises(TypeError, match="carry counts"):
        agg.add(CountedValue(0.5, 1, 2, 2))


def test_empty_aggregations_are_nan():
    assert math.isnan(MicroF1.aggregator().result())
    assert math.isnan(MacroF2.aggregator().result())


def test_a_gold_table_is_converted_once_and_a_plain_dict_every_time():
    from ir_coliee.table.tables import CheckedGold, gold_table

    table = gold_table({1: {7: 1.0}, "q2": {"d": True}})
    assert table == {"1": {"7": 1}, "q2": {"d": 1}} and type(table) is CheckedGold
    assert gold_table(table) is table  # handed back, not converted again
    plain = dict(table)
    assert gold_table(plain) is not plain and gold_table(plain) == table


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.integers(0, 5).map(lambda k: k / 7), min_size=1, max_size=5),
    st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False)),
)
def test_a_macro_value_adds_to_ints_and_floats_on_both_sides_exactly(fractions, start):
    made = [CountedValue(f, 1, 1, 1) for f in fractions]
    expected = math.fsum([*fractions, start])  # the correctly rounded sum
    assert sum(made, start) == expected and made[0] + start == start + made[0]
    assert made[0] + start == math.fsum([fractions[0], start])
    assert type(sum(made, start)) is ExactSum


def test_an_int_added_stays_exact():
    third = CountedValue(1 / 3, 1, 3, 1)
    # 1/3 as a float, plus 2**60 and minus it again: exact, where float maths loses 1/3 entirely
    assert (third + 2**60) + -(2**60) == 1 / 3
    assert sum([third, third, third], 1) == math.fsum([1 / 3] * 3 + [1])


def test_results_pickle_and_their_per_query_list_behaves_as_a_list():
    results = ir_measures.calc([MicroF1, MacroF2], GOLD, RUN)
    copy = pickle.loads(pickle.dumps(results))
    assert copy == results and type(copy.per_query) is list
    assert copy.per_query[0].value.tp == results.per_query[0].value.tp
    both = results.per_query + results.per_query
    assert len(both) == 2 * len(results.per_query) and [*results.per_query, 1][-1] == 1
    assert [1] + results.per_query == [1, *results.per_query]  # noqa: RUF005 (the operator tested)
    ordered = sorted(results.per_query, key=lambda m: (m.query_id, str(m.measure)))
    results.per_query.sort(key=lambda m: (m.query_id, str(m.measure)))
    assert results.per_query == ordered


def test_a_score_pickles_whole():
    import ir_coliee

    report = ir_coliee.score(GOLD, RUN, measures=["MicroF1", "MacroF2"])
    copy = pickle.loads(pickle.dumps(report))
    assert copy.rows == report.rows and copy.per_query.equals(report.per_query)


def test_per_query_of_our_measures_is_a_list_made_only_when_read(monkeypatch):
    """``isinstance(per_query, list)`` as ir_measures promises, and ``[] + per_query`` a plain list; the
    values are still made on first read, not when scoring."""
    from ir_coliee.measures import provider

    made = []
    real = provider.per_query_values
    monkeypatch.setattr(
        provider, "per_query_values", lambda counted: made.append(1) or real(counted)
    )
    results = ir_measures.calc([MicroF1, MacroF2], GOLD, RUN)
    assert isinstance(results.per_query, list) and made == []
    joined = [] + results.per_query  # noqa: RUF005 (the operator tested)
    assert type(joined) is list and len(joined) == 6 and made == [1]
    assert joined == results.per_query == ir_measures.calc([MicroF1, MacroF2], GOLD, RUN).per_query
    assert type(pickle.loads(pickle.dumps(results.per_query))) is list


def test_per_query_values_keep_the_float_contracts_of_statistics_and_bools():
    """``statistics.mean`` converts its result back to the type of its data with one argument; a bool is
    an int."""
    import statistics

    micro = [MicroValue(FBeta(1.0), 1, 2, 2), MicroValue(FBeta(1.0), 1, 1, 1)]  # F1 1/2 and 1
    macro = [CountedValue(0.5, 1, 2, 2), CountedValue(0.25, 1, 4, 1)]
    assert statistics.mean(micro) == 3 / 4 and statistics.mean(macro) == 3 / 8
    assert type(statistics.mean(micro)) is float and statistics.median(macro) == 3 / 8
    assert micro[0] + True == True + micro[0] == 3 / 2 and macro[0] + True == 3 / 2
