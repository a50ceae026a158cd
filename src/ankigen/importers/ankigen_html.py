"""What ankigen itself writes into a field, read back as the markdown it came from.

A formula drawn as an image (``<img class="ag-math" alt="TeX">``) is its TeX
again; a clozed formula (``<span class="ag-mc">``: one Anki cloze per number,
each holding the whole formula and the formula with that part hidden behind
a gap) is its TeX with the cloze markers put back where the gaps stand.
"""

from __future__ import annotations

import re

from ankigen.importers.html_tree import Element
from ankigen.syntax import cloze

#: The gap drawn where cloze ``n`` hides its text: ``{[\ldots]}`` or ``{[\text{hint}]}``.
_GAP = re.compile(r"\{\[(?:\\ldots|\\text\{((?:[^{}\\]|\\.)*)\})\]\}")
_UNESCAPE = re.compile(r"\\(.)")


def is_formula_image(element: Element) -> bool:
    """True for the ``<img>`` ankigen writes for a drawn formula."""
    return element.tag == "img" and "ag-math" in element.classes()


def formula_markdown(element: Element) -> str:
    """``$TeX$`` (``$$TeX$$`` for a display formula) from a formula image's alt text."""
    tex = " ".join(element.attrs.get("alt", "").split())
    return f"$${tex}$$" if "ag-display" in element.classes() else f"${tex}$"


def clozed_formula(element: Element) -> str | None:
    """The TeX, cloze markers back in place, of a ``<span class="ag-mc">``; None if unreadable."""
    numbers = cloze.ordinals(_direct_text(element))
    images = [c for c in element.children if isinstance(c, Element) and c.tag == "img"]
    whole = next(
        (c for c in element.children if isinstance(c, Element) and "ag-mc-all" in c.classes()),
        None,
    )
    whole_image = (
        None
        if whole is None
        else next((c for c in whole.children if isinstance(c, Element) and c.tag == "img"), None)
    )
    if whole_image is None or len(images) != 2 * len(numbers) or not numbers:
        return None
    back = whole_image.attrs.get("alt", "")
    regions: list[tuple[int, int, int, str | None]] = []
    for index, number in enumerate(numbers):
        found = _gaps(back, images[2 * index + 1].attrs.get("alt", ""))
        if found is None:
            return None
        regions += [(start, end, number, hint) for start, end, hint in found]
    tex = _with_markers(back, regions)
    if tex is None:
        return None
    body = " ".join(tex.split())
    return f"$${body}$$" if "ag-display" in whole_image.classes() else f"${body}$"


def spaced_cloze(number: int, text: str, hint: str | None = None) -> str:
    """Cloze ``number`` around ``text``, a space before ``}}`` where the text ends in ``}``.

    Anki would read TeX's own closing brace and the marker's ``}}`` together.
    """
    if hint:
        return cloze.written(number, text, hint + " " if hint.endswith("}") else hint)
    return cloze.written(number, text + " " if text.endswith("}") else text)


def _direct_text(element: Element) -> str:
    return "".join(c for c in element.children if isinstance(c, str))


def _gaps(back: str, front: str) -> list[tuple[int, int, str | None]] | None:
    """Where ``front`` (``back`` with gaps) hides text of ``back``: (start, end, hint)."""
    pieces = _GAP.split(front)
    # split() interleaves the hint groups: text, hint, text, hint, ..., text.
    texts, hints = pieces[0::2], pieces[1::2]
    if len(texts) < 2 or not back.startswith(texts[0]):
        return None
    found = []
    position = len(texts[0])
    for index, hint in enumerate(hints):
        following = texts[index + 1]
        last = index == len(hints) - 1
        end = len(back) - len(following) if last else back.find(following, position + 1)
        if end <= position or (last and not back.endswith(following)):
            return None
        found.append((position, end, None if hint is None else _UNESCAPE.sub(r"\1", hint)))
        position = end + len(following)
    return found


def _with_markers(tex: str, regions: list[tuple[int, int, int, str | None]]) -> str | None:
    """``tex`` with ``{{cN::…}}`` around each region; None where regions overlap."""
    parts = []
    position = 0
    for start, end, number, hint in sorted(regions):
        if start < position:
            return None
        text = tex[start:end]
        parts += [tex[position:start], spaced_cloze(number, text, hint)]
        position = end
    parts.append(tex[position:])
    return "".join(parts)
