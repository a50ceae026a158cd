"""Format §19, partial builds: each item with an error left out, the rest of its deck kept.

An error belongs to the item whose lines hold it: from the item's first line
up to the next item's (its answer, its ``check`` blocks and what follows
them). An error before a deck's first item, in prose (format §15), inside a
``formulas`` block (every check of the file reads it), or in no deck of the
build (a file not read, two decks with one key) belongs to no item: such a
deck cannot be made from what remains and is not written at all.

``ankigen build --skip-broken`` writes the ``kept`` decks; ``preview`` and
``watch`` always show them, with each item left out in its place (its
``left_out`` diagnostics) whether or not the build writes decks.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ankigen.diagnostics import Diagnostic
from ankigen.model import Deck, RenderedDeck

#: Put before the error's own message in the line that reports an item left out.
LEFT_OUT = "left out: "


@dataclass(frozen=True)
class Partial:
    """What a build can make without its broken items.

    ``kept``: every deck with no error outside its items, without the notes of
    its broken items (and the media only they showed). ``diagnostics``: the
    build's, each error of a left-out item reworded ``left out: <the error>``.
    ``left_out``: those reworded errors. ``unmade``: the decks with an error
    outside their items. ``blocked``: an error belongs to no deck of the build.
    ``items_left_out``: how many items those errors broke (one may have several).
    """

    kept: tuple[RenderedDeck, ...]
    diagnostics: tuple[Diagnostic, ...]
    left_out: tuple[Diagnostic, ...]
    unmade: frozenset[Path]
    blocked: bool
    items_left_out: int = 0

    @property
    def shortened(self) -> frozenset[Path]:
        """The kept decks that lost an item (their stamp would hide the errors next time)."""
        return frozenset(d.deck.path for d in self.kept if _lost_any(d, self.left_out))


def leave_out_broken(
    rendered: Sequence[RenderedDeck], diagnostics: Sequence[Diagnostic]
) -> Partial:
    """Split ``diagnostics``' errors between the items they break and whole decks."""
    by_file = {deck.deck.display_path: deck.deck for deck in rendered}
    broken: dict[Path, set[int]] = {}
    unmade: set[Path] = set()
    blocked = False
    out: list[Diagnostic] = []
    left_out: list[Diagnostic] = []
    for diagnostic in diagnostics:
        deck = by_file.get(diagnostic.file)
        item_line = _item_line(deck, diagnostic.line) if deck is not None else None
        if not diagnostic.is_error:
            out.append(diagnostic)
        elif deck is None:
            blocked = True
            out.append(diagnostic)
        elif item_line is None:
            unmade.add(deck.path)
            out.append(diagnostic)
        else:
            broken.setdefault(deck.path, set()).add(item_line)
            reworded = dataclasses.replace(diagnostic, message=LEFT_OUT + diagnostic.message)
            out.append(reworded)
            left_out.append(reworded)
    kept = tuple(
        _without(deck, broken.get(deck.deck.path, set()))
        for deck in rendered
        if deck.deck.path not in unmade
    )
    items = sum(len(lines) for lines in broken.values())
    return Partial(kept, tuple(out), tuple(left_out), frozenset(unmade), blocked, items)


def _item_line(deck: Deck, line: int) -> int | None:
    """The first line of the item whose lines hold ``line`` (None: no item's)."""
    for block in deck.formulas:
        # ``line`` of a formulas block is its first statement's; the fence is above it.
        if block.line - 1 <= line <= block.line + block.text.count("\n"):
            return None
    if any(prose.line <= line <= prose.line + prose.text.count("\n") for prose in deck.prose):
        return None
    starts = sorted({item.line for item in deck.items})
    index = bisect.bisect_right(starts, line) - 1
    return starts[index] if index >= 0 else None


def _without(deck: RenderedDeck, item_lines: set[int]) -> RenderedDeck:
    """``deck`` without the notes of the items at ``item_lines``, nor media only they show."""
    if not item_lines:
        return deck
    notes = tuple(note for note in deck.notes if note.line not in item_lines)
    fields = "\n".join(field for note in notes for field in note.fields)
    media = tuple(file for file in deck.media if file.name in fields)
    return dataclasses.replace(deck, notes=notes, media=media)


def _lost_any(deck: RenderedDeck, left_out: Sequence[Diagnostic]) -> bool:
    return any(d.file == deck.deck.display_path for d in left_out)
