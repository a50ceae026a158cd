"""The release tag: how a learner finds the notes a later release removed.

Anki never deletes a note on import, and it re-writes every note a newer
release still contains (each release is stamped newer, see
``ankigen.build.times``). So every note carries the tag of the release that
last wrote it, ``ankigen::<deck key>::release-YYYY-MM-DD-HHMMSS`` (the build
time, UTC), and a note a release removed keeps an older one. The search
that lists them is :func:`removed_notes_search`.
"""

from __future__ import annotations

import time

from ankigen.parse.slug import slugify
from ankigen.syntax.tags import ROOT


def deck_tag(deck_key: str) -> str:
    """The parent tag of every release tag of one deck."""
    return f"{ROOT}::{slugify(deck_key) or 'deck'}"


def release_tag(deck_key: str, when: float) -> str:
    """The tag every note of the deck built at ``when`` carries."""
    stamp = time.strftime("%Y-%m-%d-%H%M%S", time.gmtime(when))
    return f"{deck_tag(deck_key)}::release-{stamp}"


def is_release_tag(tag: str) -> bool:
    """True for a tag :func:`release_tag` makes (ignored when comparing notes' tags)."""
    parts = tag.split("::")
    return len(parts) == 3 and parts[0] == ROOT and parts[2].startswith("release-")


def removed_notes_search(tag: str) -> str:
    """The Anki search (Browse) that lists this deck's notes the release ``tag`` does not hold."""
    parent = tag.rsplit("::", 1)[0]
    return f'"tag:{parent}::*" -"tag:{tag}"'
