"""The Source field of a note: where its item is, in words that do not move.

Written by render (``source_field``) and read back by ``ankigen diff`` (``item_id``).
"""

from __future__ import annotations

import hashlib
import re

from ankigen.model import Item


def source_field(file_name: str, item: Item) -> str:
    """A note's Source field: its file and a name for the item that moving it keeps.

    ``stats.md#why-sync`` names the item's id; an item without one is named
    by a short hash of its GUID (``stats.md#g-3f2a9c1b0e``), which changes
    only when the note does. Never a line number: a line added above an item
    would change the field of every note below it, and Anki would count each
    as updated. The preview and the diagnostics keep their line numbers.
    """
    anchor = item.note_id or "g-" + hashlib.sha256(item.guid.encode("utf-8")).hexdigest()[:10]
    return f"{file_name}#{anchor}"


#: The name ``source_field`` gives an item without an id: ``g-`` and a hash of its GUID.
_HASHED_ANCHOR = re.compile(r"g-[0-9a-f]{10}")


def item_id(source: str) -> str | None:
    """The item id a Source field names (``stats.md#why-sync``: ``why-sync``); None for an
    item without one (``stats.md#g-3f2a9c1b0e``) or another deck's note."""
    _, hashmark, anchor = source.rpartition("#")
    if not hashmark or not anchor or _HASHED_ANCHOR.fullmatch(anchor):
        return None
    return anchor
