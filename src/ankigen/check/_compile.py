"""Formulas for figures: each ``formulas`` name as a fast float function.

The function is compiled once with ``sympy.lambdify`` over the ``math``
module. Its arguments are dummies (``dummify=True``), so author names never
appear in the source text lambdify generates; callers pass the formula's
free symbols as keyword arguments. A list of values (``let device_counts =
[1, 2, 4, 8]``, format section 18) gives a tuple of floats, so a figure takes
its data from the deck rather than from numbers of its own.
"""

from __future__ import annotations

import sympy

from ankigen.sandbox.formulas import Formula, formula_code

from ._sympy import Context, Definition, build


class CompiledFormula(Formula):
    """A formula as a float function of its free symbols, called with keywords.

    The function ``sympy.lambdify`` generates is kept as data
    (``ankigen.sandbox.formulas``), so a figure's process, which has no
    sympy, calls the same function.
    """

    def __init__(self, name: str, expr: sympy.Expr) -> None:
        """Compile ``expr``; ``parameters`` lists its free symbols, sorted.

        ValueError if the generated function needs more than Python's ``math``.
        """
        self.expr = expr
        symbols = sorted(expr.free_symbols, key=str)
        function = sympy.lambdify(symbols, expr, modules="math", dummify=True)
        super().__init__(formula_code(name, tuple(str(s) for s in symbols), function))

    def __repr__(self) -> str:
        """``<formula S(T_comm, T_compute, k) = ...>``."""
        return f"<formula {self.name}({', '.join(self.parameters)}) = {self.expr}>"


def compile_formula(definition: Definition) -> CompiledFormula:
    """Build a ``let`` of a formulas block and compile it; raises StatementError."""
    assert definition.value is not None
    expr = build(definition.value, definition.scope, Context())
    return CompiledFormula(definition.name, expr)
