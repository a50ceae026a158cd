"""The release side of a build: each note's time, staging, and ``--against``.

Decks are first written to a staging folder beside their targets. With
``--against OLD`` each staged deck is read back and compared with the release
learners already have (``ankigen.commands.diff``): an item whose note type
changed under the same id is an error, an edit Anki would not apply is a
warning. Only when the whole build is clean are the staged decks renamed
into place, so a failed build never replaces a good deck. Before staging,
:func:`keep_released_guids` lets a cloze note keep the GUID an older version
gave it (docs/format.md 8.2).
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ankigen.build.times import BuildClock
from ankigen.commands.diff import NOT_NEWER, SCHEMA_CHANGED, TYPE_CHANGED, DeckDiff, compare
from ankigen.diagnostics import Code, Diagnostic, error, warning
from ankigen.errors import UsageError
from ankigen.importers.apkg import DeckFile, read_deck_file
from ankigen.model import ItemKind, PackagedDeck, RenderedDeck
from ankigen.parse import note_guid


@dataclass(frozen=True)
class DeckTimes:
    """The deck's own time (note types, release tag, ids) and each note's, by GUID."""

    deck: float
    notes: dict[str, float]


def deck_times(rendered: RenderedDeck, clock: BuildClock, settings: Sequence[Path]) -> DeckTimes:
    """Each note's time from its inputs: the content file, the settings, what it shows."""
    shared = [rendered.deck.path, *settings]
    # One time per set of inputs, not per note: most notes show no file, so they all
    # have the deck's inputs only (a build sees one snapshot of each input's time).
    by_inputs: dict[tuple[Path, ...], float] = {}
    notes: dict[str, float] = {}
    for note in rendered.notes:
        known = by_inputs.get(note.sources)
        if known is None:
            known = by_inputs[note.sources] = clock.time_of([*shared, *note.sources])
        notes[note.guid] = known
    return DeckTimes(max([clock.time_of(shared), *by_inputs.values()]), notes)


@contextmanager
def staging(out_dir: Path) -> Iterator[Path]:
    """A scratch folder inside ``out_dir`` (same file system, so renames are atomic)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(dir=out_dir, prefix=".staging-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def settings_files() -> list[Path]:
    """The project settings every note is shaped by (an input of every note's time)."""
    pyproject = Path.cwd() / "pyproject.toml"
    return [pyproject] if pyproject.is_file() else []


def keep_released_guids(rendered: Sequence[RenderedDeck], against: Path) -> list[RenderedDeck]:
    """Each deck with its cloze notes under the GUIDs the release learners have gave them.

    Earlier versions made a cloze item's GUID from the deck key and its id
    alone, as a reveal item's still is; now a cloze item with an id mixes in
    its kind. Where the old release holds a cloze note under the old GUID,
    the new note takes that GUID, so that it updates in place rather than
    arriving as a new note. A reveal note under it (the item changed kind)
    keeps the new GUID: the cloze is then a new note, as it must be.
    """
    kept = []
    for deck in rendered:
        old = baseline_for(against, deck.deck.stem, len(rendered))
        kept.append(deck if old is None else _keep_cloze_guids(deck, read_deck_file(old)))
    return kept


def _keep_cloze_guids(rendered: RenderedDeck, old: DeckFile) -> RenderedDeck:
    deck = rendered.deck
    items, notes = list(deck.items), list(rendered.notes)
    for index, item in enumerate(items):
        if item.kind is not ItemKind.CLOZE or not item.note_id or item.guid in old.notes:
            continue
        earlier = note_guid(deck.key, item.note_id, "", ItemKind.REVEAL)  # the old formula
        before = old.notes.get(earlier)
        note_type = old.note_types.get(before.note_type) if before else None
        if note_type is not None and note_type.is_cloze and notes[index].guid == item.guid:
            items[index] = dataclasses.replace(item, guid=earlier)
            notes[index] = dataclasses.replace(notes[index], guid=earlier)
    if items == list(deck.items):
        return rendered
    kept = dataclasses.replace(deck, items=tuple(items))
    return dataclasses.replace(rendered, deck=kept, notes=tuple(notes))


def compare_staged(
    staged: Sequence[tuple[RenderedDeck, PackagedDeck]], against: Path
) -> tuple[list[DeckDiff], list[Diagnostic]]:
    """Each staged deck against its old release (a deck new to learners: all added)."""
    diffs: list[DeckDiff] = []
    problems: list[Diagnostic] = []
    for rendered, deck_file in staged:
        old = baseline_for(against, rendered.deck.stem, len(staged))
        diffs.append(compare_release(rendered, deck_file.path, old))
        problems.extend(release_problems(diffs[-1], rendered))
    return diffs, problems


def baseline_for(against: Path, stem: str, decks: int) -> Path | None:
    """The old release to compare deck ``stem`` with: a file, or ``<folder>/<stem>.apkg``."""
    if against.is_dir():
        candidate = against / f"{stem}.apkg"
        return candidate if candidate.is_file() else None
    if not against.is_file():
        raise UsageError(f"--against: no such file or folder: {against}")
    if decks > 1:
        raise UsageError(
            "--against names one .apkg but the build makes several decks; "
            "give a folder of old releases (<folder>/<stem>.apkg) instead"
        )
    return against


def compare_release(rendered: RenderedDeck, staged: Path, old: Path | None) -> DeckDiff:
    """What importing the staged deck over ``old`` will do (ids filled from the items).

    No ``old`` (the folder of old releases lacks this deck): every note is added.
    """
    ids = {item.guid: item.note_id for item in rendered.deck.items if item.note_id}
    before = read_deck_file(old) if old else DeckFile(Path("(no release)"), {}, {})
    diff = compare(before, read_deck_file(staged), ids)
    return dataclasses.replace(diff, new=str(staged.parent.parent / staged.name))


def release_problems(diff: DeckDiff, rendered: RenderedDeck) -> list[Diagnostic]:
    """An error for each item whose note type changed, a warning for each edit not applied."""
    lines = {note.guid: note.line for note in rendered.notes}
    old = Path(diff.old).name
    problems: list[Diagnostic] = []
    for change in diff.not_applied:
        at = (rendered.deck.display_path, lines.get(change.guid, 1))
        if change.cause == TYPE_CHANGED:
            what = f"id '{change.id}'" if change.id else "GUID"
            message = Code.KIND_CHANGED.message(what=what, old=old)
            problems.append(error(*at, message, column=1, code=Code.KIND_CHANGED))
        elif change.cause == NOT_NEWER:
            message = Code.NOTE_NOT_NEWER.message(old=old)
            problems.append(warning(*at, message, column=1, code=Code.NOTE_NOT_NEWER))
        elif change.cause == SCHEMA_CHANGED:
            message = Code.NOTE_TYPE_CHANGED.message(old=old)
            problems.append(warning(*at, message, column=1, code=Code.NOTE_TYPE_CHANGED))
    return problems
