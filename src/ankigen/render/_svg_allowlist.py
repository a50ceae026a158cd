"""The SVG allow-list: which elements and attributes a shipped SVG may keep.

Read by the full sanitiser (``_svg_safety``) and its fast path for plain
drawings (``_svg_plain``), so both keep and refuse the same names.
"""

from __future__ import annotations

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"

#: Drawing elements that are kept.
_ELEMENTS_TEXT = """
svg g defs symbol use path rect circle ellipse line polyline polygon text tspan textPath
clipPath mask pattern marker linearGradient radialGradient stop style filter
feGaussianBlur feOffset feBlend feColorMatrix feComposite feFlood feMerge feMergeNode
feMorphology switch
"""
ELEMENTS = frozenset(_ELEMENTS_TEXT.split())

#: Elements that can run, link, load or rewrite: the image is refused.
_REFUSED_ELEMENTS_TEXT = """
script foreignObject a image feImage iframe embed object animate animateMotion
animateTransform animateColor set discard handler listener audio video
"""
REFUSED_ELEMENTS = frozenset(_REFUSED_ELEMENTS_TEXT.split())

#: Attributes that are kept (presentation and geometry); everything else is dropped.
_ATTRIBUTES_TEXT = """
id class style transform d x y x1 y1 x2 y2 cx cy r rx ry fx fy width height viewBox
preserveAspectRatio points fill fill-opacity fill-rule stroke stroke-width
stroke-opacity stroke-linecap stroke-linejoin stroke-miterlimit stroke-dasharray
stroke-dashoffset opacity color display visibility overflow clip-path clip-rule mask
font-family font-size font-style font-weight font-variant text-anchor dominant-baseline
alignment-baseline baseline-shift letter-spacing word-spacing text-decoration dx dy
rotate textLength lengthAdjust offset stop-color stop-opacity gradientUnits
gradientTransform spreadMethod patternUnits patternContentUnits patternTransform
clipPathUnits maskUnits maskContentUnits markerWidth markerHeight markerUnits refX refY
orient marker-start marker-mid marker-end version filterUnits primitiveUnits
stdDeviation in in2 result mode values type operator k1 k2 k3 k4 flood-color
flood-opacity radius href startOffset method spacing vector-effect shape-rendering
text-rendering image-rendering paint-order
"""
ATTRIBUTES = frozenset(_ATTRIBUTES_TEXT.split())
#: Kept attributes that need no check but their value's (no namespace, no href).
PLAIN_ATTRIBUTES = frozenset(
    a for a in ATTRIBUTES if a != "href" and not a.lower().startswith("on")
)
