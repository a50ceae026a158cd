"""Rendered notes of earlier builds, so an edit fills only the items it touched.

A note's question and answer HTML (its math slots filled: MathJax TeX or
``<img>`` tags of drawn formulas, with their sizes) is stored under a hash of
everything that shapes it: the item's kind, context line, and both sides'
HTML and formulas (TeX, display or inline), the deck's math mode, the render
settings that name formula images (``RENDER_SETTINGS``), and the code that
renders and judges formulas (``ankigen.cache.code_fingerprint``: every file of
ankigen, which holds the TeX deny-list and the MathJax allow-list, and the
versions of the libraries that shape output). A reused note is
therefore the HTML a cold build writes, judged by the same rules.

Only clean notes are stored: no image or figure (those depend on files and
scripts outside the item), and no formula that was refused or could not be
drawn (those report errors, which must come from the build itself). A stored
note is reused only while every formula image it shows is still in the media
cache with its size in the index, so the build reuses images exactly as a
cold one would. Lines never reach the stored HTML (the source field and the
note's line are made fresh from the item), so a note that only moved is
still a hit.

The file is a magic line, then chunks: a length, the seal of the chunk's
payload (an HMAC under the build folder's secret, ``ankigen.cache.seal``: a
chunk written by anyone else, which no one judged, is never reused), and the
payload, ``marshal`` data of builtin values only. A foreign file is ignored,
and so are a forged, damaged or torn chunk and a record of the wrong shape.
A field added to ``model.Item``, ``Fragment`` or ``Math`` that this module
does not know turns the reuse off, never wrong.
"""

from __future__ import annotations

import dataclasses
import marshal
import os
from pathlib import Path
from typing import Any, NamedTuple

from ankigen.cache import DEFAULT_TUNING, MAC_SIZE, Sealer, build_key
from ankigen.model import Deck, Fragment, Item, Math
from ankigen.render._formula_image import RENDER_SETTINGS

__all__ = ["CachedNote", "NoteCache", "chunk"]

_FORMAT = 3
_MAGIC = f"ankigen-notes-{_FORMAT}\n".encode()
_DIGEST = MAC_SIZE
_LENGTH = 8

#: What the stored HTML reads of an item, and what it never reads (made fresh, or not shown).
_ITEM_READ = ("kind", "front", "back", "context")
_ITEM_UNREAD = (
    "line",
    "guid",
    "note_id",
    "tags",
    "subdeck",
    "checks",
    "claims",
)
_KNOWN_FIELDS = (
    {f.name for f in dataclasses.fields(Item)} == {*_ITEM_READ, *_ITEM_UNREAD}
    and {f.name for f in dataclasses.fields(Fragment)} == {"html", "maths", "images"}
    # line and column only place diagnostics, and a stored note has none
    and {f.name for f in dataclasses.fields(Math)} == {"tex", "display", "line", "column"}
)


class CachedNote(NamedTuple):
    """A note's filled question and answer HTML, and the formula images they show.

    A named tuple, not a frozen dataclass: as immutable, and made five times faster
    (one per note of every build).
    """

    front: str
    back: str
    media: tuple[str, ...]


class NoteCache:
    """The clean notes of one deck's last render, and this render's for the next."""

    def __init__(
        self,
        file: Path | None,
        deck: Deck,
        sealer: Sealer,
        chunk_notes: int = DEFAULT_TUNING.note_chunk,
    ) -> None:
        """``chunk_notes``: notes per sealed chunk of the file (``CacheTuning.note_chunk``)."""
        self._file = file if _KNOWN_FIELDS else None
        self._sealer = sealer
        self._chunk_notes = chunk_notes
        self._stored: dict[bytes, Any] = _load(self._file, sealer)
        self._shared = _shared_digest(deck)
        self._kept: dict[bytes, tuple[str, str, tuple[str, ...]]] = {}
        self.hits = 0

    def key(self, item: Item) -> bytes | None:
        """The key of ``item``'s note; None when it shows an image or figure (never stored)."""
        front, back = item.front, item.back
        if self._file is None or front.images or back.images:
            return None
        read = (
            item.kind.value,
            item.context,
            front.html,
            tuple([(m.tex, m.display) for m in front.maths]) if front.maths else (),
            back.html,
            tuple([(m.tex, m.display) for m in back.maths]) if back.maths else (),
        )
        try:
            # marshal version 2 writes no back-references: equal values, equal bytes.
            written = marshal.dumps(read, 2)
        except ValueError:  # a value marshal does not write (a str subclass): not stored
            return None
        digest = self._shared.copy()
        digest.update(written)
        key: bytes = digest.digest()
        return key

    def get(self, key: bytes) -> CachedNote | None:
        """The stored note for ``key``, or None (missing, or of the wrong shape)."""
        # marshal builds builtins only, never a subclass: `type(x) is str` is isinstance here,
        # and cheaper for the 100,000 notes of a big deck.
        value = self._stored.get(key)
        if type(value) is not tuple or len(value) != 3:
            return None
        front, back, media = value
        if type(front) is not str or type(back) is not str or type(media) is not tuple:
            return None
        if media and not all(type(name) is str for name in media):
            return None
        return CachedNote(front, back, media)

    def put(self, key: bytes, note: CachedNote) -> None:
        """Keep ``note`` (reused or filled now) for the next render."""
        if self._file is not None:
            self._kept[key] = (note.front, note.back, note.media)

    def save(self) -> None:
        """Put this render's notes (only those) in place of the last ones."""
        if self._file is None:
            return
        temp = self._file.with_name(f"{self._file.name}.{os.getpid()}.tmp")  # one per process
        kept = list(self._kept.items())
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            with temp.open("wb") as out:
                out.write(_MAGIC)
                # In chunks: a 100,000-note deck is never held as one more copy in memory.
                size = self._chunk_notes
                for start in range(0, len(kept), size):
                    payload = marshal.dumps(dict(kept[start : start + size]))
                    out.write(chunk(payload, self._sealer))
            temp.replace(self._file)
        except (OSError, ValueError):
            temp.unlink(missing_ok=True)  # no cache this time; the build goes on


def chunk(payload: bytes, sealer: Sealer) -> bytes:
    """One chunk of the file: the payload's length and seal, then the payload."""
    return len(payload).to_bytes(_LENGTH, "big") + sealer.mac(payload) + payload


def _shared_digest(deck: Deck) -> Any:
    """The part of every key the deck shares: format, code, image settings, math mode."""
    return build_key("notes", str(_FORMAT), RENDER_SETTINGS, deck.math.value)


def _load(file: Path | None, sealer: Sealer) -> dict[bytes, Any]:
    """The stored records; none from a missing or foreign file, or from a damaged chunk."""
    records: dict[bytes, Any] = {}
    if file is None:
        return records
    try:
        with file.open("rb") as stored:
            if stored.read(len(_MAGIC)) != _MAGIC:
                return records
            while head := stored.read(_LENGTH + _DIGEST):
                payload = stored.read(int.from_bytes(head[:_LENGTH], "big"))
                records.update(_records(head, payload, sealer))
    except OSError:
        return {}
    return records


def _records(head: bytes, payload: bytes, sealer: Sealer) -> dict[bytes, Any]:
    """A chunk's records; none when it is torn, forged, damaged or not a dict of them."""
    if len(head) != _LENGTH + _DIGEST or len(payload) != int.from_bytes(head[:_LENGTH], "big"):
        return {}
    if not sealer.matches(head[_LENGTH:], payload):
        return {}
    try:
        records = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return {}
    return records if isinstance(records, dict) else {}
