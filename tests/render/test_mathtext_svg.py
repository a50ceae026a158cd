"""Formula images drawn without a Figure are byte for byte what savefig wrote.

``render/_mathtext_svg.py`` writes a formula's SVG directly (issue 12). The
reference here is the drawing code it replaced: the outline on a
``Figure``, saved with ``savefig(format="svg")`` under the same rcParams. On
a gallery of formulas (fractions, roots, scripts, text, accents, delimiters,
rules, display style, cloze highlights) both must give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import matplotlib
import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import PathPatch
from matplotlib.path import Path
from matplotlib.textpath import TextPath, text_to_path
from matplotlib.transforms import Affine2D

from ankigen.render import _mathtext_highlight as _highlight
from ankigen.render import _tex_syntax as _tex
from ankigen.render._formula_drawing import render_formula
from ankigen.render._mathtext_drawing import _PROP, display_style

_SVG_RC: dict[Any, Any] = {"svg.fonttype": "path", "svg.hashsalt": "ankigen", "svg.id": None}
_SVG_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}


def savefig_reference(tex: str, highlight: Sequence[str] = ()) -> bytes:
    """The SVG of a mathtext formula as formula.py drew it before issue 12."""
    s = f"${tex}$"
    width, height, depth, _, _ = text_to_path.mathtext_parser.parse(s, dpi=72, prop=_PROP)
    marked = _highlight.marked_glyphs(tex, highlight, _PROP) if highlight else set()
    fig = Figure(figsize=(width / 72, height / 72), dpi=72)
    points = Affine2D().scale(1 / 72) + fig.dpi_scale_trans
    if marked:
        plain, coloured = _highlight.split_paths(s, _PROP, marked, depth)
        colour = _highlight.CLOZE_COLOUR
        linewidth = _highlight.BOLD_STROKE * 72 / 100
        patch = PathPatch(
            coloured, transform=points, facecolor=colour, edgecolor=colour, linewidth=linewidth
        )
        fig.add_artist(patch)
    else:
        text = TextPath((0, depth), s, prop=_PROP)
        plain = Path(np.round(text.vertices, 1), text.codes)
    fig.add_artist(
        PathPatch(plain, transform=points, facecolor="black", edgecolor="none", linewidth=0)
    )
    buf = io.BytesIO()
    with matplotlib.rc_context(_SVG_RC):
        fig.savefig(buf, format="svg", transparent=True, metadata=_SVG_METADATA)
    return buf.getvalue()


#: (TeX, display): formulas mathtext draws, over the constructs it lays out.
GALLERY = [
    (r"x", False),
    (r"\frac{\sigma}{\sqrt{n}}", True),
    (r"\frac{\sigma}{\sqrt{n}}", False),
    (r"\sqrt{x^2+1}", False),
    (r"S = \frac{T_{compute}}{\frac{T_{compute}}{k} + T_{comm}}", True),
    (r"\theta_{t+5} = \theta_t - \eta \nabla_\theta L(\theta_t)", False),
    (r"\lim_{k\to\infty} \frac{k-1}{k} = 1", True),
    (r"\text{batch size} \times \text{steps} = 4096", False),
    (r"\hat{y} = \mathrm{softmax}(W x + b)", False),
    (r"\left( \frac{a}{b} \right)^{2} \leq \|x\|_2", True),
    (r"\mathbb{E}[X] = \mu, \quad \mathcal{L} \approx 0.5", False),
    (r"\overline{x} - \bar{y} + \vec{v} \cdot \tilde{w}", False),
    (r"e^{-\frac{x^2}{2\sigma^2}}", True),
    (r"\sqrt[3]{27} = 3", False),
    (r"p(y \mid x) \propto \exp(-\beta E)", False),
    (r"A \in \mathbb{R}^{m \times n}, \; \alpha \beta \gamma \Omega", False),
    (r"-1", False),
    (r"0.001 \ll 1", False),
]

#: (TeX, highlighted parts): cloze images with a part in the cloze colour.
HIGHLIGHTED = [
    (r"a + [\ldots] = c", (r"[\ldots]",)),
    (r"\frac{a}{b} + c", ("a",)),
    (r"\frac{x+1}{y} = z", (r"\frac{x+1}{y}",)),
    (r"x^2 + y^2", ("x^2", "y^2")),
]


@pytest.mark.parametrize(("tex", "display"), GALLERY)
def test_direct_svg_is_the_savefig_svg(tex: str, display: bool) -> None:
    drawn = render_formula(tex, display=display)
    assert drawn.renderer == "mathtext"
    shown = _tex.rewrite(display_style(tex) if display else tex)
    assert drawn.svg == savefig_reference(shown)


@pytest.mark.parametrize(("tex", "parts"), HIGHLIGHTED)
def test_highlighted_svg_is_the_savefig_svg(tex: str, parts: tuple[str, ...]) -> None:
    drawn = render_formula(tex, display=False, highlight=parts)
    assert b"#1f5fbf" in drawn.svg
    shown = [_tex.rewrite(part) for part in parts]
    assert drawn.svg == savefig_reference(_tex.rewrite(tex), shown)


def test_every_glyph_and_rule_is_drawn() -> None:
    # a fraction bar and a root's bar are rectangles, not glyphs: both are in the outline
    drawn = render_formula(r"\frac{1}{\sqrt{2}}", display=False)
    assert drawn.svg.count(b"<path") == 2  # the transparent page, then the formula
    assert drawn.svg.count(b"z\n") > 4
