"""Colour part of a mathtext formula: a hidden cloze's gap, or what a cloze reveals.

On a text cloze Anki shows the gap ``[...]`` and, on the back, the revealed
words in bold blue (``.cloze``). A clozed formula is one image, so the same
look is drawn into it: the glyphs of the highlighted TeX are found in the
formula's glyph sequence (by character code, so a part drawn smaller in a
subscript still matches), filled in the cloze colour and stroked a little
to look bold; a fraction bar or root inside that part is coloured with it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.textpath import text_to_path

#: The card's cloze colour (card.css ``--ag-accent``); night mode inverts the
#: image and rotates its hue back, which turns it into a light blue.
CLOZE_COLOUR = "#1f5fbf"
#: Stroke width (in drawn points, 100 per em) that makes the glyphs look bold.
BOLD_STROKE = 3.0


def _codes(s: str, prop: FontProperties) -> list[int]:
    parsed = text_to_path.mathtext_parser.parse(s, dpi=72, prop=prop)
    return [int(glyph[2]) for glyph in parsed[3]]


def marked_glyphs(tex: str, parts: Sequence[str], prop: FontProperties) -> set[int]:
    """Indices of the glyphs of ``tex`` drawn by ``parts`` (each found once, left to right)."""
    codes = _codes(f"${tex}$", prop)
    marked: set[int] = set()
    for part in parts:
        wanted = _codes(f"${part}$", prop)
        for start in range(len(codes) - len(wanted) + 1):
            span = range(start, start + len(wanted))
            if wanted and codes[start : start + len(wanted)] == wanted and not marked & set(span):
                marked.update(span)
                break
    return marked


def split_paths(s: str, prop: FontProperties, marked: set[int], depth: float) -> tuple[Path, Path]:
    """The formula's outline as two paths: unmarked glyphs and rules, and marked ones."""
    glyphs, glyph_map, rects = text_to_path.get_glyphs_mathtext(prop, s)
    plain: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
    coloured: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
    xs = [glyphs[i][1] for i in marked]
    # a fraction bar starts a little left of its first glyph, and ends past its last
    span = (min(xs) - 15, max(xs) + 70) if xs else (0.0, -1.0)
    for index, (glyph, x, y, size) in enumerate(glyphs):
        verts, codes = glyph_map[glyph]
        target = coloured if index in marked else plain
        target[0].append(np.asarray(verts) * size + [x, y])
        target[1].append(np.asarray(codes))
    for rect_verts, rect_codes in rects:
        box = np.asarray(rect_verts)
        inside = span[0] <= box[:5, 0].min() and box[:5, 0].max() <= span[1]
        target = coloured if inside else plain
        target[0].append(box)
        target[1].append(np.asarray(rect_codes))
    return _path(plain, depth), _path(coloured, depth)


def _path(parts: tuple[list[np.ndarray], list[np.ndarray]], depth: float) -> Path:
    if not parts[0]:
        return Path(np.zeros((0, 2)))
    verts = np.concatenate(parts[0]) + np.array([0.0, depth])
    # 0.1 pt is 1/1000 em: invisible, and it keeps the SVG less than half as large
    return Path(np.round(verts, 1), np.concatenate(parts[1]))
