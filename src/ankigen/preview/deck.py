"""Every card of a rendered deck, both sides, as Anki will show them, with its source line."""

from __future__ import annotations

from dataclasses import dataclass

import genanki

from ankigen.model import ItemKind
from ankigen.package import card_ordinals
from ankigen.package.anki_cards import render_card
from ankigen.package.note_types import cloze_model, reveal_model
from ankigen.render import Note, RenderedDeck


@dataclass(frozen=True)
class PreviewCard:
    """One card: where its item is written, its note type, ordinal and both sides."""

    source: str
    note_type: str
    template: str
    ordinal: int
    guid: str
    deck_name: str
    front: str
    back: str
    #: The line its item starts on.
    line: int = 0


def deck_cards(rendered: RenderedDeck) -> tuple[PreviewCard, ...]:
    """The cards Anki makes from the deck's notes, in the order learners meet them."""
    return tuple(card for note in rendered.notes for card in note_cards(note, rendered))


def note_cards(note: Note, rendered: RenderedDeck) -> tuple[PreviewCard, ...]:
    """The cards of one note: one per template (reveal) or per cloze number (cloze)."""
    model = _model(note.kind)
    names = [f["name"] for f in model.fields]
    fields = dict(zip(names, note.fields, strict=True))
    template = model.templates[0]
    cards = []
    # The same cards the package stage writes.
    for ordinal in card_ordinals(note.kind, note.fields):
        sides = render_card(template["qfmt"], template["afmt"], fields, ordinal)
        cards.append(
            PreviewCard(
                source=f"{rendered.deck.display_path}:{note.line}",
                note_type=model.name,
                template=template["name"],
                ordinal=ordinal,
                guid=note.guid,
                deck_name=note.deck_name,
                front=sides.front,
                back=sides.back,
                line=note.line,
            )
        )
    return tuple(cards)


def _model(kind: ItemKind) -> genanki.Model:
    return cloze_model() if kind is ItemKind.CLOZE else reveal_model()
