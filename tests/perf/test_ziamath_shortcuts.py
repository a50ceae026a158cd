"""ankigen's copies of two ziamath hot spots answer exactly as ziamath's own code.

``render/_ziamath_copy.py``: ``size_px`` (ziamath's tables built once) must
give the same number, or fail the same way, for any size text; ``copied``
must give the tree ``ET.fromstring(ET.tostring(e))`` gives, or fail as it
fails. The images drawn both ways are compared in
``tests/render/test_ziamath_styles.py``.
"""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.render import _ziamath_copy as ziamath_copy
from ankigen.render import _ziamath_styles as ziamath_styles

with warnings.catch_warnings():  # ziamath 0.13 uses importlib.resources.path
    warnings.simplefilter("ignore", DeprecationWarning)
    from ziamath.nodes.mnode import Mnode

_SIZE_PIECES = st.sampled_from(
    ["thinmathspace", "negativemediummathspace", "verythickmathspace", "1", "0.5", "-2", "em",
     "ex", "mu", "px", "pt", "in", "cm", "zz", ".", "e3", "inf", "nan", " ", "p", "x", "1e"]
)  # fmt: skip
_SIZES = st.one_of(st.text(max_size=8), st.lists(_SIZE_PIECES, max_size=3).map("".join))


def _outcome(call: Any) -> tuple[str, object]:
    try:
        value = call()
    except Exception as exc:  # the same failure is part of the same answer
        return ("raised", type(exc))
    return ("nan", None) if value != value else ("value", value)


@settings(max_examples=400, deadline=None)
@given(_SIZES, st.none() | st.floats(0.5, 40))
def test_size_px_is_ziamaths(size: str, fontsize: float | None) -> None:
    ziamath_styles.install()
    original = ziamath_copy.ORIGINALS["size_px"]
    node = SimpleNamespace(glyphsize=12.5)
    ours = _outcome(lambda: ziamath_copy.size_px(node, size, fontsize))
    assert ours == _outcome(lambda: original(node, size, fontsize))
    assert Mnode.size_px is ziamath_copy.size_px


_TEXTS = st.none() | st.sampled_from(["", " ", "x", "10", "\n", "a\rb", "\x01", "é", "∑", "\t"])


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> ET.Element:
    tag = draw(st.sampled_from(["mi", "mo", "mn", "mrow", "mfrac", "mspace"]))
    attributes = draw(
        st.dictionaries(st.sampled_from(["width", "stretchy", "mathvariant"]), _TEXTS.map(str))
    )
    element = ET.Element(tag, attributes)
    element.text = draw(_TEXTS)
    element.tail = draw(st.none() | st.sampled_from(["", " ", "\n", "junk"]))
    if depth < 3:
        for _ in range(draw(st.integers(0, 3))):
            element.append(draw(_trees(depth + 1)))
    if depth and draw(st.integers(0, 15)) == 0:
        element.append(ET.Comment("c"))
    return element


def _shape(element: ET.Element) -> object:
    return (
        element.tag,
        list(element.attrib.items()),
        element.text,
        element.tail,
        [_shape(child) for child in element],
    )


@settings(max_examples=400, deadline=None)
@given(_trees())
def test_copied_is_the_xml_round_trip(element: ET.Element) -> None:
    def round_trip() -> object:
        return _shape(ET.fromstring(ET.tostring(element)))

    assert _outcome(lambda: _shape(ziamath_copy.copied(element))) == _outcome(round_trip)


def test_a_copy_is_independent_of_its_element() -> None:
    element = ET.fromstring("<mrow><mi>x</mi><mo>+</mo></mrow>")
    duplicate = ziamath_copy.copied(element)
    duplicate[0].text = "y"
    assert element[0].text == "x"
