"""Compare card HTML by what it shows: text, emphasis, lists, line and paragraph breaks."""

from __future__ import annotations

from pathlib import Path

from ankigen.importers.html_tree import Element, parse_fragment
from ankigen.parse import parse_text

_SAME = {"strong": "b", "em": "i", "del": "s", "strike": "s"}
_BLOCK = {"p", "div"}


def shown(html: str) -> list[str]:
    """A canonical token list: words, ``<b>``/``</b>``..., ``¶`` between blocks, ``↵`` breaks."""
    pieces: list[str] = []
    _walk(parse_fragment(html).root, pieces)
    tokens: list[str] = []
    for piece in "".join(pieces).split("\x00"):
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
    return item.back.html


def question_html(markdown: str) -> str:
    """The question HTML ankigen makes of ``markdown`` written as a question."""
    text = f"{markdown} ::: Answer. <!-- id: q -->\n"
    result = parse_text(text, Path("x.md"), Path("."), "x.md")
    problems = [d.message for d in result.diagnostics if d.is_error]
    assert result.deck is not None and not problems, (text, problems)
    (item,) = result.deck.items
    return item.front.html
