"""Notes written as rows (``package.collection``) give the database genanki's notes give.

The reference is the way decks were written before: a genanki ``Note`` per
note (with the cards Anki makes and the note's own time) added to genanki
decks, written by ``genanki.Package.write_to_db``. Both databases must be the
same bytes, for any mix of note types, subdecks, tags, times and fields.
"""

from __future__ import annotations

import itertools
import sqlite3
import warnings
from pathlib import Path

import genanki
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.model import ItemKind
from ankigen.package import _write_collection, card_ordinals, deck_id
from ankigen.package.collection import NoteRow, RowDeck
from ankigen.package.note_types import cloze_model, reveal_model

TIMESTAMP = 1700000000.0


class _Note(genanki.Note):  # type: ignore[misc]
    """genanki's note with Anki's own cards and its own time (the former ankigen note)."""

    def __init__(self, ordinals: tuple[int, ...], mtime: float, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._ordinals = ordinals
        self.mtime = mtime

    @property
    def cards(self) -> list[genanki.Card]:
        return [genanki.Card(ordinal) for ordinal in self._ordinals]

    def write_to_db(self, cursor: object, timestamp: float, deck_id: int, id_gen: object) -> None:
        super().write_to_db(cursor, self.mtime, deck_id, id_gen)


Spec = tuple[ItemKind, str, str, tuple[str, ...], float]

_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
_CLOZE_TEXT = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(
    lambda numbers: " ".join(f"{{{{c{n}::part {n}}}}}" for n in numbers)
)
_NOTE = st.one_of(
    st.tuples(st.just(ItemKind.REVEAL), _TEXT),
    st.tuples(st.just(ItemKind.CLOZE), _CLOZE_TEXT),
).flatmap(
    lambda kind_front: st.tuples(
        st.just(kind_front[0]),
        st.just(kind_front[1]),
        st.sampled_from(["", "Sub A", "Sub B"]),
        st.lists(st.sampled_from(["a", "b::c", "tag_1"]), max_size=3).map(tuple),
        st.sampled_from([TIMESTAMP, TIMESTAMP - 86400.5, 1600000000.0]),
    )
)


def _databases(tmp_path: Path, specs: list[Spec]) -> tuple[bytes, bytes]:
    models = {ItemKind.CLOZE: cloze_model(), ItemKind.REVEAL: reveal_model()}
    genanki_decks: dict[str, genanki.Deck] = {}
    row_decks: dict[str, RowDeck] = {}
    for position, (kind, front, sub, tags, mtime) in enumerate(specs):
        name = sub or "Main"
        ident = deck_id("key", sub)
        fields = (front, f"back {position}", f"deck.md:{position}")
        ordinals = card_ordinals(kind, fields)
        guid = f"guid{position}"
        genanki_decks.setdefault(name, genanki.Deck(ident, name)).add_note(
            _Note(
                ordinals,
                mtime,
                model=models[kind],
                fields=list(fields),
                guid=guid,
                tags=list(tags),
                due=position,
                sort_field=fields[0],
            )
        )
        row_decks.setdefault(name, RowDeck(ident, name)).add_row(
            NoteRow(models[kind], fields, guid, tags, position, mtime, ordinals)
        )
    old, new = tmp_path / "old.anki2", tmp_path / "new.anki2"
    _write_collection(genanki.Package(list(genanki_decks.values())), old, TIMESTAMP)
    _write_collection(genanki.Package(list(row_decks.values())), new, TIMESTAMP)
    return old.read_bytes(), new.read_bytes()


@settings(max_examples=15, deadline=None)
@given(specs=st.lists(_NOTE, min_size=1, max_size=8))
def test_rows_give_the_bytes_genanki_notes_give(
    tmp_path_factory: pytest.TempPathFactory, specs: list[Spec]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # genanki warns about text that looks like a tag
        old, new = _databases(tmp_path_factory.mktemp("db"), specs)
    assert old == new


def test_a_big_deck_gives_the_same_bytes(tmp_path: Path) -> None:
    kinds = itertools.cycle([ItemKind.REVEAL, ItemKind.CLOZE, ItemKind.REVEAL])
    specs: list[Spec] = [
        (
            kind,
            "{{c1::a}} {{c2::b}}" if kind is ItemKind.CLOZE else f"q {i} " * 40,
            "" if i % 7 else "Sub",
            ("t",),
            TIMESTAMP - i,
        )
        for i, kind in zip(range(3000), kinds, strict=False)
    ]
    old, new = _databases(tmp_path, specs)
    assert old == new
    with sqlite3.connect(tmp_path / "new.anki2") as db:
        assert db.execute("select count(*) from cards").fetchone() == (4000,)


def test_genanki_checks_still_hold(tmp_path: Path) -> None:
    deck = RowDeck(1, "d")
    with pytest.raises(ValueError, match="contains a space"):
        deck.add_row(NoteRow(reveal_model(), ("q", "a", "s"), "g", ("a tag",), 0, 0.0, (0,)))
    with pytest.raises(ValueError, match="fields"):
        deck.add_row(NoteRow(reveal_model(), ("q", "a"), "g", (), 0, 0.0, (0,)))


def test_no_quadratic_html_check_over_fields_ankigen_wrote() -> None:
    """genanki's broken-tag pattern takes minutes on one line of 200,000 links (quadratic);
    ankigen wrote every field itself, so adding such a row must not run it (this test
    would hang the suite if it did)."""
    links = '<a href="https://example.org/x">x</a> ' * 200_000
    deck = RowDeck(1, "d")
    deck.add_row(NoteRow(reveal_model(), ("q", links, "s"), "g", (), 0, 0.0, (0,)))
    assert deck.rows[0].fields[1] is links
