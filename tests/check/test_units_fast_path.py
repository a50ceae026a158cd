"""The units look-up that spares loading pint says "no unit" only where pint says so too.

``check._units.might_be_unit`` reads pint's definition files as text; a word
it rules out never reaches pint. Here pint itself (``_factor``) reads every
word the look-up rules out, from every card text of the project's decks and
fixtures and from generated words: none may be a unit. And every unit, prefix
and alias pint defines must be let through.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.check import _units

ROOT = Path(__file__).resolve().parents[2]
#: A number, then the words after it: what a card's claim reads a unit from.
_AFTER_NUMBER = re.compile(r"\d\s*([^\W\d][\w/·^*]*(?: per \w+)?)")


def _card_words() -> set[str]:
    words: set[str] = set()
    for folder in ("content", "tests", "../shared/seed"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".md", ".txt"} and path.is_file():
                text = path.read_text("utf-8", errors="replace")
                words.update(_AFTER_NUMBER.findall(text))
    return words


@pytest.fixture(scope="module")
def registry() -> Any:
    return _units._registry()


def test_every_word_ruled_out_on_a_card_is_no_unit_to_pint() -> None:
    words = _card_words()
    ruled_out = sorted(w for w in words if not _units.might_be_unit(w))
    assert len(words) > 100 and len(ruled_out) > 20  # both kinds are there
    wrongly = [w for w in ruled_out if _units._factor(w) is not None]
    assert wrongly == []


def test_every_name_pint_defines_is_let_through(registry: Any) -> None:
    names: set[str] = set()
    for name, definition in registry._units.items():
        names.update({name, *getattr(definition, "aliases", ())})
        symbol = getattr(definition, "defined_symbol", None)
        if symbol:
            names.add(symbol)
    prefixes = [p for p in registry._prefixes if p]
    made = {prefix + name for prefix in prefixes for name in ("meter", "second", "byte", "bit")}
    words = {w for w in names | made | {n + "s" for n in names} if re.fullmatch(r"\w+", w)}
    assert len(words) > 1000
    assert sorted(w for w in words if not _units.might_be_unit(w)) == []


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="abcdeghiklmnoprstuvwxyzABGKMTµ", min_size=1, max_size=8),
    st.sampled_from(["", "s", "/s", " per second"]),
)
def test_a_generated_word_ruled_out_is_no_unit_to_pint(word: str, tail: str) -> None:
    unit = word + tail
    if not _units.might_be_unit(unit):
        assert _units._factor(unit) is None, unit
