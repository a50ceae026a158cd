"""Field HTML as a small tree, read with the standard library's ``html.parser``.

Anki fields are fragments written by editors, add-ons and other tools:
unclosed tags, stray end tags and entities. The tree closes what the HTML
rules close (a ``<p>`` at the next block, an ``<li>`` at the next item) and
drops, with their content, the elements that never carry card text
(scripts, styles, frames, forms, embedded objects), naming them so the
importer can report what it left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


def names(text: str) -> frozenset[str]:
    """A set of tag names written as one space-separated string."""
    return frozenset(text.split())


VOID = names("area base br col embed hr img input link meta param source track wbr")
#: Elements whose whole content is dropped: code, styling or widgets, never card text.
DROPPED = names(
    "script style iframe object embed template noscript head title "
    "textarea select button svg math audio video canvas form frame frameset applet"
)
#: Deeper elements are flattened into their ancestor (a hostile field cannot exhaust the stack).
MAX_DEPTH = 48
_CLOSES_P = names("p div ul ol li pre blockquote table h1 h2 h3 h4 h5 h6 hr dl section article")


@dataclass
class Element:
    """An element: lower-case tag, attributes (values unescaped) and children."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)

    def text(self) -> str:
        """All the text inside, tags removed."""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def classes(self) -> frozenset[str]:
        """The element's class names."""
        return frozenset(self.attrs.get("class", "").split())


@dataclass(frozen=True)
class Tree:
    """A parsed fragment: its root, and the dropped elements' tags in order of appearance."""

    root: Element
    dropped: tuple[str, ...]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root")
        self.stack: list[Element] = [self.root]
        self.skipping: list[str] = []
        self.dropped: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping:
            if tag == self.skipping[-1] and tag not in VOID:
                self.skipping.append(tag)
            return
        if tag in DROPPED:
            self.dropped.append(tag)
            if tag not in VOID:
                self.skipping.append(tag)
            return
        if tag in _CLOSES_P:
            self._close("p")
        if tag == "li":
            self._close("li", stop=("ul", "ol"))
        if len(self.stack) > MAX_DEPTH:
            if "nesting" not in self.dropped:
                self.dropped.append("nesting")
            return
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and not self.skipping and self.stack[-1].tag == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
            return
        self._close(tag)

    def _close(self, tag: str, stop: tuple[str, ...] = ()) -> None:
        """Close the innermost open ``tag`` (and what is open inside it), if any."""
        for depth in range(len(self.stack) - 1, 0, -1):
            open_tag = self.stack[depth].tag
            if open_tag in stop:
                return
            if open_tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.stack[-1].children.append(data)

    def handle_comment(self, data: str) -> None:
        """Comments are dropped: they show nothing on a card."""


def parse_fragment(html: str) -> Tree:
    """Parse an HTML fragment into a :class:`Tree`."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return Tree(builder.root, tuple(builder.dropped))
