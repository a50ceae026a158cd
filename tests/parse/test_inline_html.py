"""Format §16, inline HTML through the allow-list: golden fixtures under ``inline_html/``.

Each ``inline_html/<name>.md`` is parsed; its items (as ``test_fixtures`` dumps
them) and its diagnostics are compared with ``inline_html/<name>.golden``:
every allowed element, hostile attributes on allowed elements, ``<img>`` of a
local file and of a URL, script and style refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import parse_file
from ankigen.parse.inline_html import judge_run
from tests.conftest import compare_golden
from tests.parse.test_fixtures import dump_deck

FIXTURES = Path(__file__).parent / "inline_html"


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.md")), ids=lambda p: p.stem)
def test_inline_html(fixture: Path) -> None:
    result = parse_file(fixture, FIXTURES, fixture.name)
    lines = dump_deck(result.deck)
    lines.append("diagnostics:")
    lines += [f"  {d.format()}  [{d.code}]" for d in result.diagnostics]
    compare_golden("\n".join(lines) + "\n", fixture.with_suffix(".golden"))


@pytest.mark.parametrize(
    "tag",
    [
        "<b onclick=x>",
        '<b style="x">',
        "<B ONCLICK='x'>",
        '<b\nonload="x">',
        "<b/onload=x>",
        '<b title="[sound:a.mp3] {{c1::x}}">',  # found by the fuzz test: a generic attribute
        '<b lang="en">',
    ],
)
def test_no_event_handler_or_style_survives_on_an_allowed_element(tag: str) -> None:
    opening, closing = judge_run([tag, "</b>"])
    assert opening is not None and opening.html == "<b>"
    assert closing is not None and closing.html == "</b>"


def test_an_attribute_value_is_inert_for_anki() -> None:
    (verdict, _) = judge_run(['<abbr title="{{c1::x}} [sound:y]">', "</abbr>"])
    assert verdict is not None
    assert "{{" not in verdict.html and "[sound:" not in verdict.html
