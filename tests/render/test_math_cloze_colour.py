"""A cloze inside a formula looks like a text cloze: its gap and its revealed part in colour.

Anki shows a text cloze's gap ``[...]`` and, on the back, the revealed words
in the ``.cloze`` colour. In image mode each card's front image draws its gap
in that colour, each card's back image its own cloze's part; the image shown
on cards of other numbers is all black.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path as Outline

from ankigen.diagnostics import Sink
from ankigen.model import Deck, Fragment, Item, ItemKind, Math, MathMode
from ankigen.render import MathRenderer, MediaCache, cloze_variants, math_cloze_html, render_formula
from ankigen.render import _mathtext_highlight as _highlight

COLOUR = b"#1f5fbf"


def _fills(svg: bytes) -> set[bytes]:
    """The fill colours of the glyph paths (a path without a style is black)."""
    fills = set()
    for path in re.findall(rb"<path [^>]*>", svg):
        style = re.search(rb'style="([^"]*)"', path)
        fill = re.search(rb"fill: ?(#[0-9a-f]{6}|none)", style.group(1)) if style else None
        fills.add(fill.group(1) if fill else b"#000000")
    return fills - {b"none"}


def test_variants_know_each_cards_gap_and_revealed_part() -> None:
    v = cloze_variants(r"{{c2::a::first}} + {{c1::b}} + {{c2::c}}")
    assert v.gaps == {1: (r"[\ldots]",), 2: (r"[\text{first}]", r"[\ldots]")}
    assert v.revealed == {1: ("b",), 2: ("a", "c")}


def test_only_the_highlighted_part_is_in_colour() -> None:
    v = cloze_variants(r"\eta_{new} = {{c1::k}}\,\eta_{base}")
    plain = render_formula(v.back, display=False)
    front = render_formula(v.fronts[1], display=False, highlight=v.gaps[1])
    back = render_formula(v.back, display=False, highlight=v.revealed[1])
    assert _fills(plain.svg) == {b"#000000"}
    assert _fills(front.svg) == {b"#000000", COLOUR}
    assert _fills(back.svg) == {b"#000000", COLOUR}
    assert back.width_em == plain.width_em  # the same layout, only coloured


def test_a_fraction_bar_inside_the_part_is_coloured_too() -> None:
    part = r"\frac{a}{b}"
    drawn = render_formula(f"x = {part}", display=True, highlight=[part])
    assert _fills(drawn.svg) == {b"#000000", COLOUR}
    # the black outline is "x =" alone: the bar went with the coloured fraction
    prop = FontProperties(size=100, math_fontfamily="stix")
    tex = r"x = \dfrac{a}{b}"
    marked = _highlight.marked_glyphs(tex, [r"\dfrac{a}{b}"], prop)
    black, coloured = _highlight.split_paths(f"${tex}$", prop, marked, 0.0)
    drawn_x = [
        np.asarray(p.vertices)[np.asarray(p.codes) != Outline.CLOSEPOLY, 0]
        for p in (black, coloured)
    ]
    assert drawn_x[0].max() < drawn_x[1].min()


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
