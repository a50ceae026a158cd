"""One static HTML page per deck: every card's front and back, framed for the author.

Each side sits in ``<div class="card cardN">`` under the note type's own CSS,
as Anki's reviewer puts it in a ``<body class="card cardN">``; night mode
sets Anki's ``nightMode night_mode`` classes. The frame around the cards
gives a table of contents by section and callout (``contents``), a search
box, filters by tag and by problem, and a stable anchor per card
(``#card-<id>``). Nothing loads from the network and no script runs but the
page's own (``policy``): MathJax, when the deck needs it, is a file in the
page's own folder, and reads only the cards.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ankigen.diagnostics import Diagnostic
from ankigen.model import Prose
from ankigen.package.note_types import card_css
from ankigen.preview.contents import Group, contents, groups, tag_options, text
from ankigen.preview.deck import PreviewCard
from ankigen.preview.policy import asset, content_security_policy

#: Card entries kept by their number and card: ``ankigen watch`` writes again only the
#: entries an edit changed (a 10,000-item deck has about 13,000 cards).
_KEPT_ENTRIES = 1 << 15

#: The page's MathJax, relative to the page (copied there by the preview command).
MATHJAX_SCRIPT = "mathjax/tex-svg-full.js"


@dataclass(frozen=True)
class PageInput:
    """What one page shows: the deck, its cards, and how its formulas are typeset.

    ``mathjax``: True to typeset ``\\(...\\)`` with the page's MathJax, False to
    show TeX source (MathJax mode without a MathJax copy), None for image mode.
    """

    stem: str
    deck_name: str
    source: str
    cards: tuple[PreviewCard, ...]
    mathjax: bool | None
    #: The blocks that make no card, shown in their place, marked as prose (format §15).
    prose: tuple[Prose, ...] = ()
    #: The errors of items left out of the deck, each shown in its place (format §19).
    broken: tuple[Diagnostic, ...] = ()
    #: The first line of each ``##`` section (the outline's): what stands above a
    #: section's heading is shown above it, not among the section's cards.
    section_lines: tuple[int, ...] = ()


def page_html(page: PageInput) -> str:
    """The whole HTML page of a deck; the same input gives the same bytes."""
    return _page(page, _entry)


def page_frame(page: PageInput) -> str:
    """The page with each card's entry left out (a NUL in its place): two pages whose
    frames are equal differ only in the entries, each at the same place (``page_patch``)."""
    return _page(page, _no_entry)


class ShownPage(NamedTuple):
    """What a page was written from: its version, its frame (``page_frame``), its entries."""

    version: str
    frame: str
    entries: tuple[str, ...]


def shown_page(page: PageInput) -> tuple[str, ShownPage]:
    """``page_html``, and what a patch to the next version of the page is made from."""
    entries: list[str] = []

    def kept(number: int, card: PreviewCard) -> str:
        entry = _entry(number, card)
        entries.append(entry)
        return entry

    html = _page(page, kept)
    return html, ShownPage(page_version(html), page_frame(page), tuple(entries))


def page_patch(stem: str, before: ShownPage | None, after: ShownPage) -> str:
    """``<stem>.patch.js``: what turns the open page of one version into the next.

    ``before`` and ``after`` are a page's version, frame and entries (``before``:
    None when this process wrote no page of the deck yet). When the frames are
    equal, the patch lists the entries that changed, by their place among the
    page's entries, as JSON strings: data the page's own script puts in place of
    the old entries (parsed as HTML: nothing in them runs, and the page's policy
    forbids any script but its own). Otherwise the patch is null: the page reloads.
    """
    patch: dict[str, object] | None = None
    if (
        before is not None
        and before.frame == after.frame
        and len(before.entries) == len(after.entries)
    ):
        changed = [
            [place, entry]
            for place, (old, entry) in enumerate(zip(before.entries, after.entries, strict=True))
            if old != entry
        ]
        patch = {"from": before.version, "to": after.version, "entries": changed}
    # JSON with every non-ASCII character and every "<" escaped: one line of plain
    # string data whatever the cards hold.
    data = json.dumps(patch, ensure_ascii=True).replace("<", "\\u003c")
    return (
        "window.ankigenPatches = window.ankigenPatches || {};\n"
        f"window.ankigenPatches[{json.dumps(stem)}] = {data};\n"
    )


_VERSION = 'data-version="'


def page_version(page: str) -> str:
    """The version a page carries (the hash of its cards and blocks)."""
    # Found in place: a 10,000-card page is several megabytes, not copied to read 16 bytes.
    start = page.index(_VERSION) + len(_VERSION)
    return page[start : page.index('"', start)]


def _page(page: PageInput, entry: Callable[[int, PreviewCard], str]) -> str:
    """The page, each card's entry made by ``entry``."""
    page_groups = groups(page.cards)
    between = _between(page)
    parts: list[str] = []
    for group in page_groups:
        heading = _heading_line(page.section_lines, group.cards[0].line)
        while between and between[0][0] < heading:
            parts.append(between.pop(0)[1])
        parts.append(_group(group, between, entry))
    body = "\n".join(parts)
    if between:  # what follows the last card, or a page with no card at all
        body += "\n" + "\n".join(entry for _, entry in between)
    version = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
    title = text(page.deck_name)
    scripts = {name: asset(name) for name in ("problems.js", "mathjax.js", "preview.js")}
    inline = [scripts["problems.js"], scripts["preview.js"]]
    if page.mathjax:
        inline.append(scripts["mathjax.js"])
    flagged = sum(1 for card in page.cards if card.problems)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{content_security_policy(inline)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Preview: {title}</title>
<script>{scripts["problems.js"]}</script>
<style>
{card_css()}
</style>
<style>
{asset("preview.css")}
</style>
{_mathjax_head(page.mathjax, scripts["mathjax.js"])}
</head>
<body class="ag-preview tex2jax_ignore" data-stem="{text(page.stem)}" data-version="{version}"
      data-cards="{len(page.cards)}">
<header class="ag-toolbar">
<h1>{title}</h1>
<span>{_plural(len(page.cards), "card")} from <code>{text(page.source)}</code></span>
<input type="search" id="ag-search" placeholder="Search cards" aria-label="Search cards">
<select id="ag-tag" aria-label="Only cards with this tag"><option value="">All tags</option>{
        tag_options(page.cards)
    }</select>
<label><input type="checkbox" id="ag-with-problems"> Only cards with problems ({flagged})</label>
<span id="ag-shown"></span>
<button type="button" id="ag-theme">Night mode</button>
<button type="button" id="ag-width">Phone width</button>
<span id="ag-status"></span>
{_math_note(page.mathjax)}
</header>
<div class="ag-layout">
{contents(page_groups, page.deck_name)}
<main class="ag-deck">
{body}
</main>
</div>
<script>{scripts["preview.js"]}</script>
</body>
</html>
"""


def version_script(stem: str, page: str) -> str:
    """``<stem>.version.js``: tells an open page whether it is out of date."""
    version = page_version(page)
    return (
        "window.ankigenVersions = window.ankigenVersions || {};\n"
        f"window.ankigenVersions[{json.dumps(stem)}] = {json.dumps(version)};\n"
    )


def _group(
    group: Group, between: list[tuple[int, str]], entry: Callable[[int, PreviewCard], str]
) -> str:
    """One section: its heading, then its cards, each after the prose and broken items
    above it (taken from the front of ``between``, which is in line order)."""
    heading = f"<h2>{text(group.name)}</h2>" if group.name else ""
    entries: list[str] = []
    for number, card in enumerate(group.cards, start=group.first):
        while between and between[0][0] < card.line:
            entries.append(between.pop(0)[1])
        entries.append(entry(number, card))
    body = "\n".join(entries)
    return f'<section class="ag-section" id="{group.anchor}">{heading}\n{body}\n</section>'


def _heading_line(section_lines: tuple[int, ...], line: int) -> int:
    """The first line of the section that holds ``line`` (0: none, or no outline)."""
    index = bisect.bisect_right(section_lines, line) - 1
    return section_lines[index] if index >= 0 else 0


def _between(page: PageInput) -> list[tuple[int, str]]:
    """The prose blocks and broken items of the page with their lines, in line order."""
    return sorted(
        [(block.line, _prose_entry(page.source, block)) for block in page.prose]
        + [(error.line, _broken_entry(error)) for error in page.broken],
        key=lambda entry: entry[0],
    )


def _broken_entry(error: Diagnostic) -> str:
    """An item left out of the deck for an error, with that error's message."""
    return _off_card("ag-broken", error.location, "left out", "ag-broken-message", error.format())


def _prose_entry(source: str, block: Prose) -> str:
    """A block on no card, as its author wrote it, marked as prose."""
    return _off_card("ag-prose", f"{source}:{block.line}", "prose", "ag-prose-text", block.text)


def _off_card(kind: str, location: str, label: str, body_class: str, body: str) -> str:
    """A block of the file that is on no card: where it stands, what it is, its text."""
    where = text(location)
    return (
        f'<section class="{kind}" data-source="{where}">'
        f'<div class="ag-entry-head"><span class="ag-where">{where}</span>'
        f"<span>{label}: on no card</span></div>"
        f'<pre class="{body_class}">{text(body)}</pre></section>'
    )


def _no_entry(number: int, card: PreviewCard) -> str:
    """A card's place in a page's frame."""
    return "\0"


@functools.lru_cache(maxsize=_KEPT_ENTRIES)
def _entry(number: int, card: PreviewCard) -> str:
    """One card: where it comes from, its tags and problems, then its front and its back."""
    kind = f"cloze c{card.ordinal + 1}" if card.note_type.endswith("Cloze") else "reveal"
    sides = "".join(
        f'<div class="ag-side"><div class="ag-side-label">{label}</div>'
        f'<div class="card card{card.ordinal + 1} tex2jax_process">{side}</div></div>'
        for label, side in (("Front", card.front), ("Back", card.back))
    )
    tags = "".join(f'<span class="ag-tag">{text(tag)}</span>' for tag in card.tags)
    problems = "".join(f"<li>{text(problem)}</li>" for problem in card.problems)
    listed = f'<ul class="ag-issues">{problems}</ul>' if problems else ""
    return (
        f'<article class="ag-entry" id="{text(card.anchor or f"card-{number}")}" '
        f'data-source="{text(card.source)}" data-tags="{text(" ".join(card.tags))}" '
        f'data-issues="{len(card.problems)}">'
        f'<div class="ag-entry-head"><a href="#{text(card.anchor or f"card-{number}")}">'
        f"#{number}</a>"
        f'<span class="ag-where">{text(card.source)}</span>'
        f"<span>{text(card.note_type)}, {kind}</span>"
        f"<span>{text(card.deck_name)}</span>{tags}</div>{listed}"
        f'<div class="ag-sides">{sides}</div></article>'
    )


def _mathjax_head(mathjax: bool | None, config: str) -> str:
    if not mathjax:
        return ""
    return f'<script>{config}</script>\n<script src="{MATHJAX_SCRIPT}"></script>'


def _math_note(mathjax: bool | None) -> str:
    if mathjax is False:
        return (
            '<span class="ag-note">MathJax is not installed with ankigen here: formulas '
            "show as TeX source; Anki typesets them.</span>"
        )
    return ""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
