"""What every cache of a build shares: one key recipe, and seals no content can forge.

``recipe`` says what a cached result was made by (``code_fingerprint``,
``build_key``); ``seal`` proves that a cache file was written by a build of
this folder (``Sealer``); ``folder`` writes the folder's files (atomically,
sealed, under a lock: ``CacheFolder``); ``tuning`` holds the thresholds of the
caches (``CacheTuning``: memory held, when a file counts as settled). Each cache
keeps its own format beside the stage it serves; ``docs/architecture.md`` lists them.
"""

from __future__ import annotations

from ankigen.cache import recipe
from ankigen.cache.folder import CacheFolder
from ankigen.cache.recipe import (
    DRAWING_DISTRIBUTIONS,
    SHAPING_DISTRIBUTIONS,
    build_key,
    code_fingerprint,
    distribution_versions,
)
from ankigen.cache.seal import MAC_SIZE, SECRET_NAME, Sealer
from ankigen.cache.tuning import DEFAULT_TUNING, CacheTuning

__all__ = [
    "DEFAULT_TUNING",
    "DRAWING_DISTRIBUTIONS",
    "MAC_SIZE",
    "SECRET_NAME",
    "SHAPING_DISTRIBUTIONS",
    "CacheFolder",
    "CacheTuning",
    "Sealer",
    "build_key",
    "code_fingerprint",
    "distribution_versions",
    "recipe",
]
