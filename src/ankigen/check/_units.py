"""Units of quoted numbers (format section 18), read by the pint units library.

A number on a card may carry a unit (``500 ms``, ``10 Gb``, ``120 per
minute``); its value is the quantity in SI base units, so ``0.5 s`` and
``500 ms`` are one claim while ``10 Gb`` and ``10 GB``, or ``500 ms`` and
``500 µs``, are two. pint is loaded on first need, once per process.

Two adjustments, both about reading card text rather than physics: a word
that pint knows but that is ordinary English after a number (``4 links``,
``at``, ``a``, a lone letter that is usually a symbol such as ``k``) is not
a unit; and ``Gb``, ``Mb``, ``Tb``, ``kb`` are bits, as in every networking
text (pint reads them as gilberts and barns).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

__all__ = ["Quantity", "quantity"]

#: Words pint knows that, after a number on a card, are English (or a symbol), not units.
_ENGLISH = frozenset(
    [
        "a",
        "an",
        "at",
        "in",
        "as",
        "us",
        "are",
        "has",
        "is",
        "it",
        "on",
        "of",
        "or",
        "to",
        "by",
        "be",
        "per",
        "pi",
        "bar",
        "bars",
        "point",
        "points",
        "link",
        "links",
        "pixel",
        "pixels",
        "count",
        "counts",
        "unit",
        "units",
        "turn",
        "turns",
        "cycle",
        "cycles",
        "stone",
        "stones",
        "mass",
        "cup",
        "cups",
        "pint",
        "pints",
        "gauss",
        "mil",
        "mils",
        "ton",
        "tons",
        "gal",
        "foot",
        "feet",
    ]
)
#: One-letter unit symbols read as units; any other lone letter is a symbol (``k``, ``e``).
_LETTER_UNITS = frozenset("smgBKNJWVAh")
#: Networking writes bits with a lower-case b.
_BITS = ("kb = 1e3 * bit", "Mb = 1e6 * bit", "Gb = 1e9 * bit", "Tb = 1e12 * bit")
#: Denominators of SI factors written as decimals (``1/60`` of a minute).
_EXACTNESS = 10**12


@dataclass(frozen=True, slots=True)
class Quantity:
    """A value in SI base units and the base units' name (``second``, ``bit / second``)."""

    value: Fraction
    units: str


@cache
def _registry() -> Any:
    import pint

    registry: Any = pint.UnitRegistry(on_redefinition="ignore")
    for definition in _BITS:
        registry.define(definition)
    return registry


def quantity(value: Fraction, unit: str) -> Quantity | None:
    """``value`` of ``unit`` in SI units, or None when ``unit`` is no unit (``GPUs``)."""
    unit = " ".join(unit.split())
    if not unit or unit.lower() in _ENGLISH or (len(unit) == 1 and unit not in _LETTER_UNITS):
        return None
    factor = _factor(unit)
    return None if factor is None else Quantity(value * factor.value, factor.units)


@cache
def _factor(unit: str) -> Quantity | None:
    """One ``unit`` in SI base units, or None when pint does not read it as a unit."""
    registry = _registry()
    try:
        one = registry.parse_expression("1 " + unit) if unit.startswith("per ") else None
        if one is None:
            one = registry.Quantity(1, registry.parse_units(unit))
        base = one.to_base_units()
        magnitude = float(base.magnitude)
    except Exception:  # pint raises many kinds for text that is not a unit
        return None
    if str(base.units) == "dimensionless":
        return None  # a percent, a count: no unit to tell apart
    exact = Fraction(repr(magnitude)).limit_denominator(_EXACTNESS)
    return Quantity(exact, str(base.units))
