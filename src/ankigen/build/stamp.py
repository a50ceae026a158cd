"""Up-to-date checks: a deck whose inputs have not changed is not rebuilt.

After a successful build each deck gets a stamp (a row of the build cache's
store, ``ankigen.cache.store``: kind ``stamp``, scoped by the deck's stem)
recording a hash of everything its bytes depend on — the content file, the
options, the code and libraries (``ankigen.cache.recipe``: every file of the
package, CSS and templates too, and the versions that shape output), the
image settings, the build time, and every figure script and image it used —
plus a hash of the ``.apkg`` written. Like every row of the store, it is
sealed with this user's cache key (``ankigen.cache.seal``): a stamp
written by anyone else is no stamp, and the deck is built. A later
build whose inputs hash the same, and whose ``.apkg`` is still the one
written, keeps the deck as it is: a build is a pure function of its inputs,
so rebuilding would write the same bytes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ankigen.cache import Codec, build_key
from ankigen.diagnostics import Diagnostic
from ankigen.render import RENDER_SETTINGS, MediaCache

_FORMAT = 5


@dataclass(frozen=True)
class Stamp:
    """What one written deck was built from, and what the build reported."""

    inputs: str
    sources: dict[str, str]
    output: str
    warnings: tuple[Diagnostic, ...]
    items: int
    checks: int
    notes: int
    cards: int
    media: int
    #: The deck key and the line of its ``key:`` (0: the file name), so a build can
    #: tell two files with one key apart without parsing a deck that is current.
    key: str = ""
    key_line: int = 0

    def replayed_warnings(self) -> list[Diagnostic]:
        """The warnings the build that wrote the deck reported."""
        return list(self.warnings)


#: Stamps as the store's values (``cache.codec``).
_CODEC = Codec([Stamp])


def input_hash(content: Path, settings: str, build_time: float) -> str:
    """A hash of the content file, the build settings, the code and the build time."""
    digest = build_key("stamp", str(_FORMAT), RENDER_SETTINGS, settings, repr(build_time))
    with content.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return str(digest.hexdigest())


def file_hash(path: Path) -> str:
    """The sha256 of a file's bytes ("" when it cannot be read)."""
    try:
        with path.open("rb") as handle:
            # read in chunks: a 100 MB deck is never held in memory to be hashed
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return ""


def load_stamp(cache: MediaCache, stem: str) -> Stamp | None:
    """The stamp of the last successful build of ``stem``, if any."""
    stored = cache.store.get("stamp", stem, b"")
    if stored is None:
        return None  # no stamp, or one not sealed by a build of this folder
    try:
        stamp = _CODEC.loads(stored)
    except (ValueError, TypeError):
        return None
    return stamp if isinstance(stamp, Stamp) else None


def is_up_to_date(stamp: Stamp | None, inputs: str, deck: Path) -> bool:
    """True when the deck on disk is exactly what building these inputs would write."""
    if stamp is None or stamp.inputs != inputs:
        return False
    if any(file_hash(Path(path)) != digest for path, digest in stamp.sources.items()):
        return False
    return file_hash(deck) == stamp.output


def save_stamp(cache: MediaCache, stem: str, stamp: Stamp) -> None:
    """Record a successful build of ``stem``."""
    cache.store.write("stamp", stem, {b"": _CODEC.dumps(stamp)})
