"""Where the notes of an ankigen deck stood: the ``##`` sections their tags and context lines name.

ankigen tags each note with its section's slug and shows some sections'
headings (or the front matter's ``prompt:``) as a context line; a titled
callout shows its title. Read back, a note with a context line that is no
callout's goes under a section of that heading (``prompt:`` shows it again);
any other note goes under the section its tags already name (a tag shared by
the notes around it), with ``prompt: none`` so that no line appears that the
card did not show. Notes of other note types stay outside sections.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ankigen.importers.model import ImportedItem
from ankigen.parse.slug import slugify

Prompts = tuple[tuple[str, str | None], ...]
_CALLOUT_KINDS = frozenset({"recall", "formula", "note"})


def place_ankigen_items(
    items: Sequence[ImportedItem], ours: Sequence[bool]
) -> tuple[list[ImportedItem], Prompts]:
    """``items`` with their sections set, and the prompts; ``ours[i]``: item ``i`` is ankigen's."""
    own_tags = [set(item.tags) for item, mine in zip(items, ours, strict=True) if mine]
    shared = set.intersection(*own_tags) if own_tags else set()
    prompts: dict[str, str | None] = {}
    placed: list[ImportedItem] = []
    current: str | None = None
    for index, (item, mine) in enumerate(zip(items, ours, strict=True)):
        heading: str | None = None
        line: str | None = None
        if mine and item.section is not None:
            heading, line = item.section, item.section
        elif mine:
            heading = _tag_section(item, current, prompts, items[index:], ours[index:], shared)
            line = None
        if heading is not None and prompts.setdefault(heading, line) != line:
            heading = None  # a heading used both with and without a line: leave it out
        current = heading
        placed.append(dataclasses.replace(item, section=heading))
    return placed, tuple(prompts.items())


def _tag_section(
    item: ImportedItem,
    current: str | None,
    prompts: dict[str, str | None],
    following: Sequence[ImportedItem],
    mine: Sequence[bool],
    shared: set[str],
) -> str | None:
    """The section an item without a context line stood in: the current one, or a tag's."""
    if current is not None and prompts.get(current) is None and slugify(current) in item.tags:
        return current
    candidates = [
        tag
        for tag in item.tags
        if tag not in shared and tag not in _CALLOUT_KINDS and slugify(tag) == tag
    ]
    best, longest = None, 0
    for tag in candidates:
        run = 0
        for other, ours in zip(following, mine, strict=True):
            if not ours or tag not in other.tags:
                break
            run += 1
        if run > longest:
            best, longest = tag, run
    return best
