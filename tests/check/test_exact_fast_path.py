"""Property: the sympy-free proof of literal asserts agrees with the sympy path.

Whenever ``holds_exactly`` says an assertion holds, ``run_assert`` (sympy)
says so too; and for assertions of small literals with ``+ - * /`` that
sympy proves, the fast path proves them as well (so it is actually taken).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.check._ast import Assert, Binary, Expr, Name, Num, QuotedNumber, Unary
from ankigen.check._errors import StatementError
from ankigen.check._evaluate import run_assert
from ankigen.check._exact import holds_exactly
from ankigen.check._grammar import parse_statement

_FRACTIONS = st.fractions(max_denominator=1000).filter(lambda f: abs(f) < 10**6)
_LEAVES = st.one_of(
    _FRACTIONS.map(lambda f: Num(f, 1)),
    _FRACTIONS.map(lambda f: QuotedNumber(str(f), f, 1)),
    st.sampled_from([Num(Fraction(0), 1), Num(Fraction(1), 1), Name("k", 1)]),
)
_EXPRS = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.builds(Unary, st.sampled_from(["-", "+"]), inner, st.just(1)),
        st.builds(Binary, st.sampled_from(["+", "-", "*", "/", "^"]), inner, inner, st.just(1)),
    ),
    max_leaves=6,
)
_OPS = st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "~="])


def _asserts() -> st.SearchStrategy[Assert]:
    within = st.none() | st.fractions(min_value=0, max_value=1, max_denominator=100)
    return st.builds(
        lambda left, op, right, tolerance, chain: Assert(
            left, op, right, tolerance, (), None, "test", tuple(chain)
        ),
        _EXPRS,
        _OPS,
        _EXPRS,
        within,
        st.lists(st.tuples(_OPS, _EXPRS), max_size=2),
    )


def _sympy_holds(statement: Assert) -> bool | None:
    """True/False as sympy decides; None when it refuses the statement."""
    try:
        return run_assert(statement, {}) is None
    except StatementError:
        return None


@settings(max_examples=300, deadline=None)
@given(_asserts())
def test_what_the_fast_path_proves_sympy_proves(statement: Assert) -> None:
    if holds_exactly(statement):
        assert _sympy_holds(statement) is True


def _literal(expr: Expr) -> bool:
    if isinstance(expr, Num | QuotedNumber):
        return True
    if isinstance(expr, Unary):
        return _literal(expr.operand)
    if not isinstance(expr, Binary) or expr.op == "^":
        return False
    return _literal(expr.left) and _literal(expr.right)


@settings(max_examples=300, deadline=None)
@given(_asserts())
def test_every_literal_assert_sympy_proves_is_proved_fast(statement: Assert) -> None:
    sides = [statement.left, statement.right, *(right for _, right in statement.chain)]
    if all(_literal(side) for side in sides) and _sympy_holds(statement):
        assert holds_exactly(statement)


def test_the_benchmark_banks_asserts_take_the_fast_path() -> None:
    for line in ["assert `274` == 274", "assert `373`/8 ~= 46.625 within 1%", "assert 1/3 < 0.34"]:
        statement = parse_statement(line)
        assert isinstance(statement, Assert)
        assert holds_exactly(statement)


def test_a_failing_or_undecidable_assert_is_left_to_sympy() -> None:
    for line in ["assert 1 == 2", "assert 1/0 == 1", "assert 2^10 == 1024", "assert k == k"]:
        statement = parse_statement(line)
        assert isinstance(statement, Assert)
        assert not holds_exactly(statement)
