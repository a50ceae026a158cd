"""The allow-list judge: is a card, as Anki renders it, free of live markup and commands?

Independent of ankigen's own escaping: it parses the HTML Anki produced for a
card side (after cloze processing for that card's ordinal) with the standard
library's parser, which decodes character references as a browser does, and
reports every element, attribute, class, style or URL outside a small
allow-list; every image that is not a file of the deck (Anki's LaTeX images
are not); every text run in which MathJax would find ``\\(…\\)`` or
``\\[…\\]`` (none in image mode; in mathjax mode, none using a command that
links, styles, loads or defines, except ankigen's own ``\\class{cloze}{…}``
around a clozed part); and every audio or TTS tag Anki extracted.
The ``data-cloze`` attribute Anki fills with a cloze's HTML is judged too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

#: Elements a card may hold, each with the attributes it may carry (``class`` on all).
ELEMENTS: dict[str, frozenset[str]] = {
    name: frozenset(attributes.split())
    for name, attributes in {
        "div": "",
        "span": "data-cloze data-ordinal",
        "p": "",
        "br": "",
        "hr": "id",
        "em": "",
        "strong": "",
        "del": "",
        "s": "",
        "code": "",
        "pre": "",
        "ul": "",
        "ol": "start",
        "li": "",
        "blockquote": "",
        "h3": "",
        "h4": "",
        "h5": "",
        "h6": "",
        "a": "href title",
        "img": "src alt style",
        # format §16: raw HTML elements an author may write
        "sub": "",
        "sup": "",
        "b": "",
        "i": "",
        "u": "",
        "mark": "",
        "small": "",
        "kbd": "",
        "abbr": "title",
        "details": "",
        "summary": "",
        "table": "",
        "thead": "",
        "tbody": "",
        "tr": "",
        "th": "style",
        "td": "style",
    }.items()
}
CLASSES = re.compile(r"^(ag-[a-z-]+|cloze|cloze-inactive|language-\S*)$")
STYLE = re.compile(r"^(width|vertical-align|text-align):\s*-?[0-9.]*[a-z%]*$")
SAFE_SCHEME = re.compile(r"^(https?|mailto):", re.IGNORECASE)
#: A URL scheme as a browser reads it (anything else before a ``:`` makes the URL relative).
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
#: Commands MathJax obeys that reach outside a formula or define others (judge's own list).
MATHJAX_DANGER = re.compile(
    r"\\(href|url|require|class|cssId|style|unicode|mmlToken|bbox|data|toggle|texttip|"
    r"mathtip|html\w*|def|gdef|edef|xdef|let|futurelet|global|new\w*|renew\w*|provide\w*|"
    r"Declare\w*|Newextarrow)(?![A-Za-z])"
)
#: The one use of a dangerous command ankigen itself writes: a clozed part of a
#: formula in card.css's cloze class (authors cannot write ``\\class``).
ANKIGEN_CLOZE_CLASS = re.compile(r"\\class\{cloze\}(?=\{)")
MATHJAX_MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.DOTALL)
#: Elements MathJax joins into one text run (everything else starts a new run).
JOINED = {"br", "wbr"}


@dataclass
class Verdict:
    """What the judge found on one card side."""

    problems: list[str] = field(default_factory=list)
    text: str = ""


class _Judge(HTMLParser):
    def __init__(self, media: frozenset[str], mathjax: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.media = media
        self.mathjax = mathjax
        self.verdict = Verdict()
        self._run: list[str] = []

    # -- elements -------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._end_run(tag)
        allowed = ELEMENTS.get(tag)
        if allowed is None:
            self.verdict.problems.append(f"element <{tag}>")
            return
        for name, value in attrs:
            self._attribute(tag, name, value or "", allowed)

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        self._end_run(tag)

    def handle_data(self, data: str) -> None:
        self._run.append(data)
        self.verdict.text += data

    def close(self) -> None:
        super().close()
        self._end_run("")

    # -- checks ---------------------------------------------------------
    def _attribute(self, tag: str, name: str, value: str, allowed: frozenset[str]) -> None:
        problems = self.verdict.problems
        if name != "class" and name not in allowed:
            problems.append(f"attribute {name}= on <{tag}>")
        elif name == "class":
            problems += [f"class {c!r} on <{tag}>" for c in value.split() if not CLASSES.match(c)]
        elif name == "style":
            problems += [
                f"style {s!r} on <{tag}>" for s in value.split(";") if s and not STYLE.match(s)
            ]
        elif name == "href" and _unsafe_link(value):
            problems.append(f"link {value!r}")
        elif name == "src" and value not in self.media:
            problems.append(f"image {value!r} is no media file of the deck")
        elif name == "data-cloze":
            inner = judge(value, self.media, mathjax=self.mathjax)
            problems += [f"in data-cloze: {p}" for p in inner.problems]

    def _end_run(self, tag: str) -> None:
        if tag in JOINED:
            return
        run = "".join(self._run)
        self._run = []
        for match in MATHJAX_MATH.finditer(run):
            tex = match.group(1) if match.group(1) is not None else match.group(2)
            if not self.mathjax:
                self.verdict.problems.append(f"MathJax would typeset {match.group(0)!r}")
            elif MATHJAX_DANGER.search(ANKIGEN_CLOZE_CLASS.sub("", tex)):
                self.verdict.problems.append(f"MathJax would obey {match.group(0)!r}")


def _unsafe_link(href: str) -> bool:
    """True for a URL whose scheme is not http(s) or mailto (browsers drop blanks first)."""
    url = re.sub(r"[\x00-\x20]", "", href)
    return bool(SCHEME.match(url)) and not SAFE_SCHEME.match(url)


def judge(side_html: str, media: Iterable[str], *, mathjax: bool) -> Verdict:
    """Judge one card side as Anki rendered it (the note type's ``<style>`` removed)."""
    html = re.sub(r"<style>.*?</style>", "", side_html, flags=re.DOTALL)
    parser = _Judge(frozenset(media), mathjax)
    parser.feed(html)
    parser.close()
    verdict = parser.verdict
    if "[anki:play" in html:
        verdict.problems.append("an Anki play tag")
    if re.search(r"<\s*script", html, re.IGNORECASE):
        verdict.problems.append("raw <script")
    return verdict


_SVG_DANGER = re.compile(
    rb"<\s*(script|foreignObject|iframe|a|image|animate|set)\b|\son\w+\s*=|href\s*=\s*[\"'](?!#)"
    rb"|url\(\s*['\"]?(?!#)",
    re.IGNORECASE,
)


def svg_problems(data: bytes) -> list[str]:
    """What in a shipped SVG file could run, link or load."""
    return [m.group(0).decode("utf-8", "replace") for m in _SVG_DANGER.finditer(data)]
