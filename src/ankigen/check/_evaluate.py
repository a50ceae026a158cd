"""What an ``assert`` means: substitute, compare, and explain a failure.

``run_assert`` returns None when the assertion holds and the failure
message when it does not; a statement that cannot be decided at all (free
symbols in an order comparison, a complex value, ...) raises StatementError.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy

from ._ast import Assert, Expr, Num
from ._errors import CHECK_FAILED, StatementError, undecided
from ._precision import tolerance
from ._sympy import Context, Scope, build, fraction_text, symbol

#: Digits used to compare numbers that are not exact rationals.
_PRECISION = 50


def run_assert(statement: Assert, scope: Scope) -> str | None:
    """None if ``statement`` holds in ``scope``, else ``check failed: ...``."""
    loop = statement.loop
    if loop is None:
        problem = _once(statement, scope, {})
        if problem is None:
            return None
        return CHECK_FAILED.message(statement=statement.text, at="", problem=problem)
    if any(binding.name == loop.name for binding in statement.where):
        raise undecided(f"{loop.name!r} is given by both 'where' and 'for'")
    for value in range(loop.start, loop.stop + 1):
        extra: dict[str, Expr] = {loop.name: Num(Fraction(value), 0)}
        try:
            problem = _once(statement, scope, extra)
        except StatementError as exc:
            raise StatementError(
                f"at {loop.name} = {value}: {exc}", column=exc.column, code=exc.code
            ) from None
        if problem is not None:
            at = f" fails at {loop.name} = {value}"
            return CHECK_FAILED.message(statement=statement.text, at=at, problem=problem)
    return None


def _once(statement: Assert, scope: Scope, extra: dict[str, Expr]) -> str | None:
    """Evaluate every comparison once, with the loop value (if any) in ``extra``."""
    where = {binding.name: binding.value for binding in statement.where}
    ctx = Context(where={**where, **extra}, where_scope=scope)
    links = statement.links()
    for number, (left_ast, op, right_ast) in enumerate(links, start=1):
        left = build(left_ast, scope, ctx)
        right = build(right_ast, scope, ctx)
        problem = _compare(op, left, right, ctx, tolerance(statement, left_ast, right_ast))
        if problem is not None and len(links) > 1:
            return f"link {number} of the chain ({_OPS[op]}): {problem}"
        if problem is not None:
            return problem
    return None


#: How a link of a quoted chain is named in a message.
_OPS = {
    "==": "=",
    "!=": "\\neq",
    "<": "<",
    "<=": "\\le",
    ">": ">",
    ">=": "\\ge",
    "~=": "\\approx",
    "in": "\\in",
}


def _compare(
    op: str, left: sympy.Expr, right: sympy.Expr, ctx: Context, allowed: tuple[Fraction, bool]
) -> str | None:
    """None when ``left OP right`` holds, else what the two sides are."""
    for side, value in (("left", left), ("right", right)):
        if value.has(sympy.zoo, sympy.nan):
            raise undecided(f"the {side} side is undefined ({value})")
    if op == "in" or isinstance(left, sympy.Tuple) or isinstance(right, sympy.Tuple):
        return _lists(op, left, right)
    if op in ("==", "!="):
        return _symbolic(op, left, right)
    _require_numbers(left, right, ctx)
    if op == "~=":
        return _close(left, right, *allowed)
    return _order(op, left, right)


def _symbolic(op: str, left: sympy.Expr, right: sympy.Expr) -> str | None:
    """``==`` holds when left - right simplifies to zero; ``!=`` when it does not."""
    # Identical sides are equal even where the difference is undefined (oo - oo).
    equal = left == right or is_zero(left - right)
    if op == "==" and not equal:
        shown_left, shown_right = show(sympy.simplify(left)), show(sympy.simplify(right))
        return f"left side is {shown_left}, right side is {shown_right}{_unbound(left, right)}"
    if op == "!=" and equal:
        return f"both sides are {show(sympy.simplify(left))}"
    return None


def _unbound(left: sympy.Expr, right: sympy.Expr) -> str:
    """When one side is a number and the other holds names with no value (``t`` of the
    card's ``t = \\sqrt{2h/g}``, which the card defines), say so: the numbers may be right."""
    names = sorted(str(symbol) for symbol in (left.free_symbols | right.free_symbols))
    if not names or (left.free_symbols and right.free_symbols):
        return ""  # no names, or names on both sides: an identity that does not hold
    return (
        f" ({', '.join(names)} {'has' if len(names) == 1 else 'have'} no value in this "
        f"check: give {'it' if len(names) == 1 else 'each'} one with 'where', as in "
        f"'where {names[0]} = …', or assert the side that holds a number alone)"
    )


def _lists(op: str, left: sympy.Expr, right: sympy.Expr) -> str | None:
    """``a \\in \\{...\\}`` (every value of ``a`` is one of the set's), or lists ``==``/``!=``."""
    lefts = tuple(left) if isinstance(left, sympy.Tuple) else (left,)
    rights = tuple(right) if isinstance(right, sympy.Tuple) else (right,)
    if op == "in":
        outside = [a for a in lefts if not any(is_zero(a - b) for b in rights)]
        if not outside:
            return None
        return f"{', '.join(show(a) for a in outside)} is not one of {show(right)}"
    if op not in ("==", "!="):
        raise undecided(f"cannot compare lists with {op!r}: use '==', '!=' or \\in")
    same = len(lefts) == len(rights) and all(
        is_zero(a - b) for a, b in zip(lefts, rights, strict=True)
    )
    if op == "==" and not same:
        return f"left side is {show(left)}, right side is {show(right)}"
    if op == "!=" and same:
        return f"both sides are {show(left)}"
    return None


def is_zero(difference: sympy.Expr) -> bool:
    """True when ``difference`` is provably zero."""
    if difference == 0:
        return True
    if difference.is_Rational:
        return False
    simplified = sympy.simplify(difference)
    if simplified == 0:
        return True
    # A constant such as log(8)/log(2) - 3 that simplify leaves alone:
    # ``equals`` proves or refutes constants (minimal polynomials, exact
    # arithmetic); it is not used on expressions with symbols, where it
    # would fall back to sampling.
    return not simplified.free_symbols and simplified.equals(0) is True


def _require_numbers(left: sympy.Expr, right: sympy.Expr, ctx: Context) -> None:
    """Refuse an order or ``~=`` comparison with free symbols, naming them."""
    remaining = left.free_symbols | right.free_symbols
    if not remaining:
        return
    names = [name for name in ctx.free if symbol(name) in remaining]
    names += sorted(str(s) for s in remaining if str(s) not in names)
    raise undecided(
        f"cannot compare: free symbol{'s' if len(names) > 1 else ''} {', '.join(names)}"
        f" remain{'' if len(names) > 1 else 's'} after substitution;"
        f" add {'them' if len(names) > 1 else 'it'} to 'where' or use '=='"
    )


def _real(side: str, value: sympy.Expr) -> None:
    """Refuse a side that is not a real number (``log(-1)``)."""
    if value.is_extended_real is not True:
        raise undecided(f"cannot compare: the {side} side {show(value)} is not a real number")


_ORDER: dict[str, Callable[[sympy.Expr, sympy.Expr], object]] = {
    "<": sympy.Lt,
    "<=": sympy.Le,
    ">": sympy.Gt,
    ">=": sympy.Ge,
}


_RATIONAL_ORDER: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _fraction(value: sympy.Expr) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _order(op: str, left: sympy.Expr, right: sympy.Expr) -> str | None:
    """``< <= > >=`` on two real numbers."""
    if left.is_Rational and right.is_Rational:
        # Exact rationals (the common case, e.g. in every step of a `for`)
        # compare directly; sympy's relational machinery is far slower.
        holds = _RATIONAL_ORDER[op](_fraction(left), _fraction(right))
        return None if holds else f"left side is {show(left)}, right side is {show(right)}"
    _real("left", left)
    _real("right", right)
    result = _ORDER[op](left, right)
    if result is sympy.true:
        return None
    if result is sympy.false:
        return f"left side is {show(left)}, right side is {show(right)}"
    raise undecided(f"cannot decide whether {show(left)} {op} {show(right)}")


def _close(
    left: sympy.Expr, right: sympy.Expr, tolerance: Fraction, absolute: bool = False
) -> str | None:
    """``~=``: relative to the right side, absolute when the right side is 0 or
    when ``tolerance`` is half a unit of a written number's last digit."""
    _real("left", left)
    _real("right", right)
    sides = f"left side is {show(left)}, right side is {show(right)}"
    if not (left.is_finite and right.is_finite):
        return None if left == right else sides
    tol = sympy.Rational(tolerance.numerator, tolerance.denominator)
    gap = abs(left - right)
    scale = abs(right) if right != 0 and not absolute else sympy.Integer(1)
    if not (gap.is_Rational and scale.is_Rational):
        gap, scale = gap.evalf(_PRECISION), scale.evalf(_PRECISION)
    if gap <= tol * scale:
        return None
    if absolute:
        return (
            f"{sides}; the difference {float(gap):.3g} is more than"
            f" {fraction_text(tolerance)}, half a unit of the last digit written"
            " (give 'within P%' for a looser claim)"
        )
    kind = "relative" if right != 0 else "absolute"
    return f"{sides}; {kind} difference {_percent(gap / scale)} is more than {_percent(tol)}"


def _percent(ratio: sympy.Expr) -> str:
    """A ratio as a short percentage."""
    return f"{float(ratio) * 100:.3g}%"


def show(value: sympy.Expr) -> str:
    """A side as a reader wants it: ``1.3`` for 13/10, ``2/3``, ``sqrt(2) ≈ 1.414``."""
    if value.is_Integer:
        return _shorten(str(value))
    if value.is_Rational:
        q = int(value.q)
        while q % 2 == 0:
            q //= 2
        while q % 5 == 0:
            q //= 5
        if q == 1 and value.q < 10**12:
            return fraction_text(Fraction(int(value.p), int(value.q)))
        return str(value)
    text = _shorten(str(sympy.sstr(value)))
    if value.is_number and value.is_finite and value.is_extended_real:
        return f"{text} ≈ {sympy.N(value, 10)}"
    return text


#: Longest side shown in a message; longer ones keep their two ends.
_MAX_SHOWN = 200


def _shorten(text: str) -> str:
    """Cut a very long side (a 300-digit integer) to its ends."""
    if len(text) <= _MAX_SHOWN:
        return text
    return f"{text[:120]}...{text[-40:]} ({len(text)} characters)"
