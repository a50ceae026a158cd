"""Note tags: the namespace ankigen keeps for itself.

Every note carries ``ankigen::<deck key>::release-…`` (``package/release.py``),
the tag a learner searches to find the notes a later release removed. An
author's tag under ``ankigen::`` could forge one, so authors may not write
any: Anki compares tags without regard to case and drops leading colons, so
``ANKIGEN::x`` and ``::ankigen::x`` are the same namespace.
"""

from __future__ import annotations

import re
import unicodedata

from ankigen.diagnostics import Code

#: The root of every tag ankigen writes itself.
ROOT = "ankigen"
RESERVED = Code.RESERVED_TAG
_RESERVED = re.compile(rf"^[:\s]*{ROOT}\s*:", re.IGNORECASE)


def is_reserved(tag: str) -> bool:
    """True for a tag in ankigen's own namespace (``ankigen::…``, in any case, also
    spelled with characters that fold or normalise to those letters: a KELVIN SIGN
    is a ``k`` to Anki's case-insensitive tags)."""
    return _RESERVED.match(unicodedata.normalize("NFKC", tag).casefold()) is not None


def reserved_message(tag: str) -> str:
    """Why ``tag`` may not be written, and what to write instead."""
    rest = _RESERVED.sub("", tag).lstrip(":") or "topic"
    return RESERVED.message(tag=tag, meant=rest)
