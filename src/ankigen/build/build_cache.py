"""The one place a build gets its caches: ``OUT/.cache``, or none at all (``--no-cache``).

Every cache of a build (sections, checks, notes, SVG images, the media pack,
the formula image index, the up-to-date stamp: rows of one store,
``ankigen.cache.store``) is opened from the ``MediaCache`` handed out here as
``BuildCaches.reused``; when that is None,
no stage reads or fills one and everything is computed afresh. The media a
build draws still need a folder until they are packaged: with ``--no-cache``
that is an empty scratch folder, removed when the build ends (the media of
the decks it hands back for the preview are then held in memory:
``BuildCaches.outliving``), so nothing is read from or written under
``OUT/.cache``.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ankigen.build.build_types import BuildOptions, BuildResult
from ankigen.model import MediaFile, RenderedDeck
from ankigen.render import MediaCache


@dataclass(frozen=True)
class BuildCaches:
    """Where a build's media wait for packaging, and the caches it reuses (if any)."""

    #: The folder of the media drawn now (``OUT/.cache``, or a scratch folder).
    media: MediaCache
    #: Read and refilled by every stage; None: nothing is reused (``check``, ``--no-cache``).
    reused: MediaCache | None
    #: The scratch folder ``media`` is, removed after the build (``--no-cache``); else None.
    scratch: Path | None = None

    def outliving(self, result: BuildResult) -> BuildResult:
        """``result`` with the media of its rendered decks readable after the build.

        Media in the scratch folder are read into memory before it is removed:
        the preview and the watcher show the rendered decks after ``run`` returns.
        """
        if self.scratch is None:
            return result
        return dataclasses.replace(result, rendered=tuple(map(self._held, result.rendered)))

    def _held(self, deck: RenderedDeck) -> RenderedDeck:
        media = tuple(
            MediaFile(m.name, None, m.read())
            if m.path is not None and m.path.parent == self.scratch
            else m
            for m in deck.media
        )
        return dataclasses.replace(deck, media=media)


@contextmanager
def build_caches(options: BuildOptions) -> Iterator[BuildCaches]:
    """The caches of one build: ``OUT/.cache``, or a scratch folder with ``--no-cache``.

    ``check`` (``write=False``) draws into ``OUT/.cache`` so the next build is
    faster, but reuses nothing else: it always parses and proves all.
    """
    if options.cache:
        cache = MediaCache(options.out_dir / ".cache", options.cache_tuning, options.decoded)
        try:
            yield BuildCaches(cache, cache if options.write else None)
        finally:
            # Closed now, not when collected: an open SQLite connection holds files and
            # a reference cycle (its statement cache), which a paused GC would keep.
            cache.close()
        return
    with tempfile.TemporaryDirectory(prefix="ankigen-no-cache-") as scratch:
        folder = Path(scratch)
        yield BuildCaches(MediaCache(folder, options.cache_tuning), None, folder)
