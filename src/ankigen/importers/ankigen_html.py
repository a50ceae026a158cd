"""What ankigen itself writes into a field, read back as the markdown it came from.

A formula drawn as an image (``<img class="ag-math" alt="TeX">``) is its TeX
again; a clozed formula (``<span class="ag-mc">``: one Anki cloze per number,
each holding the whole formula and the formula with that part hidden behind
a gap) is its TeX with the cloze markers put back where the gaps stand.
"""

from __future__ import annotations

import re
from itertools import pairwise

from ankigen.importers.html_tree import Element
from ankigen.syntax import cloze

#: The gap where cloze ``n`` hides its text: ``{[\ldots]}`` or ``{[\text{hint}]}`` in an
#: image's TeX; ``\class{cloze}{[\ldots]}`` (or ``[\text{hint}]``, ``[TeX hint]``) for MathJax.
_GAP = re.compile(
    r"(?:\\class\{cloze\})?\{\[(?:\\ldots|\\text\{((?:[^{}\\]|\\.)*)\}|([^\[\]]*))\]\}"
)
_UNESCAPE = re.compile(r"\\(.)")
_DELIMITERS = {"\\(": ("\\)", False), "\\[": ("\\]", True)}


def is_formula_image(element: Element) -> bool:
    """True for the ``<img>`` ankigen writes for a drawn formula."""
    return element.tag == "img" and "ag-math" in element.classes()


def formula_markdown(element: Element) -> str:
    """``$TeX$`` (``$$TeX$$`` for a display formula) from a formula image's alt text."""
    tex = " ".join(element.attrs.get("alt", "").split())
    return f"$${tex}$$" if "ag-display" in element.classes() else f"${tex}$"


def clozed_formula(element: Element) -> str | None:
    """The TeX, cloze markers back in place, of a ``<span class="ag-mc">``; None if unreadable.

    Its children are, per cloze number, the marker around two formulas (the
    whole, and the whole with that number's part behind a gap), then a
    ``<span class="ag-mc-all">`` with the whole. A formula is an image
    (``<img class="ag-math">``, TeX in its alt text) or, in mathjax mode, a
    ``<span class="ag-mf">`` holding ``\\(…\\)``.
    """
    numbers = cloze.ordinals(_direct_text(element))
    formulas = [f for c in element.children if (f := _formula(c)) is not None]
    whole_span = next(
        (c for c in element.children if isinstance(c, Element) and "ag-mc-all" in c.classes()),
        None,
    )
    wholes = [] if whole_span is None else [_formula(c) for c in whole_span.children]
    whole = next((f for f in wholes if f is not None), None)
    if whole is None or len(formulas) != 2 * len(numbers) or not numbers:
        return None
    back, display = whole
    regions: list[tuple[int, int, int, str | None]] = []
    for index, number in enumerate(numbers):
        found = _gaps(back, formulas[2 * index + 1][0])
        if found is None:
            return None
        regions += [(start, end, number, hint) for start, end, hint in found]
    tex = _with_markers(back, regions)
    if tex is None:
        return None
    body = " ".join(tex.split())
    return f"$${body}$$" if display else f"${body}$"


def _formula(node: Element | str) -> tuple[str, bool] | None:
    """A formula ankigen wrote, as (TeX, display): an ``ag-math`` image or an ``ag-mf`` span."""
    if isinstance(node, str):
        return None
    if is_formula_image(node):
        return node.attrs.get("alt", ""), "ag-display" in node.classes()
    if node.tag == "span" and "ag-mf" in node.classes():
        text = node.text().strip()
        closing, display = _DELIMITERS.get(text[:2], ("", False))
        if closing and text.endswith(closing):
            return text[2 : -len(closing)], display
    return None


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
    gaps = list(_GAP.finditer(front))
    if not gaps:
        return None
    texts = [front[: gaps[0].start()]]
    texts += [front[a.end() : b.start()] for a, b in pairwise(gaps)]
    texts.append(front[gaps[-1].end() :])
    if not back.startswith(texts[0]):
        return None
    found = []
    position = len(texts[0])
    for index, gap in enumerate(gaps):
        following = texts[index + 1]
        last = index == len(gaps) - 1
        end = len(back) - len(following) if last else back.find(following, position + 1)
        if end <= position or (last and not back.endswith(following)):
            return None
        text_hint, tex_hint = gap.group(1), gap.group(2)
        hint = _UNESCAPE.sub(r"\1", text_hint) if text_hint is not None else tex_hint or None
        found.append((position, end, hint))
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
