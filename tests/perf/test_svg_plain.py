"""The SVG allow-list's fast path for plain drawings gives exactly what the full path gives.

``sanitise_svg`` tries ``plain_svg`` first and falls back to the tree-based
allow-list (``_sanitised_tree``). Whatever the fast path returns must be
byte for byte what the full path writes, and wherever the full path refuses
a file the fast path must return nothing: checked on generated SVGs (plain
ones, and ones with every construct the fast path leaves alone), on the
hostile cases' SVGs and on mutations of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ankigen.render import _svg_plain as svg_plain
from ankigen.render import _svg_safety as svg_safety
from ankigen.render._svg_plain import plain_svg
from ankigen.render._svg_safety import CleanSvg, sanitise_svg

SVG_NS = "http://www.w3.org/2000/svg"
HOSTILE = Path(__file__).parents[1] / "hostile" / "cases"


def _agrees(data: bytes) -> bool:
    """Check one file; True when the fast path took it."""
    full = sanitise_svg(data)
    fast = plain_svg(data)
    utf8 = svg_safety._as_utf8(data)  # decoded by its declared encoding first
    if not isinstance(utf8, bytes) or svg_safety._DECLARATIONS.search(utf8):
        assert not isinstance(full, CleanSvg) and fast is None
        return False
    assert full == svg_safety._sanitised_tree(utf8)
    if fast is None:
        return False
    assert isinstance(full, CleanSvg), f"the fast path accepted what the full path refuses: {full}"
    assert fast == full.data
    return True


_SPACE = st.sampled_from([" ", " ", " ", "  ", "\n", "\t", " \n "])
_VALUES = st.sampled_from(
    ["1", "0.5", "#fff", "red", "", " ", "a b", "url(#g)", "url(x.png)", "a:b", "javascript:x",
     "@import", "-moz-binding", "\\75", "'", '"', ">", "<", "&amp;", "&#10;", "&lt;", "\t", "\n",
     "e\u0301", "é", "M0 0L1 1", "translate(1,2)", "x&#x9;y", "scale(1,-1)",
     "translate(220,394) scale(0.707)", "matrix(1 0 0 1 0 0)", "scale(1)url(x)",
     "rotate(1) image(x)", "translate(1,\t2)", "translate(1,2) ", "translate(1e)"]
)  # fmt: skip
_ATTRIBUTE_NAMES = st.sampled_from(
    ["x", "y", "width", "fill", "id", "d", "class", "style", "stroke-width", "href", "xlink:href",
     "onclick", "onload", "data-x", "xml:space", "inkscape:label", "xmlns", "xmlns:x", "foo", "x"]
)  # fmt: skip
_ELEMENT_NAMES = st.sampled_from(
    ["rect", "rect", "g", "g", "path", "text", "tspan", "title", "desc", "metadata", "style",
     "script", "image", "a", "use", "foreignObject", "set", "foo", "svg:rect", "x:rect", "defs",
     "linearGradient", "stop", "switch"]
)  # fmt: skip
_EMPTY = st.sampled_from(["/>", " />", "\n/>"])
_TEXTS = st.sampled_from(
    ["", "", "", " ", "\n", "hi", "a b", "a>b", "&lt;", "&amp;", "x\ty", "<!-- c -->",
     "<![CDATA[x]]>", "\r\n", "é", "<?pi x?>", "f(x): y", "\n  "]
)  # fmt: skip


@st.composite
def _attributes(draw: st.DrawFn, plain: bool) -> str:
    names = st.sampled_from(["x", "y", "width", "fill", "id", "d"]) if plain else _ATTRIBUTE_NAMES
    plain_values = ["1", "#fff", "M0 0", "", "translate(1,2)", "translate(3,4) scale(0.7)"]
    values = st.sampled_from(plain_values) if plain else _VALUES
    out = []
    for _ in range(draw(st.integers(0, 4))):
        space = " " if plain else draw(_SPACE)
        quote = '"' if plain else draw(st.sampled_from(['"', '"', "'"]))
        out.append(f"{space}{draw(names)}={quote}{draw(values)}{quote}")
    return "".join(out)


@st.composite
def _elements(draw: st.DrawFn, plain: bool, depth: int = 0) -> str:
    plain_names = st.sampled_from(["rect", "g", "path", "text", "title", "desc", "metadata"])
    name = draw(plain_names if plain else _ELEMENT_NAMES)
    head = f"<{name}{draw(_attributes(plain))}"
    tail = draw(st.sampled_from(["", "", "\n", " "]) if plain else _TEXTS)
    if depth >= 3 or draw(st.booleans()):
        return head + draw(st.sampled_from(["/>", " />", "/>"]) if plain else _EMPTY) + tail
    text = draw(st.sampled_from(["", "", "t", "\n "]) if plain else _TEXTS)
    children = "".join(draw(st.lists(_elements(plain, depth + 1), max_size=3)))
    return f"{head}>{text}{children}</{name}>{tail}"


_PROLOGS = st.sampled_from(
    ["", "", '<?xml version="1.0"?>\n', '<?xml version="1.0" encoding="UTF-8"?>',
     "<?xml version='1.0' encoding='latin-1'?>", '<?xml version="1.0" encoding="utf-16"?>',
     '<?xml-stylesheet href="a.css"?>', " ", "\n", '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
     '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">']
)  # fmt: skip
_ROOTS = st.sampled_from(
    [f'<svg xmlns="{SVG_NS}"', f'<svg xmlns="{SVG_NS}"', f"<svg xmlns='{SVG_NS}'", "<svg",
     f'<svg xmlns="{SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink"', '<svg xmlns="urn:x"',
     f'<svg\nxmlns="{SVG_NS}"', f'<g xmlns="{SVG_NS}"', f'<svg:svg xmlns:svg="{SVG_NS}"',
     f'<svgx xmlns="{SVG_NS}"', f'<svg-1 xmlns="{SVG_NS}"', f'<svg.a xmlns="{SVG_NS}"']
)  # fmt: skip


@st.composite
def _documents(draw: st.DrawFn) -> bytes:
    plain = draw(st.booleans())
    root = draw(st.sampled_from([f'<svg xmlns="{SVG_NS}"']) if plain else _ROOTS)
    root_name = root[1:].split()[0]
    attributes = draw(_attributes(plain))
    body = "".join(draw(st.lists(_elements(plain), max_size=5)))
    if draw(st.integers(0, 9)) == 0:
        close = "/>"
        body = ""
    else:
        text = draw(st.sampled_from(["", "", "t", "\n "]) if plain else _TEXTS)
        close = f">{text}{body}</{root_name}>"
    prolog = draw(st.sampled_from(["", '<?xml version="1.0"?>\n']) if plain else _PROLOGS)
    text = prolog + root + attributes + close + draw(st.sampled_from(["", "\n", " "]))
    data = text.encode("utf-8")
    if not plain and draw(st.integers(0, 7)) == 0:  # now and then, broken on purpose
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.sampled_from([b"", b"<", b"&", b'"', b"\x00", b"\xff"]))
    return data


@settings(max_examples=400, deadline=None)
@given(_documents())
@example(f'<svg xmlns="{SVG_NS}" width="4"><title>t</title>\n<rect x="1"/></svg>'.encode())
@example(f'<svg xmlns="{SVG_NS}"><g><title>t</title> </g><g> <desc/>x</g></svg>'.encode())
@example(f'<svg xmlns="{SVG_NS}">text only</svg>'.encode())
@example(f'<svg xmlns="{SVG_NS}">\n <rect/></svg>'.encode())
def test_the_fast_path_writes_what_the_full_allow_list_writes(data: bytes) -> None:
    _agrees(data)


def test_text_alone_in_the_root_is_closed_with_its_end_tag() -> None:
    data = f'<svg xmlns="{SVG_NS}" width="2">text only</svg>'.encode()
    assert _agrees(data)
    assert plain_svg(data) == (
        b"<?xml version='1.0' encoding='utf-8'?>\n"
        b'<svg xmlns="http://www.w3.org/2000/svg" width="2">text only</svg>'
    )


#: Plain documents whose dropped elements hold text only, and ones where they do not.
_FLAT_CASES = [
    f'<svg xmlns="{SVG_NS}" width="4"><title>t</title><rect x="1"/>\n</svg>\n',
    f'<svg xmlns="{SVG_NS}"><desc/>tail<g><title>t</title>x<rect/></g><rect/></svg>',
    f'<svg xmlns="{SVG_NS}"><g><title>t</title></g></svg>',
    f'<svg xmlns="{SVG_NS}"><title><desc>t</desc></title><rect/></svg>',
    f'<svg xmlns="{SVG_NS}"><title>t</title></svg>',
    f'<svg xmlns="{SVG_NS}"><g></g><rect/></svg>',
]


@settings(max_examples=300, deadline=None)
@given(_documents())
@example(_FLAT_CASES[0].encode())
def test_the_flat_writer_writes_what_the_walk_writes(data: bytes) -> None:
    fast = plain_svg(data)
    with patch.object(svg_plain, "_flat", lambda *_: None):  # every document walked
        assert plain_svg(data) == fast


@pytest.mark.parametrize("text", _FLAT_CASES)
def test_the_flat_writer_applies_where_it_says(text: str) -> None:
    data = text.encode()
    flat: list[bytes | None] = []
    real = svg_plain._flat

    def recording(*args: Any) -> bytes | None:
        flat.append(real(*args))
        return flat[-1]

    with patch.object(svg_plain, "_flat", recording):
        assert _agrees(data)
    applies = text in _FLAT_CASES[:2]
    assert flat and all((written is not None) == applies for written in flat)


def _hostile_svgs() -> list[bytes]:
    return [path.read_bytes() for path in sorted(HOSTILE.glob("*/content/**/*.svg"))]


@pytest.mark.parametrize("data", _hostile_svgs())
def test_the_hostile_cases_svgs_get_the_same_verdict(data: bytes) -> None:
    _agrees(data)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_hostile_svgs()), st.integers(0, 4000), st.sampled_from(
    [b"", b"<script/>", b'<rect onload="x"/>', b"<title>t</title>", b'<rect fill="url(x)"/>',
     b"<style>a{}</style>", b'<image href="x.png"/>', b"</svg>", b"<g>", b" ", b"&"]
))  # fmt: skip
def test_mutated_hostile_svgs_get_the_same_verdict(data: bytes, at: int, insert: bytes) -> None:
    plain = data.replace(b"<!--", b"<g>").replace(b"-->", b"</g>").replace(b"\r", b"")
    cut = min(at, len(plain))
    _agrees(plain[:cut] + insert + plain[cut:])


def test_a_plain_drawing_takes_the_fast_path() -> None:
    data = (
        f'<?xml version="1.0"?>\n<svg xmlns="{SVG_NS}" width="480" height="100">'
        '<title>figure 1</title><rect x="0" y="25" width="10" height="75" fill="#92adf9"/>'
        '<g id="a"><path d="M0 0L1 1"/></g><g></g></svg>\n'
    ).encode()
    assert _agrees(data)
    assert plain_svg(data) == (
        b"<?xml version='1.0' encoding='utf-8'?>\n"
        b'<svg xmlns="http://www.w3.org/2000/svg" width="480" height="100">'
        b'<rect x="0" y="25" width="10" height="75" fill="#92adf9" />'
        b'<g id="a"><path d="M0 0L1 1" /></g><g /></svg>'
    )


@pytest.mark.parametrize(
    "body",
    [
        b"<script>alert(1)</script>",
        b'<rect onclick="alert(1)"/>',
        b'<rect fill="url(https://example.org/p)"/>',
        b"<style>rect{background:url(x.png)}</style>",
        b'<use href="other.svg#x"/>',
        b"<image/>",
    ],
)
def test_what_the_allow_list_refuses_never_takes_the_fast_path(body: bytes) -> None:
    data = f'<svg xmlns="{SVG_NS}">'.encode() + body + b"</svg>"
    assert plain_svg(data) is None
    assert not isinstance(sanitise_svg(data), CleanSvg)


@pytest.mark.parametrize("name", [b"svgx", b"svg-1", b"svg.a", b"svg_"])
def test_a_root_that_only_starts_like_svg_is_refused(name: bytes) -> None:
    data = b"<" + name + b' xmlns="' + SVG_NS.encode() + b'"><rect/></' + name + b">"
    assert plain_svg(data) is None
    assert not isinstance(sanitise_svg(data), CleanSvg)


def test_a_mathjax_drawing_takes_the_fast_path() -> None:
    """MathJax sets a transform of numbers on most elements: the fast path takes those."""
    from ankigen.render._mathjax_engine import engine

    drawn = engine().draw(r"\frac{a}{b} + \sqrt{x^2}", display=True, time_limit=30)
    data = drawn.svg.encode()
    assert b'transform="translate(' in data
    assert _agrees(data)
