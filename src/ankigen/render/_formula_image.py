"""A formula image: its size in em, why one cannot be drawn, and what its bytes depend on.

Shared by both drawing engines, the drawing limits and the HTML; nothing here
imports matplotlib, so a build whose images all come from the cache stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass

from ankigen.cache import DRAWING_DISTRIBUTIONS, distribution_versions

#: Font size formulas are drawn at, in points; every size is reported relative to it.
DRAW_SIZE = 100.0
#: mathtext's STIX fontset: a serif math face like the TeX fonts Anki's MathJax
#: draws, of the same family as the fallback renderer's STIX Two Math, and its
#: root sign joins its bar (DejaVu's leaves a gap). Figures keep DejaVu Sans.
FONTSET = "stix"

#: Formula em per text em. STIX's x-height is about 0.45 em, the card's sans
#: serif text's about 0.53 em: drawn 1.2 times larger, a formula's letters
#: match the text's, as MathJax matches them (its matchFontHeight).
MATH_SCALE = 1.2

#: Everything that changes the bytes of an image: part of the media name hash, with the
#: version of every library that draws formulas (``ankigen.cache.DRAWING_DISTRIBUTIONS``).
RENDER_SETTINGS = (
    f"formula/v2 fontset={FONTSET} size={DRAW_SIZE:g} scale={MATH_SCALE:g} "
    f"{distribution_versions(DRAWING_DISTRIBUTIONS)}"
)


class FormulaError(Exception):
    """TeX that cannot be drawn; str() says which construct failed."""


@dataclass(frozen=True)
class RenderedFormula:
    """One formula as an SVG image, with sizes in em of the surrounding text.

    ``height_em`` is the whole image height; ``depth_em`` is the part below the
    baseline, so ``vertical-align: -{depth_em}em`` puts the baseline on the text's.
    ``renderer`` says which engine drew it (``mathtext`` or ``ziamath``).
    """

    svg: bytes
    width_em: float
    height_em: float
    depth_em: float
    renderer: str = "mathtext"
