"""Anki notes (from an ``.apkg`` or a CrowdAnki export) as items, grouped into decks.

Notes of ankigen's own note types come back as the items they were built
from (formula images as their TeX, context lines as the sections and
callouts that made them); Anki's Cloze type (and any cloze type) as cloze
items; Basic and every other type by their first two fields, the others
and any further card types reported. Every note keeps its GUID.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ankigen.diagnostics import Diagnostic
from ankigen.importers.apkg import NoteTypeSchema, StoredNote
from ankigen.importers.html_to_markdown import Converted, field_to_markdown
from ankigen.importers.model import ImportedDeck, ImportedItem, Origin
from ankigen.importers.sections import place_ankigen_items
from ankigen.package.release import is_release_tag
from ankigen.parse.slug import slugify
from ankigen.syntax import cloze

_ANKIGEN = {"ankigen Reveal": ("Question", "Answer"), "ankigen Cloze": ("Text", "Extra")}


@dataclass(frozen=True)
class _Note:
    """A note read back: its item and the fields' media, or None with the reason it was left out."""

    item: ImportedItem | None
    images: tuple[str, ...]
    ours: bool
    #: Whether ankigen drew the note's formulas as images (the deck was built in image mode).
    drawn: bool = False


def notes_to_decks(
    source: str,
    notes: Iterable[tuple[StoredNote, Origin]],
    note_types: dict[int, NoteTypeSchema],
    media: tuple[frozenset[str], Callable[[str], bytes | None]],
    problems: list[Diagnostic],
) -> tuple[ImportedDeck, ...]:
    """One deck per deck name; ``media``: the media files there are, and how to read one."""
    names, read = media
    by_deck: dict[str, list[_Note]] = {}
    for note, origin in notes:
        schema = note_types.get(note.note_type)
        read_note = _read_note(note, schema, origin, names, problems)
        by_deck.setdefault(note.deck or source, []).append(read_note)
    stems: set[str] = set()
    return tuple(
        _deck(name, notes_, source, read, stems, problems) for name, notes_ in by_deck.items()
    )


def _deck(
    name: str,
    notes: list[_Note],
    source: str,
    read: Callable[[str], bytes | None],
    stems: set[str],
    problems: list[Diagnostic],
) -> ImportedDeck:
    kept = [n for n in notes if n.item is not None]
    placed, prompts = place_ankigen_items([n.item for n in kept if n.item], [n.ours for n in kept])
    files: list[tuple[str, bytes]] = []
    for image in sorted({i for n in notes if n.item is not None for i in n.images}):
        data = read(image)
        if data is None:
            problems.append(Origin(source, 1).lost(f"image '{image}' (not in the package)"))
        else:
            files.append((image, data))
    drawn = any(n.drawn for n in notes)
    return ImportedDeck(
        name=name,
        stem=_stem(name, stems),
        items=tuple(placed),
        source=source,
        math="image" if drawn else "mathjax",
        prompts=prompts,
        media=tuple(files),
    )


def _stem(deck_name: str, taken: set[str]) -> str:
    parts = deck_name.split("::")
    base = slugify(parts[-1]) or "deck"
    if base in taken and len(parts) > 1:  # two subdecks of one name: the parent tells them apart
        base = slugify(" ".join(parts[-2:])) or base
    stem, number = base, 2
    while stem in taken:
        stem, number = f"{base}-{number}", number + 1
    taken.add(stem)
    return stem


def _read_note(
    note: StoredNote,
    schema: NoteTypeSchema | None,
    origin: Origin,
    media: frozenset[str],
    problems: list[Diagnostic],
) -> _Note:
    if schema is None:
        problems.append(origin.lost("a note whose note type is not in the package"))
        return _Note(None, (), False)
    ours = _ANKIGEN.get(schema.name) == schema.fields[:2]
    fields = [*note.fields, "", ""]
    if not ours:
        _report_dropped(schema, note, origin, problems)
    question = field_to_markdown(fields[0], one_paragraph=True, media=media)
    answer = field_to_markdown(fields[1], media=media)
    for converted in (question, answer):
        problems += [origin.lost(what) for what in converted.lost]
    is_cloze = schema.is_cloze
    if not question.markdown.strip():
        problems.append(origin.lost("a note with an empty first field (no card to make)"))
        return _Note(None, (), ours)
    if not is_cloze and not answer.markdown.strip():
        problems.append(origin.lost("a note with an empty answer (ankigen needs one)"))
        return _Note(None, (), ours)
    if not is_cloze and cloze.has_cloze(question.markdown):
        problems.append(
            origin.lost("its note type: cloze markers in its front make it a cloze item")
        )
    if is_cloze and not cloze.has_cloze(question.markdown):
        problems.append(origin.lost("a cloze note without a cloze in its text"))
        return _Note(None, (), ours)
    item = ImportedItem(
        question=question.markdown,
        answer=answer.markdown,
        origin=origin,
        cloze=is_cloze,
        tags=tuple(t for t in note.tags if not is_release_tag(t)),
        guid=note.guid,
        callout=_context_callout(question, note.tags) if ours else None,
        section=_context_section(question, note.tags) if ours else None,
    )
    drawn = ours and (question.drawn or answer.drawn)
    return _Note(item, (*question.images, *answer.images), ours, drawn)


_CALLOUT_KINDS = ("recall", "formula", "note")


def _context_callout(question: Converted, tags: tuple[str, ...]) -> tuple[str, str] | None:
    """The titled callout an ankigen note stood in: its context line and kind tag."""
    kind = next((k for k in _CALLOUT_KINDS if k in tags), None)
    if question.context and kind:
        return kind, question.context
    return None


def _context_section(question: Converted, tags: tuple[str, ...]) -> str | None:
    """The section whose heading an ankigen note showed as its context line, if any."""
    if question.context and not any(k in tags for k in _CALLOUT_KINDS):
        return question.context
    return None


def _report_dropped(
    schema: NoteTypeSchema, note: StoredNote, origin: Origin, problems: list[Diagnostic]
) -> None:
    dropped = [
        name
        for name, value in zip(schema.fields[2:], note.fields[2:], strict=False)
        if value.strip()
    ]
    if dropped:
        names = ", ".join(f"'{name}'" for name in dropped)
        problems.append(origin.lost(f"fields {names} of note type '{schema.name}'"))
    if len(schema.templates) > 1 and not schema.is_cloze:
        others = ", ".join(f"'{t}'" for t in schema.templates[1:])
        problems.append(origin.lost(f"card types {others} of note type '{schema.name}'"))
