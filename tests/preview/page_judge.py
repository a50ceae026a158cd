"""The preview page judged as a surface: its frame by an allow-list, its cards by the cards'.

A page is the frame ankigen writes (toolbar, contents, headings, each card's
source line, tags and messages: all author text, escaped) around the sides of
every card. ``frame_problems`` lists every element, attribute or link of the
frame outside a small allow-list, every script but the page's own (an
inline one must be allowed by the page's policy, by its hash), and any way
MathJax could read the frame (the body must be ``tex2jax_ignore``, and only
card sides ``tex2jax_process``);
``card_sides`` gives each side's HTML for the cards' own judge
(``tests/hostile/judge.py``).
"""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser

#: The frame's elements, each with the attributes it may carry (``class``, ``id`` on all).
FRAME: dict[str, frozenset[str]] = {
    name: frozenset(attributes.split())
    for name, attributes in {
        "html": "lang",
        "head": "",
        "meta": "charset http-equiv content name",
        "title": "",
        "script": "src",
        "style": "",
        "body": "data-stem data-version data-cards",
        "header": "",
        "h1": "",
        "h2": "",
        "span": "",
        "code": "",
        "input": "type placeholder aria-label",
        "select": "aria-label",
        "option": "value",
        "label": "",
        "button": "type",
        "div": "",
        "nav": "aria-label",
        "details": "open",
        "summary": "",
        "p": "",
        "ul": "",
        "li": "",
        "a": "href",
        "main": "",
        "section": "",
        "article": "data-source data-tags data-issues",
    }.items()
}
SCRIPTS = {"", "mathjax/tex-svg-full.js"}
PROCESS = re.compile(r"tex2jax_process|mathjax_process")


class _Page(HTMLParser):
    def __init__(self) -> None:
        # character references kept as written: a side is handed on as the page holds it
        super().__init__(convert_charrefs=False)
        self.problems: list[str] = []
        self.sides: list[str] = []
        self._side_depth = 0  # > 0 inside a card side
        self._side: list[str] = []
        self._in_script = False
        self.inline_scripts: list[str] = []
        self.policy = ""
        self.ignored = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._side_depth:
            self._side_depth += tag not in _VOID
            self._side.append(self.get_starttag_text() or "")
            return
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        if tag == "div" and "card" in classes:
            self._side_depth, self._side = 1, []
            return
        if PROCESS.search(values.get("class") or ""):
            self.problems.append(f"<{tag}> outside a card asks MathJax to read it")
        if tag == "body":
            self.ignored = "tex2jax_ignore" in classes
        if tag == "meta" and values.get("http-equiv") == "Content-Security-Policy":
            self.policy = values.get("content") or ""
        allowed = FRAME.get(tag)
        if allowed is None:
            self.problems.append(f"element <{tag}> in the frame")
            return
        for name, value in attrs:
            if name not in allowed | {"class", "id"}:
                self.problems.append(f"attribute {name}= on <{tag}> in the frame")
            elif name == "href" and not (value or "").startswith("#"):
                self.problems.append(f"link {value!r} in the frame")
        if tag == "script" and values.get("src", "") not in SCRIPTS:
            self.problems.append(f"script {values.get('src')!r}")
        self._in_script = tag in ("script", "style")
        if tag == "script" and not values.get("src"):
            self.inline_scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._side_depth:
            self._side_depth -= 1
            if self._side_depth == 0:
                self.sides.append("".join(self._side))
                return
            self._side.append(f"</{tag}>")
            return
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._side_depth:
            self._side.append(data)
        elif self._in_script and self.inline_scripts and self.lasttag == "script":
            self.inline_scripts[-1] += data

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._side_depth:  # ``<img ... />``: no end tag to wait for
            self._side.append(self.get_starttag_text() or "")
            return
        self.handle_starttag(tag, attrs)
        self._in_script = False

    def handle_entityref(self, name: str) -> None:
        if self._side_depth:
            self._side.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        if self._side_depth:
            self._side.append(f"&#{name};")


_VOID = {"br", "hr", "img", "input", "meta", "wbr", "source", "col", "area", "link"}


def frame_problems(page: str) -> list[str]:
    """What in the page's frame is outside the allow-list (empty: nothing)."""
    parser = _Page()
    parser.feed(page)
    parser.close()
    problems = list(parser.problems)
    if not parser.ignored:
        problems.append("the body is not tex2jax_ignore: MathJax reads the frame")
    for script in parser.inline_scripts:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        if f"'sha256-{digest}'" not in parser.policy:
            problems.append(f"an inline script the page's policy does not allow: {script[:60]!r}")
    if "default-src 'none'" not in parser.policy or "connect-src 'none'" not in parser.policy:
        problems.append(f"a policy that allows the network: {parser.policy!r}")
    return problems


def card_sides(page: str) -> list[str]:
    """The HTML of every card side on the page, in order."""
    parser = _Page()
    parser.feed(page)
    parser.close()
    return parser.sides
