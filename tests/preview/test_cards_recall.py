"""A watch process's preview takes a note's cards from its last round only while nothing
they show changed: the same note (the very object), its item's id, problems and place."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ankigen.cache import Decoded
from ankigen.diagnostics import Code, warning
from ankigen.model import RenderedDeck
from ankigen.parse import parse_text
from ankigen.preview.deck import cards_recall, deck_cards
from ankigen.preview.outline import outline
from ankigen.render import RenderSettings, render_decks

TEXT = """\
# Cards

## First

Plain question ::: plain answer. <!-- id: plain -->

The {{c1::mitochondrion}} makes {{c2::ATP}}.
"""


def _rendered(root: Path) -> RenderedDeck:
    deck = parse_text(TEXT, root / "cards.md", root, "cards.md").deck
    assert deck is not None
    report = render_decks([deck], {}, {}, RenderSettings(root / "figures", root / "cache"))
    return report.decks[0]


def test_the_same_notes_give_the_same_cards_and_a_new_problem_new_ones(tmp_path: Path) -> None:
    rendered, decoded = _rendered(tmp_path), Decoded()
    places = outline(TEXT)
    first = deck_cards(rendered, (), places, cards_recall(decoded, rendered))
    again = deck_cards(rendered, (), places, cards_recall(decoded, rendered))
    assert first == deck_cards(rendered, (), places)  # the slow path's cards
    assert len(again) == 3 and all(a is b for a, b in zip(first, again, strict=True))

    problem = warning("cards.md", 5, "a problem", column=1, code=Code.NO_ITEMS)
    shown = deck_cards(rendered, (problem,), places, cards_recall(decoded, rendered))
    assert shown == deck_cards(rendered, (problem,), places)
    assert shown[0].problems and shown[0] is not again[0]  # the item with the problem
    assert shown[1] is again[1] and shown[2] is again[2]  # the others: as they were


def test_an_equal_note_that_is_another_object_is_made_again(tmp_path: Path) -> None:
    rendered, decoded = _rendered(tmp_path), Decoded()
    first = deck_cards(rendered, (), None, cards_recall(decoded, rendered))
    copied = dataclasses.replace(
        rendered, notes=tuple(dataclasses.replace(note) for note in rendered.notes)
    )
    again = deck_cards(copied, (), None, cards_recall(decoded, copied))
    assert again == first and not any(a is b for a, b in zip(first, again, strict=True))


def test_a_cards_hash_is_that_of_its_fields(tmp_path: Path) -> None:
    """The page keeps entries by card: equal cards hash equal, however they were made."""
    card = deck_cards(_rendered(tmp_path))[0]
    same = dataclasses.replace(card)
    other = dataclasses.replace(card, problems=("warning: x",))
    assert same is not card and same == card and hash(same) == hash(card)
    assert other != card and {card: 1, other: 2}[same] == 1
