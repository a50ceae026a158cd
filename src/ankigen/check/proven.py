"""Items whose checks already passed, so an edit elsewhere neither imports nor runs sympy.

An item whose check blocks ran with no error is recorded under a hash of
everything the run of its blocks reads: every field of the item but those a
check never reads (``_UNREAD``: the card's text and identity), with lines
counted from the item's, the text of the deck's ``formulas`` blocks (their
names are in every check's scope), the file's display path, the claim level,
the statement time limit and the checker's code (``ankigen.cache.recipe``). A
later build of the same item has nothing new to prove: sympy decides the
same statements the same way, so the recorded warnings and counts stand for
the run. Lines are stored counted from the item's, so an item that only moved
(a line added above it) is still known: a passing run's messages name no line
(only errors do, and they are never kept). Only passing items are recorded (a
time-out may pass another time). A field added to ``model.Item`` is in the key
unless it is named in ``_UNREAD``: a new field never makes a stale hit.

The records are rows of kind ``checks`` in the build cache's store
(``ankigen.cache``: one memo per deck, sealed rows): a row no build of this
user wrote is a miss, so no forged run hides a failing check.
"""

from __future__ import annotations

import dataclasses
import marshal
from collections.abc import Mapping
from dataclasses import dataclass

from ankigen.cache import Codec, Decoded, Memo, Store, build_key
from ankigen.diagnostics import Diagnostic
from ankigen.model import Deck, Item

__all__ = ["ItemRun", "ProvenChecks"]

_FORMAT = 5
_KIND = "checks"
#: Item fields a check run never reads: the card's text and identity, and its line (every
#: other line is counted from it).
_UNREAD = frozenset({"line", "front", "back", "guid", "note_id", "tags", "subdeck"})
_READ = tuple(f.name for f in dataclasses.fields(Item) if f.name not in _UNREAD)


@dataclass(frozen=True)
class ItemRun:
    """What running one item's check blocks found: its diagnostics and counts."""

    diagnostics: tuple[Diagnostic, ...]
    checks: int
    failed: int

    @property
    def passed(self) -> bool:
        """True when no statement failed and nothing is an error."""
        return not self.failed and not any(d.is_error for d in self.diagnostics)


_CODEC = Codec([ItemRun])


class ProvenChecks:
    """The passing item runs of one deck's last check, in the store."""

    def __init__(self, store: Store | None, stem: str, decoded: Decoded | None = None) -> None:
        """``store``: the build cache's (None: nothing is reused or kept); ``stem``: the deck's."""
        self._rows = (store, stem, decoded)
        #: The runs read by the last ``known`` (the store is read once per check).
        self._memo: Memo[ItemRun] | None = None
        #: The keys of the last deck asked about (``known`` and then ``record`` want them).
        self._last: tuple[Deck, float, dict[int, bytes]] | None = None

    def _read(self) -> Memo[ItemRun]:
        """The runs the store holds now."""
        store, stem, decoded = self._rows
        return Memo(store, _KIND, stem, _CODEC.dumps, _CODEC.reader(ItemRun), decoded)

    def known(self, deck: Deck, time_limit: float) -> dict[int, ItemRun]:
        """The recorded runs of ``deck``'s items that have checks, by item index."""
        found: dict[int, ItemRun] = {}
        memo = self._memo = self._read()
        if not memo.last:
            return found
        for index, key in self._keys(deck, time_limit).items():
            run = memo.get(key, deck.items[index].line)
            if run is not None:
                found[index] = run
        return found

    def record(self, deck: Deck, time_limit: float, runs: Mapping[int, ItemRun]) -> None:
        """Keep the passing ``runs`` (by item index) of this check of ``deck``, and only those."""
        keys = self._keys(deck, time_limit)
        memo = self._memo if self._memo is not None else self._read()
        memo.kept.clear()  # a run known but not given is not kept
        for index, run in runs.items():
            if index in keys and run.passed:
                memo.put(keys[index], run, deck.items[index].line)
        memo.save()

    def _keys(self, deck: Deck, time_limit: float) -> dict[int, bytes]:
        """``_keys`` of this deck, worked out once (the same deck object, the same limit)."""
        last = self._last
        if last is not None and last[0] is deck and last[1] == time_limit:
            return last[2]
        keys = _keys(deck, time_limit, self._rows[2])
        self._last = (deck, time_limit, keys)
        return keys


def _keys(deck: Deck, time_limit: float, decoded: Decoded | None = None) -> dict[int, bytes]:
    """The key of every item with checks, by index; a warm process (``decoded``) works
    out only those of items it did not hold in its last round (``Decoded.derived``)."""
    shared = build_key(
        _KIND,
        str(_FORMAT),
        repr(time_limit),
        deck.display_path,
        deck.claims.value,  # the level decides the warnings
        repr([(block.kind, block.text) for block in deck.formulas]),
    )

    def key(item: Item) -> bytes | None:
        if not item.checks:
            return None
        digest = shared.copy()
        read = tuple(getattr(item, name) for name in _READ)
        try:
            # marshal version 2 writes no back-references: equal values, equal bytes.
            digest.update(marshal.dumps(_CODEC.encode(read, item.line), 2))
        except (TypeError, ValueError):
            return None  # a value the codec does not write: checked afresh every time
        found: bytes = digest.digest()
        return found

    if decoded is None:
        keys = [key(item) for item in deck.items]
    else:
        keys = decoded.derived("check-keys", deck.stem, shared.hexdigest(), deck.items, key)
    return {index: found for index, found in enumerate(keys) if found is not None}
