"""Proof with the real ``anki`` package that cloze-in-math works in image mode.

A genanki deck with clozed formulas (field HTML from ``math_cloze_html``) is
imported into a throw-away collection the way Anki's desktop import dialog
does it; every card's front and back as Anki renders them are checked for
which formula image stays visible under card.css: by a small evaluator of the
few card.css rules involved, and, when Chromium is installed, by a real
browser's layout of the rendered card.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ankigen.render import (
    cloze_variants,
    formula_img_html,
    math_cloze_html,
    render_formula,
)
from tests import chromium

anki_collection = pytest.importorskip("anki.collection")
genanki = pytest.importorskip("genanki")

CSS = (Path(__file__).resolve().parents[2] / "src/ankigen/package/card.css").read_text("utf-8")


# --- building the deck ------------------------------------------------------


@dataclass
class Media:
    """Rendered images by file name, and which TeX each one shows."""

    files: dict[str, bytes] = field(default_factory=dict)
    tex: dict[str, str] = field(default_factory=dict)

    def img(self, tex: str, *, display: bool = False) -> str:
        rendered = render_formula(tex, display=display)
        name = "ag-" + hashlib.sha256(rendered.svg).hexdigest()[:16] + ".svg"
        self.files[name] = rendered.svg
        self.tex[name] = tex
        return formula_img_html(name, rendered, display=display, alt=tex)

    def formula(self, tex: str) -> str:
        """Field HTML for one inline formula that may hold clozes."""
        variants = cloze_variants(tex)
        if not variants.fronts:
            return self.img(tex)
        fronts = {n: self.img(t) for n, t in variants.fronts.items()}
        return math_cloze_html(self.img(variants.back), fronts)


ETA = r"\eta_{new} = {{c1::k}}\,\eta_{base}"
TWO = r"S = {{c1::\frac{T_{compute} }{k} }} + {{c2::T_{comm}::cost}}"
MIXED_TEX = r"x = {{c2::k}}"


def build_deck(tmp: Path) -> tuple[Path, Media, dict[str, str]]:
    media = Media()
    texts = {
        "eta": f"Scaling rule: {media.formula(ETA)}",
        "two": f"Speedup: {media.formula(TWO)}",
        "mixed": f"{{{{c1::Plain}}}} words, then {media.formula(MIXED_TEX)}",
    }
    model = genanki.Model(
        1_607_392_319,
        "ankigen Cloze test",
        fields=[{"name": "Text"}, {"name": "Extra"}, {"name": "Source"}],
        templates=[
            {"name": "Cloze", "qfmt": "{{cloze:Text}}", "afmt": "{{cloze:Text}}<br>{{Extra}}"}
        ],
        css=CSS,
        model_type=genanki.Model.CLOZE,
    )
    deck = genanki.Deck(2_059_400_110, "math cloze proof")
    for key, text in texts.items():
        deck.add_note(genanki.Note(model=model, fields=[text, "", key], guid=key))
    paths = []
    for name, data in media.files.items():
        (tmp / name).write_bytes(data)
        paths.append(str(tmp / name))
    out = tmp / "proof.apkg"
    genanki.Package(deck, media_files=paths).write_to_file(str(out))
    return out, media, texts


@dataclass(frozen=True)
class Side:
    note: str
    ord: int
    front: bool
    html: str


@pytest.fixture(scope="module")
def imported() -> Iterator[tuple[list[Side], Media, Path]]:
    tmp = Path(tempfile.mkdtemp(prefix="ag_mathcloze_"))
    try:
        apkg, media, _ = build_deck(tmp)
        col = anki_collection.Collection(str(tmp / "collection.anki2"))
        try:
            opts = col._backend.get_import_anki_package_presets()  # desktop dialog defaults
            col.import_anki_package(
                anki_collection.ImportAnkiPackageRequest(package_path=str(apkg), options=opts)
            )
            sides: list[Side] = []
            for cid in sorted(col.find_cards("")):
                card = col.get_card(cid)
                guid = card.note().guid
                sides.append(Side(guid, card.ord + 1, True, card.question()))
                sides.append(Side(guid, card.ord + 1, False, card.answer()))
            media_dir = Path(col.media.dir())
            yield sides, media, media_dir
        finally:
            col.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --- a tiny evaluator of the card.css rules that decide visibility ----------


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Node("root", {})
        self.cur = self.root
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "style":
            self.in_style = True
            return
        node = Node(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in ("img", "br", "hr"):
            self.cur = node

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self.in_style = False
        elif tag not in ("img", "br", "hr") and self.cur.parent is not None:
            self.cur = self.cur.parent


def _hidden(node: Node) -> bool:
    """display:none by the card.css rules for .ag-mc (checked against card.css below)."""
    n: Node | None = node
    while n is not None:
        ancestors = []
        a = n.parent
        while a is not None:
            ancestors.append(a)
            a = a.parent
        in_mc = any("ag-mc" in x.classes for x in ancestors)
        if in_mc and "cloze-inactive" in n.classes:
            return True  # .ag-mc .cloze-inactive
        if in_mc and "ag-mc-all" in n.classes and n.parent is not None:
            before = n.parent.children[: n.parent.children.index(n)]
            if any("cloze" in s.classes for s in before):
                return True  # .ag-mc .cloze ~ .ag-mc-all
        n = n.parent
    return False


def visible_images(side_html: str) -> list[str]:
    tree = _Tree()
    tree.feed(side_html)
    out: list[str] = []

    def walk(n: Node) -> None:
        for c in n.children:
            if c.tag == "img" and not _hidden(c):
                out.append(c.attrs["src"])
            walk(c)

    walk(tree.root)
    return out


def test_card_css_has_the_rules_the_evaluator_assumes() -> None:
    flat = re.sub(r"\s+", " ", CSS)
    assert ".ag-mc .cloze-inactive { display: none; }" in flat
    assert ".ag-mc .cloze ~ .ag-mc-all { display: none; }" in flat
    assert ".ag-mc .cloze[data-cloze] { font-size: 0; }" in flat


# --- the proof --------------------------------------------------------------


def _shows(media: Media, side: Side) -> list[str]:
    return [media.tex[src] for src in visible_images(side.html)]


def test_anki_makes_one_card_per_cloze_number(imported: tuple[list[Side], Media, Path]) -> None:
    sides, _, _ = imported
    cards = sorted({(s.note, s.ord) for s in sides})
    assert cards == [("eta", 1), ("mixed", 1), ("mixed", 2), ("two", 1), ("two", 2)]


def test_front_hides_only_the_active_cloze(imported: tuple[list[Side], Media, Path]) -> None:
    sides, media, _ = imported
    shown = {(s.note, s.ord, s.front): _shows(media, s) for s in sides}
    eta_back = r"\eta_{new} = k\,\eta_{base}"
    two_back = r"S = \frac{T_{compute} }{k}  + T_{comm}"
    assert shown["eta", 1, True] == [r"\eta_{new} = {[\ldots]}\,\eta_{base}"]
    assert shown["eta", 1, False] == [eta_back]
    assert shown["two", 1, True] == [r"S = {[\ldots]} + T_{comm}"]
    assert shown["two", 2, True] == [r"S = \frac{T_{compute} }{k}  + {[\text{cost}]}"]
    assert shown["two", 1, False] == [two_back]
    assert shown["two", 2, False] == [two_back]
    # card 1 of "mixed" clozes only the words: its formula shows whole on both sides
    assert shown["mixed", 1, True] == ["x = k"]
    assert shown["mixed", 1, False] == ["x = k"]
    assert shown["mixed", 2, True] == ["x = {[\\ldots]}"]
    assert shown["mixed", 2, False] == ["x = k"]


def test_real_cloze_markup_as_expected(imported: tuple[list[Side], Media, Path]) -> None:
    """The hint HTML reaches the card unescaped, between Anki's brackets."""
    sides, _, _ = imported
    front = next(s for s in sides if s.note == "eta" and s.front)
    assert re.search(r'<span class="cloze" data-cloze="[^"]*" data-ordinal="1">\[<img ', front.html)
    back = next(s for s in sides if s.note == "eta" and not s.front)
    assert "[" not in back.html.split("</style>")[-1]
    mixed = next(s for s in sides if s.note == "mixed" and s.ord == 1 and s.front)
    assert '<span class="cloze" data-cloze="Plain" data-ordinal="1">[...]</span>' in mixed.html


