"""A cloze inside a formula looks like a text cloze: its gap and its revealed part in colour.

Anki shows a text cloze's gap ``[...]`` and, on the back, the revealed words
in the ``.cloze`` colour. In image mode each card's front image draws its gap
in that colour, each card's back image its own cloze's part; the image shown
on cards of other numbers is all black. MathJax draws them: the part is
wrapped in the cloze colour (and bold) before drawing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ankigen.diagnostics import Sink
from ankigen.model import Deck, Fragment, Item, ItemKind, Math, MathMode
from ankigen.render import MathRenderer, MediaCache, cloze_variants, math_cloze_html, render_formula

COLOUR = b"#1f5fbf"
_SVG = "{http://www.w3.org/2000/svg}"


def _fills(svg: bytes) -> set[bytes]:
    """The fill colours of the groups of the image (its ink is black)."""
    return set(re.findall(rb'fill="(#[0-9a-f]{6})"', svg))


def _coloured_groups(svg: bytes) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{_SVG}g") if g.get("fill") == COLOUR.decode()]


def test_only_the_highlighted_part_is_in_colour() -> None:
    tex = r"\eta_{new} = {{c1::k}}\,\eta_{base}"
    plain = render_formula(cloze_variants(tex).back, display=False)
    front = render_formula(tex, display=False, card=1, hide=True)
    back = render_formula(tex, display=False, card=1)
    assert _fills(plain.svg) == {b"#000000"}
    assert _fills(front.svg) == {b"#000000", COLOUR}
    assert _fills(back.svg) == {b"#000000", COLOUR}
    # one coloured group: the gap's brackets and dots, or the revealed k alone
    assert len(_coloured_groups(front.svg)) == len(_coloured_groups(back.svg)) == 1
    assert len(list(_coloured_groups(back.svg)[0].iter(f"{_SVG}path"))) == 1


def test_other_clozes_of_the_card_are_black() -> None:
    tex = r"{{c1::a}} + {{c2::b}}"
    for card in (1, 2):
        for hide in (True, False):
            drawn = render_formula(tex, display=False, card=card, hide=hide)
            assert len(_coloured_groups(drawn.svg)) == 1


def test_a_fraction_bar_inside_the_part_is_coloured_too() -> None:
    drawn = render_formula(r"x = {{c1::\frac{a}{b} }}", display=True, card=1)
    (group,) = _coloured_groups(drawn.svg)
    assert list(group.iter(f"{_SVG}rect"))  # the bar went with the coloured fraction
    root = ET.fromstring(drawn.svg)
    assert len(list(root.iter(f"{_SVG}rect"))) == 1


def test_html_gives_every_card_its_own_front_and_back(tmp_path: Path) -> None:
    tex = r"{{c1::a}} + {{c2::b}}"
    math = Math(tex, False, 1)
    item = Item(
        ItemKind.CLOZE,
        1,
        Fragment("\x00m0\x00", (math,)),
        Fragment(""),
        "guid",
        None,
        (),
        None,
    )
    deck = Deck(tmp_path / "d.md", "d.md", tmp_path, "D", "d", MathMode.IMAGE, (item,))
    cache = MediaCache(tmp_path / "cache")
    renderer = MathRenderer(cache)
    sink = Sink("d.md")
    renderer.prepare(deck, sink)
    renderer.draw_pending()
    renderer.report_undrawn()
    assert sink.diagnostics == []
    html, media = renderer.html(math, MathMode.IMAGE, cloze=True)
    clozes = re.findall(
        r"\{\{c(\d)::<img[^>]*src=\"([^\"]+)\"[^>]*>::<img[^>]*src=\"([^\"]+)\"", html
    )
    assert [n for n, _, _ in clozes] == ["1", "2"]
    all_copy = re.search(r'<span class="ag-mc-all"><img[^>]*src="([^"]+)"', html)
    assert all_copy is not None
    names = {name for _, back, front in clozes for name in (back, front)} | {all_copy.group(1)}
    assert len(names) == 5  # two fronts, two coloured backs, one plain copy
    svgs = {file.name: file.read() for file in media}
    assert _fills(svgs[all_copy.group(1)]) == {b"#000000"}
    for _, back, front in clozes:
        assert COLOUR in svgs[back] and COLOUR in svgs[front]


def test_math_cloze_html_takes_a_back_per_card() -> None:
    out = math_cloze_html("<img src=b>", {1: "<img src=f1>"}, {1: "<img src=b1>"})
    assert out == (
        '<span class="ag-mc">{{c1::<img src=b1>::<img src=f1>}}'
        '<span class="ag-mc-all"><img src=b></span></span>'
    )
