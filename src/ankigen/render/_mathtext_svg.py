"""A mathtext layout to SVG bytes, without a matplotlib Figure (issue 12).

``formula.py`` used to draw each formula by putting its outline on a
``Figure`` and calling ``savefig(format="svg")`` under ``rc_context``: about
a millisecond per formula of artists, transforms and rcParams copies around
the one path that matters. This module writes the same document directly:
the same prolog, groups, attribute order, styles and path data (path data
through ``_path.convert_to_string``, the function the SVG backend itself
uses, with the transform the backend composes), so the bytes are identical
to what ``savefig`` wrote (``tests/render/test_mathtext_svg.py`` compares
them on a gallery, against the old Figure code kept there as the reference).

Fonts are resolved once per process: ``parse`` lays a formula out with a
per-process copy of mathtext's STIX font set (``findfont`` is called about
fifteen times when one is built), and glyph outlines are loaded from FreeType
once per glyph, not once per formula.
"""

from __future__ import annotations

import copy
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib import _path  # the path-data writer of matplotlib's SVG backend
from matplotlib.colors import to_hex
from matplotlib.font_manager import FontProperties
from matplotlib.ft2font import FT2Font, LoadFlags
from matplotlib.mathtext import MathTextParser
from matplotlib.path import Path
from matplotlib.textpath import text_to_path
from matplotlib.transforms import Affine2D, Transform

#: TextToPath draws glyph outlines at this size (points) and resolution.
_FONT_SCALE = text_to_path.FONT_SCALE
_DPI = text_to_path.DPI

_PROLOG = (
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n'
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"\n'
    '  "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
    '<svg xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}pt" height="{h}pt" '
    'viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg" version="1.1">\n'
    " <defs>\n"
    '  <style type="text/css">*{{stroke-linejoin: round; stroke-linecap: butt}}</style>\n'
    " </defs>\n"
    ' <g id="figure_1">\n'
)
_PATCH = '  <g id="patch_{n}">\n   <path{attributes}/>\n  </g>\n'
_EPILOG = " </g>\n</svg>\n"
_COMMANDS = [b"M", b"L", b"Q", b"C", b"z"]


@dataclass(frozen=True)
class Layer:
    """One filled outline of a formula, in drawn points, y up, baseline at the depth."""

    path: Path
    colour: str = "black"
    #: Stroke width in points (0: no stroke), drawn in the fill colour with mitred joins.
    stroke: float = 0.0


def parse(s: str, dpi: float, prop: FontProperties) -> Any:
    """mathtext's layout of ``s`` (a ``VectorParse``): what ``MathTextParser("path")`` returns.

    The STIX font set is built once per process and copied for each formula,
    with a fresh glyph-metrics cache (as a new one would have); ``prop`` must
    be the STIX math font properties the formulas are drawn with.
    """
    parser = _parser()
    fonts = copy.copy(_stix_fonts(prop))
    # TruetypeFonts caches its glyph metrics per instance: each formula gets its own
    fonts._get_info = functools.cache(type(fonts)._get_info.__get__(fonts))
    box = parser.parse(s, fonts, prop.get_size_in_points(), dpi)
    return _mathtext().ship(box).to_vector()


def release_fonts(prop: FontProperties) -> None:
    """Let go of the font sets of the formulas drawn so far (call once one is drawn).

    mathtext's ``StixFonts.get_sized_alternatives_for_symbol`` is a
    ``functools.cache`` on the class, keyed by the font set: every formula's
    font set (a copy made by ``parse``, a new one in matplotlib's own parser)
    stayed alive in it for good, with its glyph metrics: about 15 KB a
    formula, some 200 MB in each worker drawing 13,000 formulas. An entry is
    only ever found again by the font set that made it, which is done with
    once its formula is drawn, so emptying the cache changes no drawing.
    """
    fontset = MathTextParser._font_type_mapping[prop.get_math_fontfamily()]  # type: ignore[attr-defined]
    method = fontset.get_sized_alternatives_for_symbol
    clear = getattr(method, "cache_clear", None)
    if clear is not None:
        clear()


def _mathtext() -> Any:
    from matplotlib import _mathtext

    return _mathtext


def _parser() -> Any:
    # matplotlib keeps one grammar per process on the class; build it as it does
    if MathTextParser._parser is None:  # type: ignore[attr-defined]
        MathTextParser._parser = _mathtext().Parser()  # type: ignore[attr-defined]
    return MathTextParser._parser  # type: ignore[attr-defined]


@functools.cache
def _stix_fonts(prop: FontProperties) -> Any:
    """mathtext's font set for ``prop``, resolved (``findfont``) once per process."""
    fontset = MathTextParser._font_type_mapping[prop.get_math_fontfamily()]  # type: ignore[attr-defined]
    return fontset(prop.copy(), LoadFlags.NO_HINTING)


