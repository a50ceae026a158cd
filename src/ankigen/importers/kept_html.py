"""What an import keeps as written for format sections 15 and 16.

Section 15 keeps a heading of level 3 to 6 in an answer: an answer's headings
are written from ``###`` down, their levels kept apart (:func:`sub_heading`),
both for a field's HTML and for another tool's markdown. Section 16 lets a few
HTML elements reach the card: those markdown has no syntax for are written as
HTML (:data:`INLINE_HTML`, an ``<abbr>`` with its :func:`title`), and so is a
``<summary>`` line, which sits in an HTML block where markdown is not read
(:func:`summary_html`).
"""

from __future__ import annotations

import html
import re

from ankigen.importers.html_tree import Element

#: Format section 16's inline elements that markdown has no syntax for.
INLINE_HTML = frozenset({"u", "sub", "sup", "mark", "small", "kbd", "abbr"})
#: Elements that show nothing of their own (their text is kept without a word).
QUIET = frozenset({"span", "font", "label", "ins", "nobr", "center", "body", "html"})
#: Elements written as another of format 16's (``<strong>`` as ``<b>``...).
_SAME = {"strong": "b", "em": "i", "strike": "s", "del": "s"}
_SUMMARY_HTML = INLINE_HTML | {"b", "i", "s"}
HEADINGS = {f"h{level}": level for level in range(1, 7)}
#: Format section 15: an answer keeps headings from ``###`` to ``######``.
_TOP_LEVEL, _LAST_LEVEL = 3, 6
#: A heading's closing sequence (`` #``...) that ATX syntax would strip from its text.
_CLOSING_HASHES = re.compile(r"(\s)(#+)$")


def sub_heading(text: str, level: int, top: int) -> str:
    """A heading of ``level`` in an answer whose top heading is ``top``, from ``###`` down."""
    marks = "#" * min(_TOP_LEVEL + level - top, _LAST_LEVEL)
    return marks + " " + _CLOSING_HASHES.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def top_heading(element: Element) -> int:
    """The smallest heading level in ``element`` (7 when it has none)."""
    levels = [top_heading(c) for c in element.children if isinstance(c, Element)]
    return min([HEADINGS.get(element.tag, 7), *levels])


def title(node: Element) -> str:
    """An ``<abbr>``'s ``title`` as written (``|`` as an entity: it would end a table cell)."""
    value = html.escape(node.attrs.get("title", ""), quote=True).replace("|", "&#124;")
    return f' title="{value}"' if node.tag == "abbr" and value else ""


def summary_html(element: Element, lost: list[str]) -> str:
    """``element``'s content as format 16's HTML; what it cannot hold is added to ``lost``."""
    out = []
    for child in element.children:
        if isinstance(child, str):
            if "{{" in child:  # an HTML block shows braces as written, never as a cloze
                lost.append("a cloze inside a <summary> (shown as text)")
            out.append(html.escape(child, quote=False))
            continue
        tag = _SAME.get(child.tag, child.tag)
        inner = summary_html(child, lost)
        if tag in _SUMMARY_HTML:
            out.append(f"<{tag}{title(child)}>{inner}</{tag}>")
            continue
        if child.tag not in QUIET:
            lost.append(f"the markup of <{child.tag}> in a <summary> (its text is kept)")
        out.append(inner)
    return "".join(out)
