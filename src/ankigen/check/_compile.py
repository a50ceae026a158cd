"""Formulas for figures: each ``formulas`` name as a fast float function.

The function is compiled once with ``sympy.lambdify`` over the ``math``
module. Its arguments are dummies (``dummify=True``), so author names never
appear in the source text lambdify generates; callers pass the formula's
free symbols as keyword arguments. A list of values (``let device_counts =
[1, 2, 4, 8]``, format section 18) gives a tuple of floats, so a figure takes
its data from the deck rather than from numbers of its own.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy

from ._sympy import Context, Definition, build


class CompiledFormula:
    """A formula as a float function of its free symbols, called with keywords."""

    def __init__(self, name: str, expr: sympy.Expr) -> None:
        """Compile ``expr``; ``parameters`` lists its free symbols, sorted."""
        self.name = name
        self.expr = expr
        symbols = sorted(expr.free_symbols, key=str)
        self.parameters: tuple[str, ...] = tuple(str(s) for s in symbols)
        self._function: Callable[..., object] = sympy.lambdify(
            symbols, expr, modules="math", dummify=True
        )

    def __call__(self, **values: float) -> float:
        """Evaluate with every free symbol given by keyword, e.g. ``f(k=4, M=1.0)``."""
        missing = [p for p in self.parameters if p not in values]
        unknown = [v for v in values if v not in self.parameters]
        if missing or unknown:
            takes = ", ".join(self.parameters) or "no arguments"
            raise TypeError(
                f"formula {self.name!r} takes {takes}; missing: {', '.join(missing) or 'none'};"
                f" unexpected: {', '.join(unknown) or 'none'}"
            )
        result = self._function(*(values[p] for p in self.parameters))
        if isinstance(result, tuple | list):
            return tuple(float(item) for item in result)  # type: ignore[return-value]
        return float(result)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        """``<formula S(T_comm, T_compute, k) = ...>``."""
        return f"<formula {self.name}({', '.join(self.parameters)}) = {self.expr}>"


def compile_formula(definition: Definition) -> CompiledFormula:
    """Build a ``let`` of a formulas block and compile it; raises StatementError."""
    assert definition.value is not None
    expr = build(definition.value, definition.scope, Context())
    return CompiledFormula(definition.name, expr)
