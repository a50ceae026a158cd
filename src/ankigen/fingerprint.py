"""A fingerprint of the code that turns content into decks, for caches of its results."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of ankigen's own source and the versions of the libraries that shape decks.

    A cache keyed by it is never reused across a change of the code, even one
    that keeps the version number (a checkout between two commits).
    """
    digest = hashlib.sha256()
    for name in ("markdown-it-py", "mdit-py-plugins", "genanki", "sympy"):
        digest.update(f"{name}={version(name)}\x1f".encode())
    package = Path(__file__).resolve().parent
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode() + b"\x1f")
        digest.update(source.read_bytes())
    return digest.hexdigest()
