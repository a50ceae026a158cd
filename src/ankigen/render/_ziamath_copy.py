"""Two of ziamath's hot spots with the same results for less work (issue 12).

``size_px`` is ``ziamath.nodes.mnode.Mnode.size_px`` with its tables built
once instead of on every call (the table of named spaces formats a dozen
floats as text each time). ``height_without_stretch`` is
``Mrow._get_height_nostretch``, which lays out each child of a row once
just to measure it, on a copy made by ``ET.fromstring(ET.tostring(child))``;
``copied`` makes that copy with ``copy.deepcopy`` and the round trip's
normalisations (empty text becomes None, the copy has no tail), and takes
the round trip itself for anything it would change or refuse (a carriage
return, a character XML cannot hold, a comment, a non-text value, a tail
that is not white space). Installed by ``_ziamath_styles.install`` for the
checked ziamath release only.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

#: ziamath's named spaces, as ``Mnode.size_px`` spells them (the same f-strings).
_NAMED_SIZES = {
    "veryverythinmathspace": f"{1 / 18}em",
    "verythinmathspace": f"{2 / 18}em",
    "thinmathspace": f"{3 / 18}em",
    "mediummathspace": f"{4 / 18}em",
    "thickmathspace": f"{5 / 18}em",
    "verythickmathspace": f"{6 / 18}em",
    "veryverythickmathspace": f"{7 / 18}em",
    "negativeveryverythinmathspace": f"{-1 / 18}em",
    "negativeverythinmathspace": f"{-2 / 18}em",
    "negativethinmathspace": f"{-3 / 18}em",
    "negativemediummathspace": f"{-4 / 18}em",
    "negativethickmathspace": f"{-5 / 18}em",
    "negativeverythickmathspace": f"{-6 / 18}em",
    "negativeveryverythickmathspace": f"{-7 / 18}em",
}
#: Points per unit, as in ``Mnode.size_px``.
_UNITS_TO_PT: dict[str, float] = {
    "pt": 1,
    "mm": 2.84526,
    "cm": 28.45274,
    "ex": 4.30554,
    "em": 10.00002,
    "bp": 1.00374,
    "dd": 1.07,
    "pc": 12,
    "in": 72.27,
    "mu": 0.5555,
}
_FONT_RELATIVE = ("em", "ex", "mu")

#: Text the XML round trip changes (``\r``) or refuses (characters XML cannot hold).
_NOT_KEPT = re.compile("[\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def size_px(node: Any, size: str, fontsize: float | None = None) -> float:
    """``Mnode.size_px``: a size attribute (number, px, a unit, a named space) in pixels."""
    if fontsize is None:
        fontsize = node.glyphsize
    numsize = _NAMED_SIZES.get(size, size)
    try:
        return float(numsize.rstrip("px"))  # a plain number, or pixels
    except ValueError:
        pass
    try:
        units = numsize[-2:]
        value = float(numsize[:-2])
    except ValueError:
        return 0
    pxsize = value * _UNITS_TO_PT.get(units, 0) * 1.333
    if units in _FONT_RELATIVE:
        pxsize *= fontsize / 10  # the table is for a 10-point font
    return pxsize


def copied(element: ET.Element) -> ET.Element:
    """``ET.fromstring(ET.tostring(element))``, without the round trip where it is the same."""
    if not _copies_as_is(element):
        return ET.fromstring(ET.tostring(element))
    duplicate = copy.deepcopy(element)
    duplicate.tail = None
    for node in duplicate.iter():
        if node.text == "":
            node.text = None
        if node.tail == "":
            node.tail = None
    return duplicate


def _copies_as_is(element: ET.Element) -> bool:
    """True when writing and parsing ``element`` keeps every text and value as it is."""
    tail = element.tail
    if tail is not None and (not isinstance(tail, str) or tail.strip(" \t\n")):
        return False  # the parser refuses text after the root element
    for node in element.iter():
        if not isinstance(node.tag, str):
            return False  # a comment or processing instruction: the parser drops it
        texts = [node.text, node.tail, *node.attrib.keys(), *node.attrib.values()]
        for text in texts:
            if text is not None and (not isinstance(text, str) or _NOT_KEPT.search(text)):
                return False
    return True


def height_without_stretch(row: Any, line: list[ET.Element], **kwargs: Any) -> tuple[float, float]:
    """``Mrow._get_height_nostretch``: a row's height before stretchy operators grow."""
    from ziamath.nodes.mnode import Mnode
    from ziamath.nodes.nodetools import elementtext

    ymax: float = -9999
    ymin: float = 9999
    kwargs["nostretch"] = True  # children leave stretchy operators out of their boxes
    for child in line:
        if child.tag == "mo" and elementtext(child) == "":
            continue
        node = Mnode.fromelement(copied(child), parent=row, **kwargs)
        ymax = max(ymax, node.bbox.ymax)
        ymin = min(ymin, node.bbox.ymin)
    return ymin, ymax


#: ziamath's own methods, kept when the shortcuts replace them (tests compare both).
ORIGINALS: dict[str, Any] = {}


def install() -> None:
    """Put both shortcuts in place of ziamath's methods."""
    from ziamath.nodes.mnode import Mnode
    from ziamath.nodes.mrow import Mrow

    if Mnode.size_px is size_px:
        return
    ORIGINALS["size_px"] = Mnode.size_px
    ORIGINALS["height_without_stretch"] = Mrow._get_height_nostretch
    Mnode.size_px = size_px  # type: ignore[method-assign,assignment]
    Mrow._get_height_nostretch = height_without_stretch  # type: ignore[method-assign,assignment]
