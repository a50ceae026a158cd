"""Render stage: fill each item's math and image slots, producing notes and media.

Input is parsed (and checked) decks; output is ``RenderedDeck`` values whose
notes hold final field HTML and whose media are files in the cache folder.
Nothing is written outside the cache; packaging happens later.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.diagnostics import Diagnostic, error
from ankigen.model import SLOT, Deck, Fragment, ItemKind, MathMode
from ankigen.render.figures import FigureResult, Formulas, draw_figure
from ankigen.render.images import ship_image
from ankigen.render.math import MathRenderer
from ankigen.render.media import MediaCache, MediaFile

#: Called as ``progress(done, total)`` while formulas and figures render.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RenderSettings:
    """Where figures come from, where rendered media are cached, and how figures are saved."""

    figures_dir: Path
    cache_dir: Path
    figure_format: str = "svg"


@dataclass(frozen=True)
class Note:
    """One note, ready to package: note type, field HTML, identity, tags and deck."""

    kind: ItemKind
    fields: tuple[str, ...]
    guid: str
    tags: tuple[str, ...]
    deck_name: str
    line: int


@dataclass(frozen=True)
class RenderedDeck:
    """A deck's notes, the media they reference, and the files those came from.

    ``sources`` are the figure scripts and image files the deck used, so a
    later build can tell whether the deck is still up to date.
    """

    deck: Deck
    notes: tuple[Note, ...]
    media: tuple[MediaFile, ...]
    sources: tuple[Path, ...] = ()


@dataclass(frozen=True)
class RenderReport:
    """What rendering produced: decks, problems, and how many images were drawn or cached."""

    decks: tuple[RenderedDeck, ...]
    diagnostics: tuple[Diagnostic, ...]
    rendered: int = 0
    cached: int = 0


@dataclass
class _Shipment:
    """Media and diagnostics gathered while rendering one deck."""

    media: dict[str, MediaFile] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: set[Path] = field(default_factory=set)


def render_decks(
    decks: list[Deck],
    formulas: Mapping[Path, Formulas],
    formulas_source: Mapping[Path, str],
    settings: RenderSettings,
    progress: Progress | None = None,
) -> RenderReport:
    """Render every deck: formulas (drawn in parallel, cached), figures and images."""
    cache = MediaCache(settings.cache_dir)
    maths = MathRenderer(cache)
    diagnostics: list[Diagnostic] = []
    for deck in decks:
        diagnostics.extend(maths.prepare(deck))
    maths.draw_pending(progress)
    figures = _FigureDrawer(settings, cache)
    rendered: list[RenderedDeck] = []
    for deck in decks:
        shipment = _Shipment()
        notes = tuple(
            _note(
                deck,
                item_index,
                maths,
                figures,
                formulas.get(deck.path, {}),
                formulas_source.get(deck.path, ""),
                cache,
                shipment,
            )
            for item_index in range(len(deck.items))
        )
        diagnostics.extend(shipment.diagnostics)
        media = tuple(shipment.media[name] for name in sorted(shipment.media))
        rendered.append(RenderedDeck(deck, notes, media, tuple(sorted(shipment.sources))))
    diagnostics.extend(maths.diagnostics)
    return RenderReport(
        tuple(rendered),
        tuple(_unique(diagnostics)),
        rendered=maths.drawn + figures.drawn,
        cached=maths.reused + figures.reused,
    )


def _note(
    deck: Deck,
    index: int,
    maths: MathRenderer,
    figures: _FigureDrawer,
    formulas: Formulas,
    formulas_source: str,
    cache: MediaCache,
    shipment: _Shipment,
) -> Note:
    item = deck.items[index]
    is_cloze = item.kind is ItemKind.CLOZE
    front = _fill(
        item.front, deck, maths, figures, formulas, formulas_source, cache, shipment, cloze=is_cloze
    )
    back = _fill(
        item.back, deck, maths, figures, formulas, formulas_source, cache, shipment, cloze=False
    )
    source = html.escape(f"{deck.path.name}:{item.line}")
    return Note(
        item.kind, (front, back, source), item.guid, item.tags, item.subdeck or deck.name, item.line
    )


def _fill(
    fragment: Fragment,
    deck: Deck,
    maths: MathRenderer,
    figures: _FigureDrawer,
    formulas: Formulas,
    formulas_source: str,
    cache: MediaCache,
    shipment: _Shipment,
    *,
    cloze: bool,
) -> str:
    """Replace the fragment's slots with math and image HTML."""
    if SLOT not in fragment.html:
        return fragment.html
    parts = fragment.html.split(SLOT)
    # Slots alternate with text: text, slot, text, slot, ...
    for position in range(1, len(parts), 2):
        kind, number = parts[position][0], int(parts[position][1:])
        if kind == "m":
            math_html, media = maths.html(fragment.maths[number], deck.math, cloze=cloze)
            for file in media:
                shipment.media[file.name] = file
            parts[position] = math_html
        else:
            parts[position] = _image_html(
                fragment, number, deck, figures, formulas, formulas_source, cache, shipment
            )
    return "".join(parts)


def _image_html(
    fragment: Fragment,
    number: int,
    deck: Deck,
    figures: _FigureDrawer,
    formulas: Formulas,
    formulas_source: str,
    cache: MediaCache,
    shipment: _Shipment,
) -> str:
    ref = fragment.images[number]
    alt = html.escape(ref.alt)
    if ref.figure_id is not None:
        result = figures.draw(ref.figure_id, formulas, formulas_source)
        css = "ag-figure"
        media, problem, detail, source = (
            result.media,
            result.problem,
            result.traceback,
            result.script,
        )
    else:
        shipped = ship_image(ref.target, deck.path, deck.root, cache)
        css = "ag-image"
        media, problem, detail, source = shipped.media, shipped.problem, "", shipped.source
    if media is None:
        shipment.diagnostics.append(
            error(deck.display_path, ref.line, problem or "bad image", detail)
        )
        return ""
    shipment.media[media.name] = media
    if source is not None:
        shipment.sources.add(source)
    return f'<img class="{css}" src="{html.escape(media.name)}" alt="{alt}">'


class _FigureDrawer:
    """Draws each (figure, formulas) pair at most once per build."""

    def __init__(self, settings: RenderSettings, cache: MediaCache) -> None:
        self._settings = settings
        self._cache = cache
        self._results: dict[tuple[str, str], FigureResult] = {}
        self.drawn = 0
        self.reused = 0

    def draw(self, figure_id: str, formulas: Formulas, formulas_source: str) -> FigureResult:
        key = (figure_id, formulas_source)
        if key not in self._results:
            result = draw_figure(
                figure_id,
                self._settings.figures_dir,
                formulas,
                formulas_source,
                self._settings.figure_format,
                self._cache,
            )
            if result.media is not None:
                self.drawn += result.drawn
                self.reused += not result.drawn
            self._results[key] = result
        return self._results[key]


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return list(dict.fromkeys(diagnostics))


__all__ = ["MathMode", "Note", "RenderReport", "RenderSettings", "RenderedDeck", "render_decks"]
