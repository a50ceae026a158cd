"""Items whose checks already passed, so an edit elsewhere neither imports nor runs sympy.

An item whose check blocks ran with no error is recorded under a hash of
everything the run of its blocks reads: the item's kind, context, check
blocks and claims (text, columns, and lines counted from the item's), the
text of the deck's ``formulas`` blocks (their names are in every check's
scope), the file's display path, the statement time limit and the checker's
code (``ankigen.cache.recipe``). A later build of the same item has nothing new
to prove: sympy decides the same statements the same way, so the recorded
warnings and counts stand for the run. Lines are stored counted from the
item's, so an item that only moved (a line added above it) is still known: a
passing run's messages name no line (only errors do, and they are never kept).
Only passing items are recorded (a time-out may pass another time). A field
added to ``model.Item`` that this module does not know turns the reuse off.

The file is ``marshal`` data of builtin values only, like the section cache,
sealed with the build folder's secret (``ankigen.cache.seal``): a file written
by anyone else is ignored, so no forged run hides a failing check.
"""

from __future__ import annotations

import dataclasses
import marshal
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ankigen.cache import Sealer, build_key
from ankigen.diagnostics import Diagnostic, Severity
from ankigen.model import Deck, Item

__all__ = ["ItemRun", "ProvenChecks"]

_FORMAT = 4
#: Item fields a check run reads, and those it never reads (the card's text and identity).
_READ = ("kind", "line", "checks", "claims", "context")
_UNREAD = ("front", "back", "guid", "note_id", "tags", "subdeck")
_KNOWN_FIELDS = {f.name for f in dataclasses.fields(Item)} == {*_READ, *_UNREAD}


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


class ProvenChecks:
    """The passing item runs of one deck's last check, on disk."""

    def __init__(self, file: Path | None, sealer: Sealer | None = None) -> None:
        self._file = file if _KNOWN_FIELDS else None
        if sealer is None and self._file is not None:
            sealer = Sealer.for_folder(self._file.parent)
        self._sealer = sealer
        #: The keys of the last deck asked about (``known`` and then ``record`` want them).
        self._last: tuple[Deck, float, dict[int, str]] | None = None

    def known(self, deck: Deck, time_limit: float) -> dict[int, ItemRun]:
        """The recorded runs of ``deck``'s items that have checks, by item index."""
        stored = _load(self._file, self._sealer)
        if not stored:
            return {}
        found: dict[int, ItemRun] = {}
        for index, key in self._keys(deck, time_limit).items():
            value = stored.get(key)
            if value is None:
                continue
            try:
                found[index] = _decode(value, deck.items[index].line)
            except (TypeError, ValueError):
                continue
        return found

    def record(self, deck: Deck, time_limit: float, runs: Mapping[int, ItemRun]) -> None:
        """Keep the passing ``runs`` (by item index) of this check of ``deck``, and only those."""
        if self._file is None or self._sealer is None:
            return
        keys = self._keys(deck, time_limit)
        passing = {
            keys[i]: _encode(run, deck.items[i].line)
            for i, run in runs.items()
            if i in keys and run.passed
        }
        temp = self._file.with_name(f"{self._file.name}.{os.getpid()}.tmp")  # one per process
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(b"".join(self._sealer.seal([marshal.dumps((_FORMAT, passing))])))
            temp.replace(self._file)
        except (OSError, ValueError):
            temp.unlink(missing_ok=True)  # no record this time; the build goes on

    def _keys(self, deck: Deck, time_limit: float) -> dict[int, str]:
        """``_keys`` of this deck, worked out once (the same deck object, the same limit)."""
        last = self._last
        if last is not None and last[0] is deck and last[1] == time_limit:
            return last[2]
        keys = _keys(deck, time_limit)
        self._last = (deck, time_limit, keys)
        return keys


def _keys(deck: Deck, time_limit: float) -> dict[int, str]:
    """The key of every item with checks, by index."""
    shared = build_key("checks", str(_FORMAT), repr(time_limit))
    shared.update(deck.display_path.encode("utf-8", "surrogatepass") + b"\x1f")
    shared.update(deck.claims.value.encode() + b"\x1f")  # the level decides the warnings
    shared.update(repr([(b.kind, b.text) for b in deck.formulas]).encode())
    return {
        index: _item_key(shared.copy(), item)
        for index, item in enumerate(deck.items)
        if item.checks
    }


def _item_key(digest: Any, item: Item) -> str:
    base = item.line
    read = (
        item.kind.value,
        item.context,
        tuple([(b.kind, b.text, b.line - base) for b in item.checks]),
        tuple(
            [
                (c.text, c.formula, c.line - base, c.column, c.required, c.everywhere, c.unit)
                for c in item.claims
            ]
        ),
    )
    try:
        # marshal version 2 writes no back-references: equal values give equal bytes.
        digest.update(b"m" + marshal.dumps(read, 2))
    except ValueError:  # a value marshal does not write (a str subclass): slower, as stable
        digest.update(b"r" + repr(read).encode("utf-8", "surrogatepass"))
    return str(digest.hexdigest())


def _load(file: Path | None, sealer: Sealer | None) -> dict[str, Any]:
    if file is None or sealer is None:
        return {}
    try:
        payload = sealer.open(file.read_bytes())
        if payload is None:
            return {}  # not sealed by a build of this folder
        form, records = marshal.loads(payload)
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return records if form == _FORMAT and isinstance(records, dict) else {}


def _encode(run: ItemRun, base: int) -> tuple[Any, ...]:
    diagnostics = tuple(
        (d.file, d.line - base, d.message, d.severity.value, d.detail, d.column, d.code)
        for d in run.diagnostics
    )
    return (diagnostics, run.checks, run.failed)


def _decode(value: Sequence[Any], base: int) -> ItemRun:
    diagnostics, checks, failed = value
    return ItemRun(
        tuple(
            Diagnostic(
                file, int(line) + base, message, Severity(severity), detail, int(column), code
            )
            for file, line, message, severity, detail, column, code in diagnostics
        ),
        int(checks),
        int(failed),
    )
