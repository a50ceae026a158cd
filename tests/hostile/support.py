"""Build a hostile case, import it into real Anki, and judge every side of every card.

Anki's import is part of what is judged: the collection NFC-normalises every
field (``tests/anki_support.py``), and a field the import changes is a problem
(what ankigen judged would not be what Anki keeps). Each side must also be
what ``package/anki_cards.py``, the preview's model of Anki, renders.
"""

from __future__ import annotations

import json
import re
import sqlite3
import tempfile
import tomllib
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

from anki import notes_pb2
from anki.cards import Card
from anki.collection import Collection
from anki.notes import Note

from ankigen.package.anki_cards import CardSides, render_card
from ankigen.package.note_types import cloze_model, reveal_model
from tests.anki_support import import_deck
from tests.hostile.judge import judge, svg_problems

CASES = Path(__file__).parent / "cases"


@dataclass(frozen=True)
class Case:
    """One folder of ``cases/``: its content and what ``case.toml`` expects.

    ``outcome`` is ``built`` or ``refused``; ``diagnostics`` are texts the
    build's messages must hold; ``shows`` are texts a learner must read,
    literally, on some card; ``modes`` are the math modes to build in;
    ``options`` are extra command-line options (``--strict``).
    """

    name: str
    folder: Path
    outcome: str
    modes: tuple[str, ...]
    diagnostics: tuple[str, ...]
    shows: tuple[str, ...]
    options: tuple[str, ...] = ()


def load_cases() -> list[Case]:
    """Every case folder, in name order."""
    cases = []
    for folder in sorted(p for p in CASES.iterdir() if p.is_dir()):
        spec = tomllib.loads((folder / "case.toml").read_text("utf-8"))
        cases.append(
            Case(
                folder.name,
                folder,
                spec["outcome"],
                tuple(spec.get("modes", ["image", "mathjax"])),
                tuple(spec.get("diagnostics", [])),
                tuple(spec.get("shows", [])),
                tuple(spec.get("options", [])),
            )
        )
    return cases


@dataclass(frozen=True)
class Side:
    """One side of one card as Anki rendered it, and what the judge found."""

    label: str
    problems: tuple[str, ...]
    text: str


def judged_sides(collection: Collection, apkg: Path, *, mathjax: bool) -> list[Side]:
    """Import ``apkg``, judge the front and back of each card, then remove its notes again.

    Removing the notes lets one collection serve every case of a test module.
    """
    media = _media_names(apkg)
    written = written_fields(apkg)
    import_deck(collection, apkg)
    sides: list[Side] = []
    try:
        for note_id in collection.find_notes(""):
            note = collection.get_note(note_id)
            changed = _import_changes(written.get(note.guid, ()), tuple(note.fields))
            sides.append(Side(f"note {note.guid} on import", changed + _misplaced_cloze(note), ""))
        # Every ordinal Anki makes, not only the cards the deck holds: Anki generates
        # the missing ones when a note is edited or the collection is checked.
        shipped = len(collection.find_cards(""))
        collection.after_note_updates(list(collection.find_notes("")), mark_modified=False)
        generated = len(collection.find_cards("")) - shipped
        if generated:
            sides.append(Side("deck", (f"Anki makes {generated} more cards",), ""))
        for card_id in collection.find_cards("", order="c.due, c.ord"):
            card = collection.get_card(card_id)
            modelled = _modelled_sides(card, written)
            for label, html, tags, model in (
                ("front", card.question(), card.question_av_tags(), modelled.front),
                ("back", card.answer(), card.answer_av_tags(), modelled.back),
            ):
                verdict = judge(html, media, mathjax=mathjax)
                problems = verdict.problems + [f"Anki would play {tag!r}" for tag in tags]
                if _without_style(html) != model:
                    problems.append(f"package/anki_cards.py renders it otherwise: {model!r}")
                sides.append(Side(f"card {card.ord + 1} {label}", tuple(problems), verdict.text))
    finally:
        collection.remove_notes(collection.find_notes(""))
    return sides


#: Anki's verdicts on a note's fields that mean it reads cloze syntax where the note
#: makes no card of it (a Reveal note, or a cloze note's Source field).
_MISPLACED_CLOZE = frozenset({"NOTETYPE_NOT_CLOZE", "FIELD_NOT_CLOZE"})


def _misplaced_cloze(note: Note) -> tuple[str, ...]:
    """Anki's own check of the note's fields, when it finds cloze syntax out of place."""
    state = notes_pb2.NoteFieldsCheckResponse.State.Name(note.fields_check())
    return (f"Anki's check of the note's fields says {state}",) if state in _MISPLACED_CLOZE else ()


def _modelled_sides(card: Card, written: dict[str, tuple[str, ...]]) -> CardSides:
    """The card as ``package/anki_cards.py`` (the preview's model of Anki) renders the
    fields the deck file holds: it must agree with Anki itself, hostile cards included."""
    note = card.note()
    model = cloze_model() if card.note_type()["name"] == cloze_model().name else reveal_model()
    template = model.templates[0]
    fields = dict(zip((f["name"] for f in model.fields), written[note.guid], strict=True))
    return render_card(template["qfmt"], template["afmt"], fields, card.ord)


def _without_style(side: str) -> str:
    return re.sub(r"<style>.*?</style>", "", side, flags=re.DOTALL)


def written_fields(apkg: Path) -> dict[str, tuple[str, ...]]:
    """Each note's fields as the deck file holds them (before Anki imports them), by GUID."""
    with zipfile.ZipFile(apkg) as archive, tempfile.TemporaryDirectory() as folder:
        newer = "collection.anki21" in archive.namelist()
        name = "collection.anki21" if newer else "collection.anki2"
        database = Path(archive.extract(name, folder))
        with sqlite3.connect(database) as connection:
            rows = connection.execute("select guid, flds from notes").fetchall()
        connection.close()
    return {guid: tuple(fields.split("\x1f")) for guid, fields in rows}


def _import_changes(written: tuple[str, ...], stored: tuple[str, ...]) -> tuple[str, ...]:
    """How Anki's import (its NFC normalisation) changed a note's fields: nothing, when
    what ankigen wrote and judged is what Anki keeps."""
    problems = [
        f"field {number} changed on import: {before!r} -> {after!r}"
        for number, (before, after) in enumerate(zip(written, stored, strict=False), 1)
        if before != after
    ]
    if len(written) != len(stored):
        problems.append(f"{len(written)} fields written, {len(stored)} stored")
    problems += [
        f"field {number} not NFC after import"
        for number, value in enumerate(stored, 1)
        if not unicodedata.is_normalized("NFC", value)
    ]
    return tuple(problems)


def media_problems(apkg: Path) -> list[str]:
    """Script-bearing SVG files shipped in the deck."""
    with zipfile.ZipFile(apkg) as archive:
        names = json.loads(archive.read("media"))
        return [
            f"{name}: {problem}"
            for number, name in names.items()
            if name.endswith(".svg")
            for problem in svg_problems(archive.read(number))
        ]


def _media_names(apkg: Path) -> frozenset[str]:
    with zipfile.ZipFile(apkg) as archive:
        return frozenset(json.loads(archive.read("media")).values())
