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

Speed: loading pint's registry costs about half a second, and most words
after a number on a card are no unit at all (``8 GPUs``, ``3 layers``). So a
word is first looked up among the names pint's own definition files could
make (every name in them, with any prefix they define and a plural ``s``),
read as text without importing pint; a word no such name makes cannot be a
unit, and pint is never loaded for it. The lookup only ever says "no unit"
where pint says so too (``tests/check/test_units_fast_path.py`` compares
them word by word); every other word goes to pint.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
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
    if not might_be_unit(unit):
        return None  # a word no name of pint's makes: pint is not loaded for it
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


#: A name in pint's definition files, and a prefix (a name followed by ``-``).
_NAME = re.compile(r"[^\W\d]\w*")
_PREFIX = re.compile(r"(?:^|(?<=[\s=]))([^\W\d]\w*)-(?=\s|$)", re.M)
#: Words of pint's unit grammar (``square meter``, ``meter per second``), not names.
_GRAMMAR = frozenset({"per", "square", "sq", "cubic", "squared", "cubed"})
#: What pint puts before the name of an offset unit to make its difference unit.
_DELTAS = ("delta_", "Δ")


def might_be_unit(unit: str) -> bool:
    """False when some word of ``unit`` is made of no name pint could know: then pint
    reads no unit in it either. True: pint decides."""
    names = _pint_names()
    if names is None:
        return True  # pint's files not found: pint decides every word
    known, prefixes = names
    return all(
        _made_of(word, known, prefixes)
        for word in re.findall(r"\w+", unit)
        if not any(ch.isdigit() for ch in word)  # ``m2``: left to pint's own reading
    )


def _made_of(word: str, known: frozenset[str], prefixes: frozenset[str]) -> bool:
    """Whether ``word`` is a prefix, a name and a plural ``s`` (each but the name optional),
    or such a word after ``delta_`` or ``Δ`` (pint makes those of each offset unit)."""
    if word in _GRAMMAR:
        return True
    for delta in _DELTAS:
        if word.startswith(delta) and _made_of(word[len(delta) :], known, prefixes):
            return True
    for prefix in prefixes:
        if word.startswith(prefix):
            rest = word[len(prefix) :]
            if rest in known or (rest.endswith("s") and rest[:-1] in known):
                return True
    return False


@cache
def _pint_names() -> tuple[frozenset[str], frozenset[str]] | None:
    """Every name in pint's definition files (and ours, ``_BITS``), and every prefix ("" too);
    None when the files cannot be read. More names than pint defines is safe: a word made
    of one goes to pint."""
    spec = importlib.util.find_spec("pint")
    if spec is None or spec.origin is None:
        return None
    texts = list(_BITS)
    try:
        for path in sorted(Path(spec.origin).parent.glob("*.txt")):
            texts.append(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError):
        return None
    lines = [line.split("#", 1)[0] for text in texts for line in text.splitlines()]
    text = "\n".join(lines)
    return frozenset(_NAME.findall(text)), frozenset({"", *_PREFIX.findall(text)})
