"""Which decks a build must make: a deck whose inputs did not change is up to date.

A plan holds a content file, the hash of everything its deck is built from,
and, when the deck on disk was built from exactly that, the stamp that says so
(the deck is then neither parsed nor written again).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ankigen.build.build_types import BuildOptions
from ankigen.build.discover import ContentFile
from ankigen.build.guards import DeckKey
from ankigen.build.paths import display_path
from ankigen.build.release import settings_files
from ankigen.build.stamp import Stamp, input_hash, is_up_to_date, load_stamp
from ankigen.build.times import BuildClock
from ankigen.model import Deck
from ankigen.parse import parse_file
from ankigen.render import MediaCache


@dataclass(frozen=True)
class Plan:
    """A content file, the inputs hash of its deck, and its stamp if the deck is current."""

    source: ContentFile
    inputs: str
    build_time: float
    stamp: Stamp | None


def plan_deck(
    source: ContentFile, options: BuildOptions, cache: MediaCache | None, clock: BuildClock
) -> Plan:
    """Decide whether a content file's deck must be built, or is already up to date.

    Without a ``cache`` (``check``, ``--no-cache``) there is no stamp to read or write:
    every deck is built.
    """
    if cache is None:
        return Plan(source, "", 0.0, None)
    stamp = load_stamp(cache, source.path.stem)
    # The figures and images the last build used count too: an uncommitted one has its own time.
    shown = [Path(p) for p in stamp.sources] if stamp else []
    when = clock.time_of([source.path, *settings_files(), *shown])
    settings = "|".join(
        str(part)
        for part in (
            options.math,
            options.default_math,
            options.default_claims,
            options.figure_format,
            options.figures_dir.resolve(),
            source.root.resolve(),
            options.strict,
            _macros_digest(options.macros_file),
        )
    )
    inputs = input_hash(source.path, settings, when)
    deck_file = options.out_dir / f"{source.path.stem}.apkg"
    # --against compares the deck it writes with the old release: always build it.
    fresh = options.against is None and is_up_to_date(stamp, inputs, deck_file)
    return Plan(source, inputs, when, stamp if fresh else None)


def _macros_digest(path: Path | None) -> str:
    """What the project's macros file holds (its macros shape every formula of every deck)."""
    if path is None:
        return ""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


def deck_keys(decks: list[Deck], plans: list[Plan]) -> list[DeckKey]:
    """The key of every deck of the build, up-to-date ones (not parsed above) included."""
    keys = [DeckKey(deck.display_path, deck.key, deck.key_line) for deck in decks]
    for plan in plans:
        if plan.stamp is None:
            continue
        shown = display_path(plan.source.path)
        if plan.stamp.key:
            keys.append(DeckKey(shown, plan.stamp.key, plan.stamp.key_line))
            continue
        deck = parse_file(plan.source.path, plan.source.root, shown).deck  # an older stamp
        if deck is not None:
            keys.append(DeckKey(shown, deck.key, deck.key_line))
    return keys
