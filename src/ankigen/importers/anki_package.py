"""``ankigen import DECK.apkg``: each deck of a package as content, each note as an item.

Notes of ankigen's own note types come back as the items they were built
from (formula images as their TeX, context lines as the sections and
callouts that made them); Anki's Basic and Cloze types and any other type
by their first two fields. Every note keeps its GUID. Scheduling is never
read. The package is read by ``ankigen.apkg`` (notes) and
``package_media`` (media, with size limits).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ankigen.apkg import NoteTypeSchema, StoredNote, read_deck_file
from ankigen.diagnostics import Diagnostic
from ankigen.importers.html_to_markdown import Converted, field_to_markdown
from ankigen.importers.model import ImportedDeck, ImportedItem, ImportResult, Origin
from ankigen.importers.package_media import PackageMedia, check_archive, read_media
from ankigen.importers.sections import place_ankigen_items
from ankigen.package.release import is_release_tag
from ankigen.parse.slug import slugify

_ANKIGEN = {"ankigen Reveal": ("Question", "Answer"), "ankigen Cloze": ("Text", "Extra")}


@dataclass(frozen=True)
class _Note:
    """A note read back: its item and the fields' media, or None with the reason it was left out."""

    item: ImportedItem | None
    images: tuple[str, ...]
    ours: bool


def import_package(path: Path) -> ImportResult:
    """Read ``path`` (raises ``UnreadableDeck`` for a package that cannot be read safely)."""
    check_archive(path)
    deck_file = read_deck_file(path)
    media = read_media(path)
    problems: list[Diagnostic] = [
        Origin(path.name, 1).lost(f"media file named '{name}' (not a plain file name)")
        for name in media.refused
    ]
    by_deck: dict[str, list[_Note]] = {}
    for number, note in enumerate(deck_file.notes.values(), start=1):
        origin = Origin(path.name, number)
        schema = deck_file.note_types.get(note.note_type)
        read = _read_note(note, schema, origin, frozenset(media.entries), problems)
        by_deck.setdefault(note.deck or path.stem, []).append(read)
    stems: set[str] = set()
    decks = tuple(
        _deck(name, notes, path, media, stems, problems) for name, notes in by_deck.items()
    )
    return ImportResult(decks, tuple(problems))


def _deck(
    name: str,
    notes: list[_Note],
    path: Path,
    media: PackageMedia,
    stems: set[str],
    problems: list[Diagnostic],
) -> ImportedDeck:
    kept = [n for n in notes if n.item is not None]
    placed, prompts = place_ankigen_items([n.item for n in kept if n.item], [n.ours for n in kept])
    files: list[tuple[str, bytes]] = []
    for image in sorted({i for n in notes if n.item is not None for i in n.images}):
        data = media.read(image)
        if data is None:
            problems.append(Origin(path.name, 1).lost(f"image '{image}' (not in the package)"))
        else:
            files.append((image, data))
    formulas = any(n.ours and "$" in (n.item.question + n.item.answer) for n in notes if n.item)
    return ImportedDeck(
        name=name,
        stem=_stem(name, stems),
        items=tuple(placed),
        source=path.name,
        math="image" if formulas else "mathjax",
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
    cloze = schema.is_cloze
    if not question.markdown.strip():
        problems.append(origin.lost("a note with an empty first field (no card to make)"))
        return _Note(None, (), ours)
    if not cloze and not answer.markdown.strip():
        problems.append(origin.lost("a note with an empty answer (ankigen needs one)"))
        return _Note(None, (), ours)
    if cloze and "{{c" not in question.markdown:
        problems.append(origin.lost("a cloze note without a cloze in its text"))
        return _Note(None, (), ours)
    item = ImportedItem(
        question=question.markdown,
        answer=answer.markdown,
        origin=origin,
        cloze=cloze,
        tags=tuple(t for t in note.tags if not is_release_tag(t)),
        guid=note.guid,
        callout=_context_callout(question, note.tags) if ours else None,
        section=_context_section(question, note.tags) if ours else None,
    )
    return _Note(item, (*question.images, *answer.images), ours)


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
