"""``ankigen preview``: the pipeline up to rendering, then one HTML page per deck.

Pages, the media they show, ``<stem>.version.js`` (for the reload after a
rebuild) and, for MathJax decks, a MathJax copy go into one folder. A run
with content errors writes no page, so the last good preview stays.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from ankigen.cache import Decoded
from ankigen.commands.build import BuildOptions, BuildResult, run
from ankigen.diagnostics import Diagnostic
from ankigen.model import MathMode, RenderedDeck
from ankigen.preview.deck import cards_recall, deck_cards
from ankigen.preview.outline import Outline, outline
from ankigen.preview.page import (
    MATHJAX_SCRIPT,
    PageInput,
    ShownPage,
    page_html,
    page_patch,
    shown_page,
    version_script,
)


@dataclass(frozen=True)
class PreviewPage:
    """A page written: its file and how many cards it shows."""

    path: Path
    cards: int


class ShownMedia:
    """The files a long-lived process (``ankigen watch``) left in the preview folder.

    Media names carry their content's hash (and the MathJax copy is that of the
    installed package), so a file this process wrote, still there with the size
    and time it left it, already holds those bytes: it is neither read nor
    written again (a 10,000-item deck ships about 2,000 images). And each page it
    wrote, by its path, as its patch for an open page is made from (``page_patch``);
    and each note's cards, by the note itself (``deck_cards``): the build hands back
    the very same note for an item an edit did not touch.
    """

    def __init__(self) -> None:
        self._left: dict[Path, tuple[int, int]] = {}
        self.pages: dict[Path, ShownPage] = {}
        self.cards = Decoded()

    def current(self, target: Path) -> bool:
        """True when ``target`` is as this process left it."""
        left = self._left.get(target)
        if left is None:
            return False
        try:
            info = target.stat()
        except OSError:
            return False
        return (info.st_size, info.st_mtime_ns) == left

    def left(self, target: Path) -> None:
        """Remember ``target`` as written (or found current) now."""
        info = target.stat()
        self._left[target] = (info.st_size, info.st_mtime_ns)


@dataclass(frozen=True)
class PreviewResult:
    """The check-and-render run behind the preview, and the pages written."""

    build: BuildResult
    pages: tuple[PreviewPage, ...]


def preview(options: BuildOptions, preview_dir: Path) -> PreviewResult:
    """Parse, check and render every content file, then write its page (no deck)."""
    result = run(dataclasses.replace(options, write=False))
    pages = write_pages(result.rendered, preview_dir, result.diagnostics, result.left_out)
    return PreviewResult(result, pages)


def write_pages(
    decks: Sequence[RenderedDeck],
    preview_dir: Path,
    diagnostics: Sequence[Diagnostic] = (),
    left_out: Sequence[Diagnostic] = (),
    shown: ShownMedia | None = None,
) -> tuple[PreviewPage, ...]:
    """Write ``<stem>.html`` for each rendered deck, with its media beside it.

    The build's ``diagnostics`` are shown on the cards of the items at their
    lines; ``left_out``, the errors of items left out of the decks, each in its
    place (format §19). ``shown``: the media (and MathJax copy) this process already
    left there.
    """
    preview_dir.mkdir(parents=True, exist_ok=True)
    mathjax = _mathjax_source()
    if mathjax is not None and any(d.deck.math is MathMode.MATHJAX for d in decks):
        script = preview_dir / MATHJAX_SCRIPT
        if shown is None or not shown.current(script):  # 2 MB: not read again each round
            _copy_mathjax(mathjax, preview_dir)
            if shown is not None:
                shown.left(script)
    pages = []
    for rendered in decks:
        for media in rendered.media:
            target = preview_dir / media.name
            if shown is not None and shown.current(target):
                continue
            _write_if_changed(target, media.read())
            if shown is not None:
                shown.left(target)
        recall = cards_recall(shown.cards, rendered) if shown is not None else None
        sections = _outline(rendered.deck.path)
        cards = deck_cards(rendered, diagnostics, sections, recall)
        uses_mathjax = rendered.deck.math is MathMode.MATHJAX
        page_input = PageInput(
            stem=rendered.deck.stem,
            deck_name=rendered.deck.name,
            source=rendered.deck.display_path,
            cards=cards,
            mathjax=(mathjax is not None) if uses_mathjax else None,
            prose=rendered.deck.prose,
            broken=tuple(d for d in left_out if d.file == rendered.deck.display_path),
            section_lines=tuple(line for line, _ in sections.sections) if sections else (),
        )
        target = preview_dir / f"{rendered.deck.stem}.html"
        if shown is None:
            page = page_html(page_input)
            _write_if_changed(target, page.encode("utf-8"))
        else:  # a watch process: an open page takes the changed cards (``_write_patch``)
            page, after = shown_page(page_input)
            _write_if_changed(target, page.encode("utf-8"))
            _write_patch(preview_dir, target, shown, page_input.stem, after)
        # Last: an open page reloads only once its new version is complete.
        version = version_script(rendered.deck.stem, page).encode("utf-8")
        _write_if_changed(preview_dir / f"{rendered.deck.stem}.version.js", version)
        pages.append(PreviewPage(target, len(cards)))
    return tuple(pages)


def _write_patch(
    preview_dir: Path, target: Path, shown: ShownMedia, stem: str, after: ShownPage
) -> None:
    """``<stem>.patch.js``: the entries that changed since the page this process last
    wrote at ``target`` (written before the version, which the open page polls)."""
    patch = page_patch(stem, shown.pages.get(target), after)
    _write_if_changed(preview_dir / f"{stem}.patch.js", patch.encode("utf-8"))
    shown.pages[target] = after


def _outline(content: Path) -> Outline | None:
    """The sections and callouts of a content file (None when it cannot be read again)."""
    try:
        return outline(content.read_text("utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def _mathjax_source() -> Traversable | None:
    """MathJax 3 (Apache-2.0) as shipped by the ``django-static-mathjax`` wheel, if installed."""
    try:
        folder = resources.files("mathjax").joinpath("static", "mathjax")
    except ModuleNotFoundError:
        return None
    return folder if folder.joinpath("es5", "tex-svg-full.js").is_file() else None


def _copy_mathjax(folder: Traversable, preview_dir: Path) -> None:
    """The single-file TeX-to-SVG build (it loads nothing else) and its licence."""
    target = preview_dir / MATHJAX_SCRIPT
    _write_if_changed(target, folder.joinpath("es5", "tex-svg-full.js").read_bytes())
    licence = folder.joinpath("LICENSE")
    if licence.is_file():
        _write_if_changed(target.parent / "LICENSE", licence.read_bytes())


def _write_if_changed(target: Path, data: bytes) -> None:
    """Write atomically (an open page never reads half a file), and only if different."""
    if target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    finally:
        Path(temp).unlink(missing_ok=True)
