"""Parser golden tests: each fixture file is one scenario.

For ``fixtures/<name>.md`` the parsed deck (items, fields, tags, checks) and
its diagnostics (each with its code) are dumped as text and compared with
``fixtures/<name>.golden``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.model import SLOT, Deck, Fragment
from ankigen.parse import parse_file
from tests.conftest import compare_golden

FIXTURES = Path(__file__).parent / "fixtures"


def dump_fragment(label: str, fragment: Fragment) -> list[str]:
    """A readable form of a fragment: slots shown as [m0], [i0]."""
    text = fragment.html.replace(SLOT, "|")
    lines = [f"  {label}: {text!r}"]
    lines += [
        f"    math {i}: {m.tex!r} display={m.display} line={m.line}"
        for i, m in enumerate(fragment.maths)
    ]
    lines += [
        f"    image {i}: {r.target!r} alt={r.alt!r} line={r.line}"
        for i, r in enumerate(fragment.images)
    ]
    return lines


def dump_deck(deck: Deck | None) -> list[str]:
    """Every field of every item, in order."""
    if deck is None:
        return ["deck: none"]
    lines = [f"deck: {deck.name!r} key={deck.key!r} math={deck.math.value} tags={list(deck.tags)}"]
    lines += [f"formulas at line {b.line}: {b.text!r}" for b in deck.formulas]
    for item in deck.items:
        lines.append(
            f"item line {item.line}: {item.kind.value} id={item.note_id} "
            f"tags={list(item.tags)} subdeck={item.subdeck}"
        )
        if item.context is not None:
            lines.append(f"  context: {item.context!r}")
        lines += dump_fragment("front", item.front)
        lines += dump_fragment("back", item.back)
        lines += [f"  check at line {c.line}: {c.text!r}" for c in item.checks]
    return lines


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.md")), ids=lambda p: p.stem)
def test_fixture(fixture: Path) -> None:
    result = parse_file(fixture, FIXTURES, fixture.name)
    lines = dump_deck(result.deck)
    lines.append("diagnostics:")
    lines += [f"  {d.format()}  [{d.code}]" for d in result.diagnostics]
    compare_golden("\n".join(lines) + "\n", fixture.with_suffix(".golden"))
