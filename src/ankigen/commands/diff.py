"""``ankigen diff``: what importing NEW over OLD will do, by Anki's own rules.

Anki (26.x) matches an incoming note to a note already in the collection by
GUID. It adds a note it has not seen; it updates one only when the incoming
note has the same note type (id and schema) and a newer modification time;
otherwise it keeps the old note ("duplicate" or "conflicting" in its log). It
never deletes a note and never moves cards to another deck. So every note
of NEW is ``added``, ``updated``, ``unchanged`` or ``not_applied``, and
every note of OLD that NEW lacks is ``removed`` (learners keep it).
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.importers.apkg import DeckFile, NoteTypeSchema, StoredNote, read_deck_file
from ankigen.package.release import is_release_tag, removed_notes_search
from ankigen.syntax.source_field import item_id

OUTCOMES = ("added", "updated", "unchanged", "removed", "not_applied")
NOT_NEWER, TYPE_CHANGED, SCHEMA_CHANGED = "not_newer", "type_changed", "schema_changed"


@dataclass(frozen=True)
class NoteChange:
    """One note and what the import does to it (``reason`` says why it is not applied)."""

    guid: str
    id: str | None
    deck: str
    first_field: str
    source: str
    reason: str = ""
    #: Why an edit is not applied: one of NOT_NEWER, TYPE_CHANGED, SCHEMA_CHANGED ("" else).
    cause: str = ""


@dataclass(frozen=True)
class DeckDiff:
    """Every note of OLD and NEW, by outcome; ``moved`` lists notes whose deck changed."""

    old: str
    new: str
    added: tuple[NoteChange, ...] = ()
    updated: tuple[NoteChange, ...] = ()
    unchanged: tuple[NoteChange, ...] = ()
    removed: tuple[NoteChange, ...] = ()
    not_applied: tuple[NoteChange, ...] = ()
    moved: tuple[NoteChange, ...] = ()
    release_tag: str = ""
    counts: dict[str, int] = field(default_factory=dict)

    def outcome(self, name: str) -> tuple[NoteChange, ...]:
        """The notes of one outcome (one of :data:`OUTCOMES`)."""
        notes: tuple[NoteChange, ...] = getattr(self, name)
        return notes


def diff_files(old: Path, new: Path, ids: Mapping[str, str] | None = None) -> DeckDiff:
    """Read both packages and compare them (raises ``UnreadableDeck``)."""
    return compare(read_deck_file(old), read_deck_file(new), ids)


def compare(old: DeckFile, new: DeckFile, ids: Mapping[str, str] | None = None) -> DeckDiff:
    """What importing ``new`` into a collection holding ``old`` does, note by note.

    ``ids`` maps GUIDs to item ids where the caller knows them (a build does).
    """
    known = ids or {}
    lists: dict[str, list[NoteChange]] = {name: [] for name in (*OUTCOMES, "moved")}
    for guid, note in new.notes.items():
        before = old.notes.get(guid)
        change = _change(note, new, known)
        if before is None:
            lists["added"].append(change)
            continue
        outcome, cause, reason = _outcome(before, old, note, new)
        lists[outcome].append(dataclasses.replace(change, reason=reason, cause=cause))
        if outcome != "not_applied" and before.deck != note.deck:
            stay = f"cards stay in '{before.deck}'"
            lists["moved"].append(dataclasses.replace(change, reason=stay))
    for guid, note in old.notes.items():
        if guid not in new.notes:
            lists["removed"].append(_change(note, old, known))
    tag = next((t for n in new.notes.values() for t in n.tags if is_release_tag(t)), "")
    frozen = {name: tuple(notes) for name, notes in lists.items()}
    return DeckDiff(
        old=str(old.path),
        new=str(new.path),
        release_tag=tag,
        counts={name: len(frozen[name]) for name in OUTCOMES},
        **frozen,
    )


def _outcome(
    before: StoredNote, old: DeckFile, after: StoredNote, new: DeckFile
) -> tuple[str, str, str]:
    """Anki's decision for a note it already has, and why an edit is not applied."""
    old_type, new_type = old.note_types.get(before.note_type), new.note_types.get(after.note_type)
    if before.note_type != after.note_type or old_type is None or new_type is None:
        return "not_applied", TYPE_CHANGED, _type_change(old_type, new_type)
    if not old_type.same_schema(new_type):
        return (
            "not_applied",
            SCHEMA_CHANGED,
            (
                f"note type '{new_type.name}' changed its fields or templates: "
                "Anki imports a copy of the note type and skips the note"
            ),
        )
    if _content(before) == _content(after):
        return "unchanged", "", ""
    if after.mtime > before.mtime:
        return "updated", "", ""
    return (
        "not_applied",
        NOT_NEWER,
        (
            f"changed but not newer (modification time {after.mtime}, "
            f"learners have {before.mtime}): Anki keeps the old note"
        ),
    )


