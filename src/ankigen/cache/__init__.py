"""What every cache of a build shares: one key recipe, one store, seals no content can forge.

``recipe`` says what a cached result was made by (``code_fingerprint``,
``build_key``); ``store`` keeps every cache's records in one SQLite database
(``Store``), each row sealed with this user's cache key (``seal``: ``Sealer``);
``codec`` writes the model's frozen types as the store's values (``Codec``);
``memo`` reads and keeps one cache's values for one deck (``Memo``; ``Decoded``
keeps decoded values between the builds of one process);
``tuning`` holds the thresholds of the caches (``CacheTuning``: memory held,
when a file counts as settled). ``docs/architecture.md`` lists what each
stage keeps there.
"""

from __future__ import annotations

from ankigen.cache import recipe
from ankigen.cache.codec import Codec
from ankigen.cache.memo import Decoded, Memo, Recall, store_values, stored_values
from ankigen.cache.recipe import (
    DRAWING_DISTRIBUTIONS,
    SHAPING_DISTRIBUTIONS,
    build_key,
    code_fingerprint,
    distribution_versions,
    key_with,
)
from ankigen.cache.seal import KEY_NAME, MAC_SIZE, Sealer, key_path
from ankigen.cache.store import STORE_NAME, Store
from ankigen.cache.tuning import DEFAULT_TUNING, CacheTuning

__all__ = [
    "DEFAULT_TUNING",
    "DRAWING_DISTRIBUTIONS",
    "KEY_NAME",
    "MAC_SIZE",
    "SHAPING_DISTRIBUTIONS",
    "STORE_NAME",
    "CacheTuning",
    "Codec",
    "Decoded",
    "Memo",
    "Recall",
    "Sealer",
    "Store",
    "build_key",
    "code_fingerprint",
    "distribution_versions",
    "key_path",
    "key_with",
    "recipe",
    "store_values",
    "stored_values",
]