def test_alt_text_cannot_break_the_cloze() -> None:
    media = Media()
    out = media.formula(r"{{c1::\frac{a}{b} }} = x::y")
    assert out.count("{{c1::") == 1 and out.count("}}") == 1
    with pytest.raises(ValueError):
        math_cloze_html("<img alt='}}'>", {1: "<img>"})


# --- the same proof in a real browser ----------------------------------------

_CHROMIUM = chromium.CHROMIUM

_PROBE = """<script>
addEventListener('load', () => {
  const out = [...document.querySelectorAll('img')].map(i => {
    const r = i.getBoundingClientRect();
    const s = i.closest('.cloze[data-cloze]');
    return {src: i.getAttribute('src'), w: r.width, h: r.height,
            span: s ? s.getBoundingClientRect().width : null};
  });
  document.body.setAttribute('data-probe', JSON.stringify(out));
});
</script>"""


@pytest.mark.skipif(_CHROMIUM is None, reason="chromium not installed")
def test_browser_shows_only_the_expected_image(
    imported: tuple[list[Side], Media, Path],
) -> None:
    sides, media, media_dir = imported
    chosen = [s for s in sides if s.note == "two"]
    pages = []
    for i, side in enumerate(chosen):
        page = media_dir / f"probe{i}.html"
        page.write_text(
            f'<!doctype html><html><body class="card card{side.ord}">{side.html}{_PROBE}'
            "</body></html>",
            "utf-8",
        )
        pages.append(page)
    assert _CHROMIUM is not None  # the test is skipped without it
    for side, page in zip(chosen, pages, strict=True):
        probe = chromium.measure(page)
        seen = [p for p in probe if p["w"] > 0 and p["h"] > 0]
        assert [media.tex[p["src"]] for p in seen] == _shows(media, side)
        for p in seen:
            if p["span"] is not None:
                # front: the brackets take no room (only the image's 0.05em side margins;
                # a visible "[" alone would add about 6 px at the 20 px card font)
                assert 0 <= p["span"] - p["w"] < 3.0, p