def _type_change(old: NoteTypeSchema | None, new: NoteTypeSchema | None) -> str:
    was = old.name if old else "another note type"
    now = new.name if new else "another note type"
    return (
        f"note type changed from '{was}' to '{now}': Anki skips the note "
        "(with 'merge note types' it refuses a change between cloze and regular); "
        "give the item a new id"
    )


def _content(note: StoredNote) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a learner sees of a note: its fields and its tags (release tags aside)."""
    return note.fields, tuple(sorted(t for t in note.tags if not is_release_tag(t)))


def _change(note: StoredNote, deck: DeckFile, ids: Mapping[str, str]) -> NoteChange:
    schema = deck.note_types.get(note.note_type)
    names = schema.fields if schema else ()
    source = note.fields[names.index("Source")] if "Source" in names else ""
    shown_source = plain_text(source)
    return NoteChange(
        guid=note.guid,
        id=ids.get(note.guid) or item_id(shown_source),
        deck=note.deck,
        first_field=plain_text(note.fields[0] if note.fields else ""),
        source=shown_source,
    )


#: A clozed formula (``math_cloze_html``): its copies per cloze, then the whole formula.
_CLOZED_FORMULA = re.compile(
    r'<span class="ag-mc">.*?<span class="ag-mc-all">(.*?)</span></span>', re.DOTALL
)
#: A formula drawn as an image; its ``alt`` holds its TeX.
_FORMULA_IMAGE = re.compile(r'<img class="ag-math( ag-display)?"[^>]*? alt="([^"]*)"[^>]*>')


def plain_text(field_html: str, limit: int = 80) -> str:
    """A field as one line of text: formulas as their TeX, tags dropped, white space collapsed.

    A formula drawn as an image is shown as ``$TeX$`` from its ``alt``; a
    clozed formula once, whole, rather than as its copies for each card.
    """
    text = _CLOZED_FORMULA.sub(r"\1", field_html)
    text = _FORMULA_IMAGE.sub(lambda m: f"$${m[2]}$$" if m[1] else f"${m[2]}$", text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = " ".join(html.unescape(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def diff_record(diff: DeckDiff) -> dict[str, object]:
    """The JSON form: counts, then every note of every outcome."""
    record: dict[str, object] = {"old": diff.old, "new": diff.new, "counts": diff.counts}
    for name in (*OUTCOMES, "moved"):
        record[name] = [dataclasses.asdict(change) for change in diff.outcome(name)]
    record["release_tag"] = diff.release_tag
    record["removed_search"] = removed_notes_search(diff.release_tag) if diff.release_tag else ""
    return record


_SHOWN = 10


def diff_summary(diff: DeckDiff) -> str:
    """A short summary for release notes: counts, then the notes that change."""
    c = diff.counts
    lines = [
        f"{diff.new} over {diff.old}: {c['added']} added, "
        f"{c['updated']} updated, {c['unchanged']} unchanged, {c['removed']} removed, "
        f"{c['not_applied']} not applied"
    ]
    for name, label in (("added", "added"), ("updated", "updated"), ("removed", "removed")):
        lines.extend(_lines(label, diff.outcome(name)))
    lines.extend(_lines("NOT APPLIED", diff.not_applied, with_reason=True))
    lines.extend(_lines("moved", diff.moved, with_reason=True))
    if diff.removed and diff.release_tag:
        lines.append(
            "  Removed notes stay in learners' collections; to find them, search in "
            f"Browse: {removed_notes_search(diff.release_tag)}"
        )
    return "\n".join(lines)


def _lines(label: str, notes: tuple[NoteChange, ...], *, with_reason: bool = False) -> list[str]:
    out = []
    for change in notes[:_SHOWN]:
        # (the Source field already names an id as 'file.md#id')
        named = (
            [f"id {change.id}"] if change.id and not change.source.endswith(f"#{change.id}") else []
        )
        where = f" ({', '.join([change.source, *named] if change.source else named)})"
        where = "" if where == " ()" else where
        why = f": {change.reason}" if with_reason and change.reason else ""
        out.append(f"  {label}: {change.first_field}{where}{why}")
    if len(notes) > _SHOWN:
        out.append(f"  ... and {len(notes) - _SHOWN} more {label}")
    return out
