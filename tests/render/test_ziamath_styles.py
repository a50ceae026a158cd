"""ziamath draws the same images with ankigen's shortcuts as with its own code.

``render/_ziamath_styles.py`` swaps ziamath's per-node deep copy of a style
for a shallow dict, and ``_ziamath_copy`` its ``size_px`` and its measuring
copy of a row (issue 12). On a gallery of what goes to ziamath (big
operators, braces, matrices, cases, boxes, arrows, styled letters, colour
and size attributes) the SVG bytes must be the same both ways.
"""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from collections import ChainMap
from dataclasses import asdict

import pytest

from ankigen.render import _ziamath_copy as ziamath_copy
from ankigen.render import _ziamath_styles as ziamath_styles
from ankigen.render._formula_drawing import render_formula

with warnings.catch_warnings():  # ziamath 0.13 uses importlib.resources.path
    warnings.simplefilter("ignore", DeprecationWarning)
    from ziamath import styles
    from ziamath.nodes.mnode import Mnode
    from ziamath.nodes.mrow import Mrow

GALLERY = [
    (r"\sum_{i=1}^{k} g_i", True),
    (r"\sum_{i=1}^{k} g_i", False),
    (r"\int_0^1 \mathrm{d}x = 1", True),
    (r"\prod_{j} \left(1 - p_j\right)", False),
    (r"T \approx \underbrace{\alpha \log_2 k}_{\text{latency}} + \frac{M}{\beta}", True),
    (r"\overbrace{a + b}^{n}", False),
    (r"\begin{bmatrix} a & b \\ c & d \end{bmatrix}", True),
    (r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases}", True),
    (r"\boxed{E = mc^2}", False),
    (r"\mathbf{x} \xrightarrow{f} \mathcal{Y}, \ \mathbb{R}^n", False),
    (r"\sum_{n=0}^{\infty} \frac{x^n}{n!} = e^x", True),
    (r"\sum_{i} \left( \frac{a_i}{b} \right)^{2} \, \; \quad \! x", True),
    (r"\underbrace{\left\{ \frac{1}{2} \middle| x \right\}}_{\mathrm{set}}", False),
    (r"\begin{pmatrix} \frac{1}{2} & \sqrt{x} \\ 10^{-3} & \hat{y} \end{pmatrix}", True),
    (r"\boxed{\int_{0}^{\infty} e^{-x^{2}} \, dx = \frac{\sqrt{\pi}}{2}}", True),
]


def _drawn() -> list[bytes]:
    return [render_formula(tex, display=display).svg for tex, display in GALLERY]


def test_same_images_with_and_without_the_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ziamath_styles.install()
    assert styles.asdict is ziamath_styles._shallow_fields  # type: ignore[attr-defined]
    assert Mnode.size_px is ziamath_copy.size_px
    shallow = _drawn()
    # ziamath's own code: its originals back, and no reinstalling on the next draw
    monkeypatch.setattr(styles, "asdict", asdict)
    monkeypatch.setattr(styles, "ChainMap", ChainMap)
    monkeypatch.setattr(Mnode, "size_px", ziamath_copy.ORIGINALS["size_px"])
    monkeypatch.setattr(
        Mrow, "_get_height_nostretch", ziamath_copy.ORIGINALS["height_without_stretch"]
    )
    monkeypatch.setattr(ziamath_styles, "install", lambda: False)
    assert _drawn() == shallow


def test_lookup_is_the_chain_map_lookup() -> None:
    parent = styles.MathStyle(mathcolor="red", scriptlevel=1)
    element = ET.Element("mi", {"mathcolor": "blue", "style": "background: yellow"})
    merged = ziamath_styles._merged(element.attrib, ziamath_styles._shallow_fields(parent))
    chained = ChainMap(element.attrib, asdict(parent))
    for key in ("mathcolor", "mathbackground", "mathsize", "scriptlevel", "displaystyle", "style"):
        assert merged.get(key) == chained.get(key)
        assert (key in merged) == (key in chained)
    assert ziamath_styles._shallow_fields(parent)["mathvariant"] is parent.mathvariant
