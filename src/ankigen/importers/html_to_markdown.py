"""An Anki field's HTML as markdown for a content file (format sections 3, 4, 7, 8, 16).

What markdown can say becomes markdown: paragraphs, line breaks, bold,
italics, strike-through, code, links, lists, quotes, tables, images (the
media file written next to the content), Anki's ``\\(…\\)``/``\\[…\\]`` math
as ``$…$``/``$$…$$``, and cloze markers as written. The inline elements of
format section 16 (``u``, ``sub``, ``sup``, ``mark``, ``small``, ``kbd``,
``abbr``) stay inline HTML, as do ``<br>`` in a table cell and
``<details>``/``<summary>`` (an HTML block around the markdown of its body).
Headings become ``###`` to ``######`` (format section 15 keeps them in an
answer), their levels relative to the field's top heading. Everything else
is reported in ``lost``: its text is kept where it has any, its markup
(styles, classes, scripts) is not. A question is one paragraph, so
``one_paragraph`` writes blocks as lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ankigen.importers import ankigen_html
from ankigen.importers.html_tree import Element, names, parse_fragment
from ankigen.importers.kept_html import (
    HEADINGS,
    INLINE_HTML,
    QUIET,
    sub_heading,
    summary_html,
    title,
    top_heading,
)
from ankigen.importers.markdown_text import (
    BREAK,
    apart,
    code_span,
    escape_line_start,
    image_link,
    longest_run,
    text_to_markdown,
    wrap,
)
from ankigen.importers.package_media import is_image_name, is_plain_name

_BOLD = frozenset({"b", "strong"})
_ITALIC = frozenset({"i", "em"})
_STRIKE = frozenset({"s", "strike", "del"})
_BLOCKS = names(
    "p div ul ol li pre blockquote table h1 h2 h3 h4 h5 h6 hr section "
    "article dl dt dd header footer main aside figure figcaption details summary"
)


@dataclass(frozen=True)
class Converted:
    """A field as markdown, the media files it shows, and what did not carry over."""

    markdown: str
    images: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    #: ankigen's own context line (``<div class="ag-context">``), which the importer rebuilds.
    context: str | None = None
    #: Whether ankigen drew the field's formulas as images (a deck built in image mode).
    drawn: bool = False


@dataclass
class _Writer:
    one_paragraph: bool
    media: frozenset[str] | None
    #: The level of the field's top heading (written as ``###``).
    top_heading: int = 1
    images: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    context: str | None = None
    drawn: bool = False

    # -- blocks -------------------------------------------------------------------------

    def blocks(self, children: list[Element | str]) -> list[str]:
        out: list[str] = []
        run: list[Element | str] = []
        for child in children:
            if isinstance(child, Element) and child.tag in _BLOCKS:
                out += self.paragraphs(run)
                run = []
                out += self.block(child)
            else:
                run.append(child)
        out += self.paragraphs(run)
        return apart([block for block in out if block.strip()])

    def block(self, element: Element) -> list[str]:
        tag = element.tag
        if tag == "div" and "ag-context" in element.classes():
            self.context = " ".join(element.text().split())
            return []
        if tag in ("ul", "ol"):
            return [self.listing(element)]
        if tag == "pre":
            return [self.code_block(element.text())]
        if tag == "blockquote":
            inner = "\n\n".join(self.blocks(element.children))
            return ["\n".join("> " + line if line else ">" for line in inner.split("\n"))]
        if tag == "table":
            return [self.table(element)]
        if tag in HEADINGS:
            return self.heading(element)
        if tag == "details":
            return self.details(element)
        if tag == "hr":
            self.lost.append("a horizontal rule (<hr>)")
            return []
        if tag == "li":
            return [self.listing(Element("ul", children=[element]))]
        return self.blocks(element.children)

    def heading(self, element: Element) -> list[str]:
        """A sub-heading of the answer (format 15); a bold line in a question (one paragraph)."""
        text = self.inline(element.children).replace(BREAK, " ").strip()
        if not text:
            return []
        if self.one_paragraph:
            return [f"**{text}**"]
        return [sub_heading(text, HEADINGS[element.tag], self.top_heading)]

    def details(self, element: Element) -> list[str]:
        """``<details>`` as an HTML block around its body's markdown (format 16).

        The summary line is HTML, where markdown is not read: it keeps the elements
        of format 16 as HTML, and only the text of any other.
        """
        summaries = [c for c in element.children if isinstance(c, Element) and c.tag == "summary"]
        body = [c for c in element.children if not (isinstance(c, Element) and c.tag == "summary")]
        if self.one_paragraph:
            self.lost.append("a <details> in a question, written as lines")
            return self.blocks(element.children)
        lines = ["<details>"]
        if summaries:
            text = _one_line(summary_html(summaries[0], self.lost))
            lines.append(f"<summary>{text}</summary>")
        inner = self.blocks(body)
        return ["\n".join(lines), *inner, "</details>"]

    def paragraphs(self, run: list[Element | str]) -> list[str]:
        """An inline run as paragraphs: lines split at breaks, two breaks end a paragraph."""
        lines = [line.strip() for line in self.inline(run).split(BREAK)]
        paragraphs: list[list[str]] = [[]]
        for line in lines:
            if line:
                paragraphs[-1].append(escape_line_start(line))
            elif paragraphs[-1] and not self.one_paragraph:
                paragraphs.append([])
        return ["\\\n".join(p) for p in paragraphs if p]

    def listing(self, element: Element) -> str:
        entries = []
        number = 1
        for child in element.children:
            if isinstance(child, str):
                if not child.strip():
                    continue
                child = Element("li", children=[child])
            content: list[Element | str] = child.children if child.tag == "li" else [child]
            marker = f"{number}. " if element.tag == "ol" else "- "
            number += 1
            if self.one_paragraph:
                text = " ".join(self.blocks(content)).replace("\\\n", " ")
                entries.append(escape_line_start(marker.rstrip()) + " " + text)
                continue
            body = "\n\n".join(self.blocks(content)) or ""
            indent = " " * len(marker)
            lines = body.split("\n")
            entries.append(
                marker + lines[0] + "".join("\n" + (indent + ln if ln else "") for ln in lines[1:])
            )
        if self.one_paragraph:
            self.lost.append("a list in a question, written as lines")
            return "\\\n".join(entries)
        loose = any("\n\n" in entry for entry in entries)
        return ("\n\n" if loose else "\n").join(entries)

    def code_block(self, code: str) -> str:
        code = code.replace("\r\n", "\n").strip("\n")
        if self.one_paragraph:
            return "\\\n".join(code_span(line) for line in code.split("\n") if line.strip())
        fence = "`" * max(3, longest_run(code, "`") + 1)
        return f"{fence}\n{code}\n{fence}"

    def table(self, element: Element) -> str:
        rows = [
            # A cell is one line: a line break in it is section 16's <br>.
            [self.inline(cell.children).strip(BREAK + " ").replace(BREAK, "<br>") for cell in cells]
            for cells in _rows(element)
        ]
        rows = [row for row in rows if row]
        if not rows:
            return ""
        if self.one_paragraph:
            self.lost.append("a table in a question, written as lines")
            return "\\\n".join(" \\| ".join(row) for row in rows)
        width = max(len(row) for row in rows)
        rows = [row + [""] * (width - len(row)) for row in rows]
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
        lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
        return "\n".join(lines)

    # -- inline -------------------------------------------------------------------------

    def inline(self, children: list[Element | str]) -> str:
        return "".join(self.inline_one(child) for child in children)

    def inline_one(self, node: Element | str) -> str:
        if isinstance(node, str):
            text = text_to_markdown(node)
            self.lost += text.lost
            return text.markdown
        tag = node.tag
        if tag == "br":
            return BREAK
        if tag == "img":
            return self.image(node)
        if tag in _BLOCKS:  # a block inside inline markup: its text, on its own lines
            return BREAK + BREAK.join(self.blocks([node])).replace("\n", " ") + BREAK
        if tag == "span" and "ag-mc" in node.classes():
            formula = ankigen_html.clozed_formula(node)
            self.drawn = self.drawn or _has_image(node)
            if formula is not None:
                return formula
            self.lost.append("a clozed formula whose cloze could not be read back")
        inner = self.inline(node.children)
        if tag in _BOLD:
            return wrap(inner, "**")
        if tag in _ITALIC:
            return wrap(inner, "*")
        if tag in _STRIKE:
            return wrap(inner, "~~")
        if tag == "code":
            return code_span(node.text())
        if tag == "a":
            return self.link(node, inner)
        if tag in INLINE_HTML:
            return f"<{tag}{title(node)}>{inner}</{tag}>" if inner.strip() else inner
        if tag not in QUIET:
            self.lost.append(f"the markup of <{tag}> (its text is kept)")
        elif (node.attrs.get("style") or node.attrs.get("color")) and not _is_ours(node):
            self.lost.append(f"the style of <{tag}> (its text is kept)")
        return inner

    def image(self, node: Element) -> str:
        if ankigen_html.is_formula_image(node):
            self.drawn = True
            return ankigen_html.formula_markdown(node)
        src = node.attrs.get("src", "")
        if not is_plain_name(src):
            self.lost.append(f"image '{src[:80]}' (not a media file of the deck)")
            return ""
        if not is_image_name(src):
            self.lost.append(f"image '{src[:80]}' (not a PNG, JPEG, GIF, SVG or WebP file)")
            return ""
        if self.media is not None and src not in self.media:
            self.lost.append(f"image '{src[:80]}' (not in the package)")
            return ""
        self.images.append(src)
        alt = text_to_markdown(node.attrs.get("alt", "")).markdown
        return image_link(alt, src)

    def link(self, node: Element, inner: str) -> str:
        href = node.attrs.get("href", "")
        if not href.startswith(("http://", "https://", "mailto:")) or any(c in href for c in " <>"):
            if href:
                self.lost.append(f"link target '{href[:80]}'")
            return inner
        href = href.replace("(", "%28").replace(")", "%29")
        return f"[{inner}]({href})"


def _is_ours(node: Element) -> bool:
    return any(name.startswith("ag-") for name in node.classes())


def _has_image(element: Element) -> bool:
    return any(
        isinstance(c, Element) and (c.tag == "img" or _has_image(c)) for c in element.children
    )


def _rows(table: Element) -> list[list[Element]]:
    rows = []
    for child in table.children:
        if not isinstance(child, Element):
            continue
        if child.tag == "tr":
            rows.append(
                [c for c in child.children if isinstance(c, Element) and c.tag in ("td", "th")]
            )
        elif child.tag in ("thead", "tbody", "tfoot"):
            rows += _rows(child)
    return rows


def field_to_markdown(
    html: str, *, one_paragraph: bool = False, media: frozenset[str] | None = None
) -> Converted:
    """Convert one field's HTML; ``one_paragraph`` for a question (blocks become lines).

    ``media``: the image files there are (an image not among them is reported, not shown).
    """
    tree = parse_fragment(html)
    writer = _Writer(one_paragraph, media, top_heading(tree.root))
    blocks = writer.blocks(tree.root.children)
    lost = [f"<{tag}> and its content" for tag in tree.dropped if tag != "nesting"]
    if "nesting" in tree.dropped:
        lost.append("elements nested too deeply (flattened)")
    separator = "\\\n" if one_paragraph else "\n\n"
    return Converted(
        separator.join(blocks),
        tuple(dict.fromkeys(writer.images)),
        tuple(dict.fromkeys([*lost, *writer.lost])),
        writer.context,
        writer.drawn,
    )


#: A tag with its attributes (quoted values may hold ``>``), or a run of whitespace.
_TAG_OR_SPACE = re.compile(r"(<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>)|\s+")


def _one_line(html: str) -> str:
    """HTML on one line: whitespace runs in text become one space; tags keep theirs.

    An attribute's value (an ``<abbr>``'s title) is what the learner sees on
    hover, so its spaces are kept as written.
    """
    return _TAG_OR_SPACE.sub(lambda m: m.group(1) or " ", html).strip()
