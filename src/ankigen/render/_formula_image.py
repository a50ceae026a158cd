"""A formula image: its size in em, why one cannot be drawn, and what its bytes depend on.

Shared by the drawing engine, the drawing limits and the HTML; nothing here
starts V8, so a build whose images all come from the cache stays fast.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources

from ankigen.cache import DRAWING_DISTRIBUTIONS, distribution_versions

#: Formula em per text em. MathJax's TeX font has an x-height of 0.442 em, the
#: card's sans serif text about 0.53 em: drawn 1.2 times larger, a formula's
#: letters match the text's, as MathJax matches them in mathjax mode.
MATH_SCALE = 1.2

#: The script that drives MathJax (``mathjax_svg.js``): its bytes shape every image.
_SCRIPT = resources.files("ankigen.render").joinpath("mathjax_svg.js").read_bytes()

#: Everything that changes the bytes of an image: part of the media name hash.
#: The engine's versions (MathJax's files and mini-racer's V8, the
#: ``ankigen.cache.DRAWING_DISTRIBUTIONS``) and its script.
RENDER_SETTINGS = (
    f"formula/v4 {distribution_versions(DRAWING_DISTRIBUTIONS)} "
    f"script={hashlib.sha256(_SCRIPT).hexdigest()[:16]} scale={MATH_SCALE:g}"
)


class FormulaError(Exception):
    """TeX that cannot be drawn; str() says which construct failed."""


@dataclass(frozen=True)
class RenderedFormula:
    """One formula as an SVG image, with sizes in em of the surrounding text.

    ``height_em`` is the whole image height; ``depth_em`` is the part below the
    baseline, so ``vertical-align: -{depth_em}em`` puts the baseline on the text's.
    ``renderer`` says which engine drew it (``mathjax``).
    """

    svg: bytes
    width_em: float
    height_em: float
    depth_em: float
    renderer: str = "mathjax"
