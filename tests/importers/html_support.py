"""Compare card HTML by what it shows: text, emphasis, lists, breaks, formulas and images."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote

from ankigen.importers.html_tree import Element, parse_fragment
from ankigen.model import SLOT, Fragment
from ankigen.parse import parse_text

_MATH = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
_SAME = {"strong": "b", "em": "i", "del": "s", "strike": "s", "th": "td"}
_BLOCK = {"p", "div"}
#: Shows nothing itself: a table's row groups (markdown makes a header row of the first).
_TRANSPARENT = {"span", "thead", "tbody"}
_HEADING = re.compile(r"</?h([1-6])>")
#: Tokens after which a paragraph break shows nothing, and before which it shows nothing.
_OPENS = ("¶", "<li>", "<ul>", "<ol>", "<details>", "</summary>")
_CLOSES = ("¶", "</li>", "</ul>", "</ol>", "</details>")


def shown(markup: str) -> list[str]:
    """A canonical token list: words, ``<b>``/``</b>``..., ``¶`` between blocks, ``↵`` breaks.

    A formula (``\\(…\\)``, ``\\[…\\]``) is one token of its TeX, an image one of
    its source and alt text, an ``<abbr>`` holds its title; headings are numbered
    from the markup's top heading (``<h1>``), as the importer keeps their levels.
    """
    pieces: list[str] = []
    _walk(parse_fragment(markup).root, pieces)
    joined = _MATH.sub(_math_token, "".join(pieces))
    tokens: list[str] = []
    for piece in joined.split("\x00"):
        tokens += [piece] if piece.startswith(("<", "¶", "↵")) else piece.split()
    out: list[str] = []
    for token in tokens:
        if token == "¶" and (not out or out[-1] in _OPENS):
            continue
        if token in _CLOSES and out and out[-1] in ("¶", "↵"):
            out.pop()
        out.append(token)
    while out and out[-1] in ("¶", "↵"):
        out.pop()
    return _relative_headings(out)


def _relative_headings(tokens: list[str]) -> list[str]:
    levels = [int(m.group(1)) for t in tokens if (m := _HEADING.fullmatch(t))]
    if not levels:
        return tokens
    top = min(levels) - 1
    return [
        _HEADING.sub(lambda m: m.group(0).replace(m.group(1), str(int(m.group(1)) - top)), t)
        for t in tokens
    ]


def _math_token(match: re.Match[str]) -> str:
    return _mark("<math " + "".join(match.group(0)[2:-2].split()) + ">")


def _mark(token: str) -> str:
    return f"\x00{token}\x00"


def _walk(element: Element, pieces: list[str]) -> None:
    for child in element.children:
        if isinstance(child, str):
            pieces.append(child.replace("\x00", ""))
            continue
        tag = _SAME.get(child.tag, child.tag)
        if tag in _TRANSPARENT:  # (ankigen wraps a literal `\\(` in a span)
            _walk(child, pieces)
        elif tag == "img":
            pieces.append(_mark(f"<img {child.attrs.get('src', '')}|{child.attrs.get('alt', '')}>"))
        elif tag == "br":
            pieces.append(_mark("↵"))
        elif tag in _BLOCK:
            pieces.append(_mark("¶"))
            _walk(child, pieces)
            pieces.append(_mark("¶"))
        elif tag == "abbr":
            pieces.append(_mark(f"<abbr {child.attrs.get('title', '')}>"))
            _walk(child, pieces)
            pieces.append(_mark("</abbr>"))
        else:
            pieces.append(_mark(f"<{tag}>"))
            _walk(child, pieces)
            pieces.append(_mark(f"</{tag}>"))


def answer_html(markdown: str) -> str:
    """The answer HTML ankigen makes of ``markdown`` written as a reveal item's answer."""
    text = f"Question?\n:::\n\n{markdown}\n<!-- id: q -->\n"
    result = parse_text(text, Path("x.md"), Path("."), "x.md")
    problems = [d.message for d in result.diagnostics if d.is_error]
    assert result.deck is not None and not problems, (text, problems)
    (item,) = result.deck.items
    return _filled(item.back)


def question_html(markdown: str) -> str:
    """The question HTML ankigen makes of ``markdown`` written as a question."""
    text = f"{markdown} ::: Answer. <!-- id: q -->\n"
    result = parse_text(text, Path("x.md"), Path("."), "x.md")
    problems = [d.message for d in result.diagnostics if d.is_error]
    assert result.deck is not None and not problems, (text, problems)
    (item,) = result.deck.items
    return _filled(item.front)


def _filled(fragment: Fragment) -> str:
    """The fragment's HTML with each slot shown as ``\\(TeX\\)`` or ``<img src alt>``."""

    def slot(match: re.Match[str]) -> str:
        kind, index = match.group(1), int(match.group(2))
        if kind == "m":
            formula = fragment.maths[index]
            return f"\\[{formula.tex}\\]" if formula.display else f"\\({formula.tex}\\)"
        image = fragment.images[index]
        src = html.escape(unquote(image.target))  # as the render stage reads it
        return f'<img src="{src}" alt="{html.escape(image.alt)}">'

    return re.sub(SLOT + "([mi])([0-9]+)" + SLOT, slot, fragment.html)
