"""What a build reuses from earlier builds: frozen sections and passing checks.

Both are rows of the build cache's store (``ankigen.cache.store``), scoped
by the deck: ``sections`` (``parse.section_cache``) and ``checks``
(``check.proven``). Their keys hold everything that shapes what they store,
so a reused value is the one a cold build computes, and each deck's values
are a row sealed with this user's cache key (``ankigen.cache.seal``), so no one
else can forge one. ``ankigen check`` writes nothing, so it neither reads nor fills them: it
always parses and proves all.
"""

from __future__ import annotations

from ankigen.build.discover import ContentFile
from ankigen.build.paths import display_path
from ankigen.build.pool import BuildPool
from ankigen.build.timelimit import TimeLimits
from ankigen.check import ProvenChecks, check_deck
from ankigen.model import CheckReport, ClaimLevel, Deck, MathMode
from ankigen.parse import ParseResult, parse_file, section_cache
from ankigen.render import MediaCache
from ankigen.syntax.tex_macros import NO_MACROS, Macros


def parse_source(
    source: ContentFile,
    default_math: MathMode,
    cache: MediaCache | None,
    default_claims: ClaimLevel = ClaimLevel.ANSWERS,
    macros: Macros = NO_MACROS,
    pool: BuildPool | None = None,
) -> ParseResult:
    """Parse one content file; with a ``cache``, reuse (and refill) its frozen sections.

    ``macros``: the project's TeX macros (format §17); ``pool``: the build's, which
    parses part of a big file.
    """
    sections = None
    if cache is not None:
        sections = section_cache(cache.store, source.path.stem, cache.decoded, cache.tuning)
    parsed = parse_file(
        source.path,
        source.root,
        display_path(source.path),
        default_math,
        sections,
        default_claims=default_claims,
        macros=macros,
        pool=pool,
    )
    if sections is not None:
        sections.save()
    return parsed


def check_source(deck: Deck, limits: TimeLimits, cache: MediaCache | None) -> CheckReport:
    """Check one deck; with a ``cache``, items whose checks passed unchanged are not run."""
    proven = None
    if cache is not None:
        proven = ProvenChecks(cache.store, deck.stem, cache.decoded)
    return check_deck(
        deck, time_limit=limits.check_statement, deck_time_limit=limits.check_deck, proven=proven
    )
