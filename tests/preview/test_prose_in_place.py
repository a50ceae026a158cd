"""Format §15: the preview shows prose in its place between the cards, marked as prose."""

from __future__ import annotations

import dataclasses

from ankigen.model import Prose
from ankigen.preview.deck import PreviewCard
from ankigen.preview.page import PageInput, page_html


def card(line: int) -> PreviewCard:
    return PreviewCard(
        source=f"x.md:{line}",
        note_type="ankigen Reveal",
        template="Card 1",
        ordinal=0,
        guid=f"g{line}",
        deck_name="X",
        front=f"front {line}",
        back=f"back {line}",
        line=line,
    )


def test_prose_stands_between_the_cards_of_its_place_escaped() -> None:
    page = page_html(
        PageInput(
            stem="x",
            deck_name="X",
            source="x.md",
            cards=(card(3), card(9)),
            mathjax=None,
            prose=(Prose(12, "After <b>all</b>."), Prose(1, "Intro:"), Prose(5, "Between.")),
        )
    )
    order = [page.index(text) for text in ("Intro:", "front 3", "Between.", "front 9", "After")]
    assert order == sorted(order)
    assert '<section class="ag-prose" data-source="x.md:5">' in page
    assert "After &lt;b&gt;all&lt;/b&gt;." in page  # shown as written, never as HTML


def test_prose_above_a_sections_heading_stands_above_it() -> None:
    # `# X` at line 1, its prose at line 3, then `## Sums` at line 6 and its card at 8.
    sums = dataclasses.replace(card(8), section="Sums")
    page = page_html(
        PageInput(
            stem="x",
            deck_name="X",
            source="x.md",
            cards=(sums,),
            mathjax=None,
            prose=(Prose(3, "What this deck is."), Prose(7, "Inside the section.")),
            section_lines=(1, 6),
        )
    )
    order = [page.index(t) for t in ("What this deck is.", "<h2>Sums</h2>", "Inside the section.")]
    assert order == sorted(order)