def _forget_fonts() -> None:
    """In a forked child: drop every FT2Font inherited from the parent.

    An FT2Font reads its file lazily through the file object it opened, and a
    forked child shares that file's offset with its parent and siblings: two
    workers loading glyphs at once would read each other's bytes ("too many
    hints"). matplotlib empties its own font cache at a fork for this reason;
    the font set kept here, and parses cached with their fonts, go too.
    """
    _stix_fonts.cache_clear()
    MathTextParser._parse_cached.cache_clear()  # type: ignore[attr-defined]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_fonts)


def outline(glyphs: Sequence[Any], rects: Sequence[Any], depth: float) -> Path:
    """The outline of a parsed formula, as ``TextPath((0, depth), s)`` draws it.

    The same arithmetic as matplotlib's TextToPath and TextPath, so the same
    floats; vertices are then rounded to 0.1 pt (1/1000 em: invisible, and it
    keeps the SVG less than half as large).
    """
    verts: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    for font, fontsize, _, glyph_index, ox, oy in glyphs:
        glyph_verts, glyph_codes = _glyph_path(font, glyph_index)
        verts.append(glyph_verts * (fontsize / _FONT_SCALE) + [ox, oy])
        codes.append(glyph_codes)
    for ox, oy, w, h in rects:
        verts.append(
            np.array([(ox, oy), (ox, oy + h), (ox + w, oy + h), (ox + w, oy), (ox, oy), (0, 0)])
        )
        codes.append(np.array([Path.MOVETO, *[Path.LINETO] * 4, Path.CLOSEPOLY]))
    if not verts:
        return Path(np.empty((0, 2)))
    placed = Affine2D().scale(1.0).translate(0, depth).transform(np.concatenate(verts))
    return Path(np.round(placed, 1), np.concatenate(codes).astype(Path.code_type))


#: Glyph outlines at FONT_SCALE, by font and glyph index: loaded once per process.
_GLYPHS: dict[tuple[str | bytes, Any], tuple[np.ndarray, np.ndarray]] = {}


def _glyph_path(font: FT2Font, glyph_index: Any) -> tuple[np.ndarray, np.ndarray]:
    key = (font.fname, glyph_index)
    found = _GLYPHS.get(key)
    if found is None:
        font.clear()
        font.set_size(_FONT_SCALE, _DPI)
        font.load_glyph(glyph_index, flags=LoadFlags.NO_HINTING)
        found = _GLYPHS[key] = font.get_path()
    return found


def svg_document(width: float, height: float, layers: Sequence[Layer]) -> bytes:
    """An SVG of ``width`` x ``height`` points: a transparent page, then each layer."""
    w, h = (width / 72) * 72, (height / 72) * 72  # as Figure(figsize=(w / 72, ...)) gives back
    page = Affine2D().scale(w, h) + _flip(h)
    unit = Path([(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)], closed=True)
    parts = [_PROLOG.format(w=_number(w), h=_number(h))]
    parts.append(_patch(1, _path_data(unit, page, (0.0, 0.0, w, h)), "fill: none"))
    # Figure units are inches at 72 dpi: the same composed transform savefig used
    points = Affine2D().scale(1 / 72) + Affine2D().scale(72) + _flip(h)
    for n, layer in enumerate(layers, 2):
        parts.append(_patch(n, _path_data(layer.path, points, None), _style(layer)))
    parts.append(_EPILOG)
    return "".join(parts).encode("utf-8")


def _flip(height: float) -> Transform:
    return Affine2D().scale(1, -1).translate(0, height)


def _path_data(path: Path, transform: Transform, clip: tuple[float, ...] | None) -> str:
    convert = _path.convert_to_string  # type: ignore[attr-defined]
    data: bytes = convert(path, transform, clip, False, None, 6, _COMMANDS, False)
    return data.decode("ascii")


def _patch(n: int, data: str, style: str) -> str:
    # the SVG writer leaves out empty attributes
    attributes = (f' d="{data}"' if data else "") + (f' style="{style}"' if style else "")
    return _PATCH.format(n=n, attributes=attributes)


def _style(layer: Layer) -> str:
    colour = to_hex(layer.colour)
    style = [] if colour == "#000000" else [f"fill: {colour}"]
    if layer.stroke:
        style.append(f"stroke: {colour}")
        if layer.stroke != 1.0:
            style.append(f"stroke-width: {_number(layer.stroke)}")
        style.append("stroke-linejoin: miter")
    return "; ".join(style)


def _number(x: float) -> str:
    """A number as the SVG writer prints one: %f without trailing zeros."""
    return f"{x:f}".rstrip("0").rstrip(".")
