"""Every card of a rendered deck, both sides, as Anki will show them, with its source line."""

from __future__ import annotations

import bisect
import dataclasses
import functools
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import genanki

from ankigen.cache import Decoded, Recall
from ankigen.diagnostics import Diagnostic
from ankigen.model import ItemKind, Note, RenderedDeck
from ankigen.package import card_ordinals
from ankigen.package.anki_cards import CardSides, render_card
from ankigen.package.note_types import cloze_model, reveal_model
from ankigen.preview.outline import Outline

#: An item id that can stand in a URL fragment as it is.
_PLAIN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
#: Notes whose cards are kept by their fields: ``ankigen watch`` renders again only
#: the notes an edit changed (a 100,000-note deck is kept whole).
_KEPT_NOTES = 1 << 17


@dataclass(frozen=True)
class PreviewCard:
    """One card: where its item is written, its note type, ordinal and both sides.

    ``anchor`` is the card's stable ``id`` on the page (from the item's id, or
    its GUID, and the cloze number); ``problems`` are the build's messages at
    the item's lines; ``section`` and ``callout`` place it in the file.
    """

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
    anchor: str = ""
    tags: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    section: str = ""
    callout: str | None = None

    def __hash__(self) -> int:
        return self._hash

    @functools.cached_property
    def _hash(self) -> int:
        """The hash of every field, worked out once: the page keeps each card's entry by
        its card, and a watch round asks for every card of the deck again."""
        return hash(tuple(getattr(self, field.name) for field in dataclasses.fields(self)))


def deck_cards(
    rendered: RenderedDeck,
    diagnostics: Sequence[Diagnostic] = (),
    outline: Outline | None = None,
    recall: Recall[_Shown] | None = None,
) -> tuple[PreviewCard, ...]:
    """The cards Anki makes from the deck's notes, in the order learners meet them.

    ``diagnostics`` of the deck's file are shown on the cards of the items at
    their lines; ``outline`` places each card in its section and callout.
    ``recall``: a watch process's last round (``cards_recall``), whose cards of
    the same note, in the same place with the same problems, are the cards again.
    """
    items = rendered.deck.items
    lines = sorted({item.line for item in items})
    problems = _problems_by_line(rendered.deck.display_path, diagnostics, lines)
    # By GUID, not by position: a partial build (format §19) renders no note for an
    # item left out, so notes and items need not pair up in order.
    by_guid = {item.guid: item for item in items}
    cards: list[PreviewCard] = []
    for note in rendered.notes:
        item = by_guid.get(note.guid)
        shown = _Shown(
            item.note_id if item is not None else None,
            problems.get(note.line, ()),
            outline.place(note.line) if outline is not None else ("", None),
            (),
        )
        last = recall.get(note, None) if recall is not None else None
        if last is None or last[:3] != shown[:3]:
            made = note_cards(note, rendered, shown.note_id, shown.problems, shown.place)
            last = shown._replace(cards=made)
        if recall is not None:
            recall.put(note, last)
        cards.extend(last.cards)
    return tuple(cards)


class _Shown(NamedTuple):
    """What a note's cards show besides the note, and the cards."""

    note_id: str | None
    problems: tuple[str, ...]
    place: tuple[str, str | None]
    cards: tuple[PreviewCard, ...]


def cards_recall(decoded: Decoded, rendered: RenderedDeck) -> Recall[_Shown]:
    """A new round's recall of the cards of ``rendered``'s notes (``deck_cards``)."""
    deck = rendered.deck
    return decoded.recall("preview-cards", deck.stem, deck.display_path)


def note_cards(
    note: Note,
    rendered: RenderedDeck,
    note_id: str | None = None,
    problems: tuple[str, ...] = (),
    place: tuple[str, str | None] = ("", None),
) -> tuple[PreviewCard, ...]:
    """The cards of one note: one per template (reveal) or per cloze number (cloze).

    ``note_id``: its item's id; ``place``: its section and callout.
    """
    model = _model(note.kind)
    template = model.templates[0]
    section, callout = place
    base = _anchor(note_id, note.guid)
    cards = []
    for sides in card_sides(note.kind, note.fields):
        ordinal = sides.ordinal
        cloze = note.kind is ItemKind.CLOZE
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
                anchor=f"{base}-c{ordinal + 1}" if cloze else base,
                tags=note.tags,
                problems=problems,
                section=section,
                callout=callout,
            )
        )
    return tuple(cards)


@functools.lru_cache(maxsize=_KEPT_NOTES)
def card_sides(kind: ItemKind, fields: tuple[str, ...]) -> tuple[CardSides, ...]:
    """Both sides of every card of a note: the same cards the package stage writes."""
    model = _model(kind)
    named = dict(zip([f["name"] for f in model.fields], fields, strict=True))
    template = model.templates[0]
    return tuple(
        render_card(template["qfmt"], template["afmt"], named, ordinal)
        for ordinal in card_ordinals(kind, fields)
    )


def _anchor(note_id: str | None, guid: str) -> str:
    """``card-<id>`` when the item's id is plain, else a hash of the id or GUID."""
    if note_id is not None and _PLAIN_ID.match(note_id) and len(note_id) <= 80:
        return f"card-{note_id}"
    source = note_id if note_id is not None else guid
    return "card-" + hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _problems_by_line(
    display_path: str, diagnostics: Sequence[Diagnostic], lines: list[int]
) -> dict[int, tuple[str, ...]]:
    """Each message of the file, under the line of the item it falls in (none before the
    first item)."""
    found: dict[int, list[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic.file != display_path or not lines or diagnostic.line < lines[0]:
            continue
        owner = lines[bisect.bisect_right(lines, diagnostic.line) - 1]
        severity = "error" if diagnostic.is_error else "warning"
        found.setdefault(owner, []).append(f"{severity}: {diagnostic.message}")
    return {line: tuple(messages) for line, messages in found.items()}


def _model(kind: ItemKind) -> genanki.Model:
    return cloze_model() if kind is ItemKind.CLOZE else reveal_model()
