"""What a warm process keeps from one deck it wrote to the next: the card ordinals of a note."""

from __future__ import annotations

from ankigen.model import ItemKind, Note
from ankigen.package import card_ordinals
from ankigen.package.memo import PackageMemo


def _note(text: str) -> Note:
    return Note(ItemKind.CLOZE, (text, "", "deck.md#a"), "guid", (), "Deck", 1)


def test_card_ordinals_of_the_same_note_are_taken_from_the_last_deck() -> None:
    memo, counted = PackageMemo(), list[str]()

    def ordinals(note: Note) -> tuple[int, ...]:
        counted.append(note.fields[0])
        return card_ordinals(note.kind, note.fields)

    kept, edited = _note("{{c1::a}} {{c2::b}}"), _note("{{c1::x}}")
    assert memo.cards("deck", [kept, edited], ordinals) == [(0, 1), (0,)]
    # The same note again, and an edited one: only the new note is read.
    again = _note("{{c1::x}} {{c3::y}}")
    assert memo.cards("deck", [kept, again], ordinals) == [(0, 1), (0, 2)]
    assert counted == ["{{c1::a}} {{c2::b}}", "{{c1::x}}", "{{c1::x}} {{c3::y}}"]
    # Another deck's notes are its own.
    assert memo.cards("other", [kept], ordinals) == [(0, 1)]
    assert len(counted) == 4
