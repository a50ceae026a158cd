"""Properties of the SVG sanitiser's fast paths: each agrees with the slow path it skips.

- an attribute value the CSS pre-filter lets through is one ``_check_css`` accepts;
- the bytes written via a string are those of ElementTree's own UTF-8 writer;
- the specialised writer writes what ElementTree writes, or leaves the tree to it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.render import _svg_css as svg_css
from ankigen.render import _svg_safety as svg_safety
from ankigen.render._svg_safety import SVG, XLINK, CleanSvg, sanitise_svg

_CSS_PIECES = st.sampled_from(
    ["url(", "URL (", "#a)", "@import", "@IMPORT", "expression(", "expression (", "javascript:",
     "JavaScript:", "behavior:", "behavior :", "-moz-binding", "-MOZ-binding", "<", "\\", ":",
     "(", ")", "'", '"', " ", "#12ab", "10", "fill", "u", "r", "l", "İ", "K"]
)  # fmt: skip
_CSS_TEXT = st.one_of(st.text(max_size=30), st.lists(_CSS_PIECES, max_size=12).map("".join))


def _refused(text: str) -> bool:
    try:
        svg_safety._check_css(text, "a test value")
    except svg_safety._Refused:
        return True
    return False


@settings(max_examples=500, deadline=None)
@given(_CSS_TEXT)
def test_a_value_the_prefilter_skips_is_one_the_css_check_accepts(text: str) -> None:
    if svg_css.CSS_SUSPECT.search(text) is None:
        assert not _refused(text)


@pytest.mark.parametrize("text", ["url(x.png)", "@import 'a'", "-moz-binding", "a<b", "\\75rl("])
def test_the_prefilter_passes_every_dangerous_value_on_to_the_check(text: str) -> None:
    assert svg_css.CSS_SUSPECT.search(text) is not None
    assert _refused(text)


_XML_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
    | st.sampled_from(["\n", "\t", "\r", "&", "<", ">", '"', "'"]),
    max_size=12,
)
_NAMES = st.sampled_from(["rect", "g", "path", "text", "title", "style"])
_ATTRS = st.dictionaries(
    st.sampled_from(["x", "fill", "id", "d", f"{{{XLINK}}}href", "data-x"]), _XML_TEXT, max_size=4
)


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> ET.Element[Any]:
    if depth and draw(st.integers(0, 9)) == 0:  # now and then what only ElementTree writes
        unusual = draw(st.sampled_from(["comment", "foreign"]))
        node = ET.Comment("c") if unusual == "comment" else ET.Element("{urn:x}y")
        node.tail = draw(st.none() | _XML_TEXT)
        return node
    root = ET.Element(f"{{{SVG}}}{'svg' if depth == 0 else draw(_NAMES)}", draw(_ATTRS))
    root.text = draw(st.none() | _XML_TEXT)
    root.tail = None if depth == 0 else draw(st.none() | _XML_TEXT)
    if depth < 3:
        for _ in range(draw(st.integers(0, 3))):
            root.append(draw(_trees(depth + 1)))
    return root


@settings(max_examples=200, deadline=None)
@given(_trees())
def test_serialising_through_a_string_gives_elementtrees_utf8_bytes(root: ET.Element) -> None:
    expected = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    written = (svg_safety._XML_DECLARATION + ET.tostring(root, encoding="unicode")).encode()
    assert written == expected


@settings(max_examples=300, deadline=None)
@given(_trees())
def test_the_specialised_writer_writes_what_elementtree_writes(root: ET.Element) -> None:
    written = svg_safety._serialised(root)
    if written is not None:
        assert written == ET.tostring(root, encoding="unicode")


def test_the_specialised_writer_leaves_comments_and_foreign_elements_to_elementtree() -> None:
    root = ET.Element(f"{{{SVG}}}svg")
    root.append(ET.Comment("kept inside a raster image"))
    assert svg_safety._serialised(root) is None
    root = ET.Element(f"{{{SVG}}}svg")
    ET.SubElement(root, f"{{{SVG}}}use", {f"{{{XLINK}}}href": "#a", "x": 'a"\n&'})
    assert svg_safety._serialised(root) == ET.tostring(root, encoding="unicode")


def test_a_sanitised_svg_is_what_elementtree_writes_for_the_cleaned_tree() -> None:
    source = (
        f'<svg xmlns="{SVG}" xmlns:xlink="{XLINK}" width="4"><title>t</title>'
        '<rect fill="#fff" data-x="x" style="fill:url(#g)"/><use xlink:href="#r"/>'
        "<text>é &amp; ü</text></svg>"
    ).encode()
    root = ET.fromstring(source)
    svg_safety._clean(root)
    cleaned = sanitise_svg(source)
    assert isinstance(cleaned, CleanSvg)
    assert cleaned.data == ET.tostring(root, encoding="utf-8", xml_declaration=True)
