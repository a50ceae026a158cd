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
_SAME = {"strong": "b", "em": "i", "del": "s", "strike": "s"}
_BLOCK = {"p", "div"}


def shown(markup: str) -> list[str]:
    """A canonical token list: words, ``<b>``/``</b>``..., ``¶`` between blocks, ``↵`` breaks.

    A formula (``\\(…\\)``, ``\\[…\\]``) is one token of its TeX, an image one of
    its source and alt text.
    """
    pieces: list[str] = []
    _walk(parse_fragment(markup).root, pieces)
    joined = _MATH.sub(_math_token, "".join(pieces))
    tokens: list[str] = []
    for piece in joined.split("\x00"):
        tokens += [piece] if piece.startswith(("<", "¶", "↵")) else piece.split()
    out: list[str] = []
    for token in tokens:
        if token == "¶" and (not out or out[-1] in ("¶", "<li>", "<ul>", "<ol>")):
            continue
        if token in ("¶", "</li>", "</ul>", "</ol>") and out and out[-1] in ("¶", "↵"):
            out.pop()
        out.append(token)
    while out and out[-1] in ("¶", "↵"):
        out.pop()
    return out


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
        if tag == "span":  # shows nothing itself (ankigen wraps a literal `\\(` in one)
            _walk(child, pieces)
        elif tag == "img":
            pieces.append(_mark(f"<img {child.attrs.get('src', '')}|{child.attrs.get('alt', '')}>"))
        elif tag == "br":
            pieces.append(_mark("↵"))
        elif tag in _BLOCK:
            pieces.append(_mark("¶"))
            _walk(child, pieces)
            pieces.append(_mark("¶"))
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
