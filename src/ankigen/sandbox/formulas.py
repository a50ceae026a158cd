"""A deck's ``formulas`` as plain data, and as functions again where sympy is not loaded.

A figure script runs in a fresh interpreter (``ankigen.sandbox.child``), so the
formulas it calls cross a process boundary as data: for a compiled formula the
Python function ``sympy.lambdify`` generated (its source text, its parameter
names, and the names it takes from ``math`` and ``builtins``), for one that
failed its name and error. The build calls a formula through the very same
rebuilt function (:class:`Formula`), so a figure's child and the build compute
the same numbers. Nothing here imports sympy: the child does not load it.
"""

from __future__ import annotations

import builtins
import math
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ankigen.errors import UncompiledFormula

__all__ = ["Formula", "FormulaCode", "formula_code", "formulas_from_wire", "formulas_to_wire"]

#: The only modules a formula's function may take names from (lambdify over ``math``).
_MODULES: dict[str, types.ModuleType] = {"math": math, "builtins": builtins}


@dataclass(frozen=True)
class FormulaCode:
    """A compiled formula as data: one Python function and where its names come from.

    ``source`` defines the function ``function``, which takes the values of
    ``parameters`` in order; ``names`` lists each global name it uses as
    (name, module, attribute), the attribute empty for the module itself.
    """

    name: str
    parameters: tuple[str, ...]
    source: str
    function: str
    names: tuple[tuple[str, str, str], ...]


def formula_code(
    name: str, parameters: tuple[str, ...], function: types.FunctionType
) -> FormulaCode:
    """The data of a generated ``function``; ValueError if it needs more than math and builtins."""
    import inspect  # only where formulas are compiled: the build, not the figure's child

    namespace = function.__globals__
    names = []
    for used in sorted(_global_names(function.__code__) & set(namespace)):
        if used.startswith("__"):
            continue
        module, attribute = _reference(namespace[used])
        names.append((used, module, attribute))
    return FormulaCode(
        name, parameters, inspect.getsource(function), function.__name__, tuple(names)
    )


def _global_names(code: types.CodeType) -> set[str]:
    """Every name ``code`` and the code nested in it (a generator) looks up."""
    found = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found |= _global_names(constant)
    return found


def _reference(value: object) -> tuple[str, str]:
    """(module, attribute) of ``value`` in math or builtins; ValueError if it is in neither."""
    for module_name, module in _MODULES.items():
        if value is module:
            return module_name, ""
        for attribute, candidate in vars(module).items():
            if candidate is value and not attribute.startswith("_"):
                return module_name, attribute
    raise ValueError(f"its function uses {value!r}, which is not in Python's math module")


class Formula:
    """A formula as a float function of its free symbols, called with keywords."""

    def __init__(self, code: FormulaCode) -> None:
        """Rebuild the function of ``code`` (its names from math and builtins only)."""
        self.code = code
        self.name = code.name
        self.parameters = code.parameters
        namespace: dict[str, Any] = {}
        for used, module, attribute in code.names:
            found = _MODULES[module]
            if attribute:
                if attribute.startswith("_"):
                    raise ValueError(f"formula {code.name!r} asks for {module}.{attribute}")
                found = getattr(found, attribute)
            namespace[used] = found
        exec(compile(code.source, f"<formula {code.name}>", "exec"), namespace)
        self._function: Callable[..., object] = namespace[code.function]

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


def formulas_to_wire(formulas: Mapping[str, Callable[..., float]]) -> list[dict[str, Any]]:
    """``formulas`` as JSON-ready data for a figure's child; TypeError for any other callable."""
    wire: list[dict[str, Any]] = []
    for name, formula in formulas.items():
        if isinstance(formula, Formula):
            code = formula.code
            wire.append(
                {
                    "name": name,
                    "parameters": list(code.parameters),
                    "source": code.source,
                    "function": code.function,
                    "names": [list(n) for n in code.names],
                }
            )
        elif isinstance(formula, UncompiledFormula):
            wire.append({"name": name, "line": formula.line, "problem": formula.problem})
        else:
            raise TypeError(f"formula {name!r} is {formula!r}, which a figure's process cannot get")
    return wire


def formulas_from_wire(wire: object) -> dict[str, Callable[..., float]]:
    """The formulas :func:`formulas_to_wire` sent, as functions again; ValueError if malformed."""
    if not isinstance(wire, list):
        raise ValueError("formulas must be a list")
    return dict(_from_wire(entry) for entry in wire)


def _from_wire(entry: object) -> tuple[str, Callable[..., float]]:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise ValueError("a formula must be an object with a name")
    name: str = entry["name"]
    if "problem" in entry:
        return name, UncompiledFormula(name, int(entry["line"]), str(entry["problem"]))
    names = tuple(_strings(n, 3) for n in entry["names"])
    if any(module not in _MODULES for _, module, _ in names):
        raise ValueError(f"formula {name!r} asks for a module other than math and builtins")
    code = FormulaCode(
        name,
        tuple(str(p) for p in entry["parameters"]),
        str(entry["source"]),
        str(entry["function"]),
        names,  # type: ignore[arg-type]
    )
    return name, Formula(code)


def _strings(values: object, count: int) -> tuple[str, ...]:
    if not isinstance(values, list) or len(values) != count:
        raise ValueError("a formula's name must be [name, module, attribute]")
    return tuple(str(v) for v in values)
