"""The page's table of contents and its cards grouped by section.

Every text here comes from the author (deck, section, callout and file
names, tags, messages quoting the content): each is HTML-escaped by
``text`` and reaches the page as text only, inside a ``tex2jax_ignore``
body, so no markup and no MathJax is ever made of it.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ankigen.preview.deck import PreviewCard


def text(value: str) -> str:
    """Author text as HTML text or attribute value (quotes escaped too)."""
    return html.escape(value, quote=True)


@dataclass(frozen=True)
class Group:
    """The cards of one section, in order (numbered from ``first``)."""

    number: int
    name: str
    first: int
    cards: tuple[PreviewCard, ...]

    @property
    def anchor(self) -> str:
        """The section's ``id`` on the page."""
        return f"ag-section-{self.number}"


def groups(cards: Sequence[PreviewCard]) -> tuple[Group, ...]:
    """Runs of cards of one section, in the file's order."""
    found: list[Group] = []
    start = 0
    for index in range(1, len(cards) + 1):
        if index == len(cards) or cards[index].section != cards[start].section:
            number = len(found) + 1
            found.append(Group(number, cards[start].section, start + 1, tuple(cards[start:index])))
            start = index
    return tuple(found)


def contents(page_groups: Sequence[Group], title: str) -> str:
    """``<nav>``: cards with problems first, then each section and the callouts in it."""
    return (
        '<nav class="ag-toc" aria-label="Contents">\n'
        f"{_problems(page_groups)}"
        '<h2 class="ag-toc-head">Contents</h2>\n<ul>\n'
        + "".join(_section(group, title) for group in page_groups)
        + "</ul>\n</nav>"
    )


def tag_options(cards: Sequence[PreviewCard]) -> str:
    """The ``<option>`` of every tag a card carries, sorted."""
    tags = sorted({tag for card in cards for tag in card.tags})
    return "".join(f'<option value="{text(tag)}">{text(tag)}</option>' for tag in tags)


def _problems(page_groups: Sequence[Group]) -> str:
    flagged = [card for _, card in _numbered(page_groups) if card.problems]
    if not flagged:
        return '<p class="ag-toc-clean">No card has a problem.</p>\n'
    links = "".join(
        f'<li><a href="#{text(card.anchor)}">{text(card.source)}</a>: '
        f"{text(card.problems[0])}</li>\n"
        for card in flagged
    )
    return (
        f'<details class="ag-toc-problems" open><summary>Cards with problems ({len(flagged)})'
        f"</summary>\n<ul>\n{links}</ul></details>\n"
    )


def _section(group: Group, title: str) -> str:
    callouts = list(dict.fromkeys((c.callout, c.anchor) for c in group.cards if c.callout))
    seen: set[str] = set()
    items = []
    for callout, anchor in callouts:
        if callout not in seen:  # the first card of each callout
            seen.add(callout)
            items.append(f'<li><a href="#{text(anchor)}">{text(callout)}</a></li>')
    inner = f'<ul class="ag-toc-callouts">{"".join(items)}</ul>' if items else ""
    name = group.name or title
    return (
        f'<li><a href="#{group.anchor}">{text(name)}</a> '
        f'<span class="ag-count">{len(group.cards)}</span>{inner}</li>\n'
    )


def _numbered(page_groups: Sequence[Group]) -> Iterator[tuple[int, PreviewCard]]:
    for group in page_groups:
        yield from enumerate(group.cards, start=group.first)
