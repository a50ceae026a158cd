"""Rendered notes of earlier builds, so an edit fills only the items it touched.

A note's question and answer HTML (its math slots filled: MathJax TeX or
``<img>`` tags of drawn formulas, with their sizes) is stored under a hash of
everything that shapes it: every field of the item but those its HTML never
reads (``_UNREAD``: made fresh, or not shown), lines counted from the item's,
the deck's math mode, the render settings that name formula images
(``RENDER_SETTINGS``), and the code that renders and judges formulas
(``ankigen.cache.recipe``: every file of ankigen, which holds the TeX
deny-list and the MathJax allow-list, and the versions of the libraries that
shape output). A reused note is therefore the HTML a cold build writes,
judged by the same rules; a field added to ``model.Item`` is in the key
unless it is named unread, so it never makes a stale hit.

Only clean notes are stored: no image or figure (those depend on files and
scripts outside the item), and no formula that was refused or could not be
drawn (those report errors, which must come from the build itself). A stored
note is reused only while every formula image it shows is still in the media
cache with its size in the index, so the build reuses images exactly as a
cold one would. Lines never reach the stored HTML (the source field and the
note's line are made fresh from the item), so a note that only moved is
still a hit.

The notes are rows of kind ``notes`` in the build cache's store (``ankigen.cache``:
one memo per deck, sealed rows); a row of the wrong shape is a miss.
"""

from __future__ import annotations

import dataclasses
import marshal
from collections.abc import Sequence
from typing import NamedTuple

from ankigen.cache import DEFAULT_TUNING, CacheTuning, Codec, Decoded, Memo, Store, build_key
from ankigen.model import Deck, Item
from ankigen.render._formula_image import RENDER_SETTINGS

__all__ = ["CachedNote", "NoteCache"]

_FORMAT = 4
_KIND = "notes"
#: Item fields the stored HTML never reads: made fresh from the item (its line, the
#: source field), or not shown on the card's question and answer.
_UNREAD = frozenset({"line", "guid", "note_id", "tags", "subdeck", "checks", "claims"})
_READ = tuple(f.name for f in dataclasses.fields(Item) if f.name not in _UNREAD)
_CODEC = Codec()


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
        store: Store,
        deck: Deck,
        decoded: Decoded | None = None,
        tuning: CacheTuning = DEFAULT_TUNING,
    ) -> None:
        """``tuning.held_values``: this render's records held in memory until saved."""
        self._memo: Memo[CachedNote] = Memo(
            store, _KIND, deck.stem, _dumps, _loads, decoded, tuning.held_values
        )
        self._shared = build_key(_KIND, str(_FORMAT), RENDER_SETTINGS, deck.math.value)
        self._decoded, self._stem = decoded, deck.stem
        #: The stored note for a key, or None (missing, or of the wrong shape).
        self.get = self._memo.get
        #: Keep a note (reused or filled now) for the next render.
        self.put = self._memo.put
        #: Put this render's notes (only those) in place of the last ones, if they changed.
        self.save = self._memo.save

    def keys(self, items: Sequence[Item]) -> list[bytes | None]:
        """``key`` of each item; a warm process (``ankigen watch``) works out only the keys
        of items it did not hold in its last round (``Decoded.derived``)."""
        if self._decoded is None:
            return [self.key(item) for item in items]
        # What a key depends on besides the item: its shared part.
        context = self._shared.hexdigest()
        return self._decoded.derived("note-keys", self._stem, context, items, self.key)

    def key(self, item: Item) -> bytes | None:
        """The key of ``item``'s note; None when it shows an image or figure (never stored)."""
        if item.front.images or item.back.images:
            return None
        read = tuple([getattr(item, name) for name in _READ])
        try:
            # marshal version 2 writes no back-references: equal values, equal bytes.
            written = marshal.dumps(_CODEC.encode(read, item.line), 2)
        except (TypeError, ValueError):  # a value the codec does not write: not stored
            return None
        digest = self._shared.copy()
        digest.update(written)
        key: bytes = digest.digest()
        return key


def _dumps(note: CachedNote, base: int) -> bytes:
    return marshal.dumps(tuple(note))


def _loads(stored: bytes, base: int) -> CachedNote:
    """A stored note; bytes of another shape raise ValueError."""
    try:
        front, back, media = marshal.loads(stored)
    except (EOFError, TypeError) as other:
        raise ValueError("not a stored note") from other
    # marshal builds builtins only, never a subclass: `type(x) is str` is isinstance here,
    # and cheaper for the 100,000 notes of a big deck.
    if type(front) is not str or type(back) is not str or type(media) is not tuple:
        raise ValueError("not a stored note")
    if media and not all(type(name) is str for name in media):
        raise ValueError("not a stored note")
    return CachedNote(front, back, media)
