"""Notes from a deck: each item's math and image slots filled with their HTML.

The formulas were checked and drawn before (``_math_renderer``); here each
slot of an item's question and answer becomes formula, figure or image HTML,
and the media the notes reference are gathered.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from ankigen.cache import Recall
from ankigen.diagnostics import Sink
from ankigen.model import (
    SLOT,
    Deck,
    Fragment,
    ImageRef,
    Item,
    ItemKind,
    Math,
    MediaFile,
    Note,
    RenderedDeck,
)
from ankigen.render._figure_drawer import FigureDrawer
from ankigen.render._figures import Formulas
from ankigen.render._images import Folders, ship_image
from ankigen.render._math_renderer import MathRenderer
from ankigen.render._media import Failed, MediaCache, Place
from ankigen.render._note_cache import CachedNote, NoteCache
from ankigen.render._svg_store import SvgStore
from ankigen.syntax import anki_markup
from ankigen.syntax.source_field import source_field


class _Finished(NamedTuple):
    """A note finished from a stored one, and the media files it shows."""

    stored: CachedNote
    note: Note
    media: tuple[MediaFile, ...]


class DeckFiller:
    """Fills one deck's math and image slots, gathering its media; problems go to its sink."""

    def __init__(
        self,
        deck: Deck,
        sink: Sink,
        maths: MathRenderer,
        figures: FigureDrawer,
        cache: MediaCache,
        stored: NoteCache | None = None,
    ) -> None:
        self.deck = deck
        self.sink = sink
        self._maths = maths
        self._figures = figures
        self._cache = cache
        #: What the deck's checks compiled for its figures (given to ``rendered``).
        self._formulas: Formulas = {}
        self._formulas_source = ""
        self._media: dict[str, MediaFile] = {}
        self._sources: set[Path] = set()
        self._note_sources: set[Path] = set()
        self._folders = Folders(deck.root)
        self._stored = stored
        # An edit build reuses the sanitised SVG images of the last (only when writing).
        self._svgs = SvgStore(cache, deck.stem) if stored is not None else None
        self._note_media: set[str] = set()
        self._clean = True
        self._keys: dict[int, bytes] = {}
        self._known = self._known_notes()
        #: A warm process's (``ankigen watch``) notes of the last round, by item: a note
        #: reused from the store again is not finished again (``cache.Recall``).
        self._finished: Recall[_Finished] | None = None
        if stored is not None and cache.decoded is not None:
            context = f"{deck.path.name}\x1f{deck.name}\x1f{cache.folder}"
            self._finished = cache.decoded.recall("finished-notes", deck.stem, context)
        #: Notes taken from the earlier build this render.
        self.hits = 0

    def _known_notes(self) -> dict[int, CachedNote]:
        """The items whose notes an earlier build stored, with every image still cached."""
        known: dict[int, CachedNote] = {}
        if self._stored is None:
            return known
        for index, key in enumerate(self._stored.keys(self.deck.items)):
            if key is None:
                continue
            self._keys[index] = key
            note = self._stored.get(key)
            if note is not None and self._maths.reuse(note.media):
                known[index] = note
        return known

    @property
    def reused(self) -> frozenset[int]:
        """The indexes of the items whose notes come from an earlier build (not filled again)."""
        return frozenset(self._known)

    def rendered(self, formulas: Formulas, formulas_source: str) -> RenderedDeck:
        """Every item of the deck as a note, with the media the notes reference.

        ``formulas`` (and their source) are what the deck's checks compiled,
        given to its figure scripts. The images and figures that could not be
        shipped are errors in the sink.
        """
        self._formulas, self._formulas_source = formulas, formulas_source
        notes = tuple(self._note(index, item) for index, item in enumerate(self.deck.items))
        if self._stored is not None:
            self._stored.save()
        if self._svgs is not None:
            self._svgs.save()
        media = tuple(self._media[name] for name in sorted(self._media))
        return RenderedDeck(self.deck, notes, media, tuple(sorted(self._sources)))

    def _note(self, index: int, item: Item) -> Note:
        known = self._known.get(index)
        if known is None or self._finished is None:
            return self._finished_note(index, item)
        # The stored note the last round finished for this very item: the same note.
        last = self._finished.get(item, None)
        if last is None or last.stored is not known:
            note = self._finished_note(index, item)
            media = tuple(self._media[name] for name in known.media)
            last = _Finished(known, note, media)
        else:
            self.hits += 1
            for file in last.media:
                self._media.setdefault(file.name, file)
        self._finished.put(item, last)
        return last.note

    def _finished_note(self, index: int, item: Item) -> Note:
        """The item's note: its sides stored or filled, every field as Anki stores it."""
        self._note_sources = set()
        front, back = self._sides(index, item)
        # The file name is the author's too: `[sound:x.mp3].md` must not play, nor
        # `{{c1::x}}.md` read as a cloze (Anki checks every field of a Reveal note for one).
        source = anki_markup.inert(anki_markup.literal(source_field(self.deck.path.name, item)))
        deck_name = item.subdeck or self.deck.name
        shown = tuple(sorted(self._note_sources))
        # Every field as Anki stores it (NFC), so its normalisation changes no markup;
        # then the hints, which Anki draws as "[hint]", made inert.
        front, back, source = (anki_markup.as_anki_stores(v) for v in (front, back, source))
        if item.kind is ItemKind.CLOZE:
            front = anki_markup.inert_hints(front)
        fields = (front, back, source)
        return Note(item.kind, fields, item.guid, item.tags, deck_name, item.line, shown)

    def _sides(self, index: int, item: Item) -> tuple[str, str]:
        """The question and answer HTML: stored by an earlier build, or filled now."""
        note = self._known.get(index)
        if note is not None:  # the store keeps it as it is (``NoteCache.get`` kept it)
            self.hits += 1
            for name in note.media:
                if name not in self._media:
                    self._media[name] = self._cache.get(name)
            return note.front, note.back
        note = self._filled(item)
        key = self._keys.get(index)
        if key is not None and self._stored is not None and self._clean:
            self._stored.put(key, note)
        return note.front, note.back

    def _filled(self, item: Item) -> CachedNote:
        """Fill the item's slots now; ``_clean`` says whether the note may be stored."""
        self._note_media, self._clean = set(), True
        front = context_html(item.context) + self._fill(
            item.front, cloze=item.kind is ItemKind.CLOZE
        )
        back = self._fill(item.back, cloze=False)
        return CachedNote(front, back, tuple(sorted(self._note_media)))

    def _fill(self, fragment: Fragment, *, cloze: bool) -> str:
        """Replace the fragment's slots with math and image HTML."""
        if SLOT not in fragment.html:
            return fragment.html
        parts = fragment.html.split(SLOT)
        # Slots alternate with text: text, slot, text, slot, ...
        for position in range(1, len(parts), 2):
            kind, number = parts[position][0], int(parts[position][1:])
            if kind == "m":
                math = fragment.maths[number]
                parts[position] = self._math_html(math, cloze=cloze)
                if not math.display:
                    parts[position - 1], parts[position], parts[position + 1] = keep_punctuation(
                        parts[position - 1], parts[position], parts[position + 1]
                    )
            else:
                parts[position] = self._image_html(fragment.images[number])
        return "".join(parts)

    def _math_html(self, math: Math, *, cloze: bool) -> str:
        math_html, media = self._maths.html(math, self.deck.math, cloze=cloze)
        self._clean = self._clean and self._maths.clean(math, self.deck.math, cloze=cloze)
        for file in media:
            self._media[file.name] = file
            self._note_media.add(file.name)
        return math_html

    def _image_html(self, ref: ImageRef) -> str:
        self._clean = False  # an image or figure depends on files outside the item
        place = Place(self.deck.display_path, ref.line, ref.column)
        if ref.figure_id is not None:
            css = "ag-figure"
            result = self._figures.draw(ref.figure_id, self._formulas, self._formulas_source, place)
        else:
            css = "ag-image"
            result = ship_image(
                ref.target,
                self.deck.path,
                self.deck.root,
                self._cache,
                place=place,
                folders=self._folders,
                store=self._svgs,
            )
        if isinstance(result, Failed):
            self.sink.add(result.diagnostic)
            return ""
        self._media[result.media.name] = result.media
        self._sources.add(result.source)
        self._note_sources.add(result.source)
        src, alt = anki_markup.attribute(result.media.name), anki_markup.attribute(ref.alt)
        return f'<img class="{css}" src="{src}" alt="{alt}">'


def context_html(context: str | None) -> str:
    """The context line above a question: a ``.ag-context`` block, or nothing.

    It goes into the Question (or Text) field itself, so the note types keep
    their fields. It is the author's text like any other: escaped so Anki reads
    no cloze in it, with its bracket commands and MathJax delimiters made inert.
    """
    if not context:
        return ""
    text = anki_markup.inert(anki_markup.literal(context))
    return f'<div class="ag-context">{text}</div>'


#: Punctuation that must not start a line after an inline formula.
_TRAILING_PUNCTUATION = re.compile(r"[.,;:!?)\]…%]+")
#: Punctuation that must not end a line before one.
_OPENING_PUNCTUATION = "(["


def keep_punctuation(before: str, formula_html: str, after: str) -> tuple[str, str, str]:
    """Glue the punctuation around an inline formula to it, in a no-wrap span.

    A period after a formula image, or a parenthesis before it, could
    otherwise sit alone at a line break. ``::`` (a cloze's hint separator) is
    never punctuation. Returns the new text before, formula HTML and text after.
    """
    closing = _TRAILING_PUNCTUATION.match(after)
    # The run of "(" and "[" that ends the text: a search for "[(\[]+$" would try
    # every place of a long run (quadratic), rstrip reads it once.
    head = before[len(before.rstrip(_OPENING_PUNCTUATION)) :]
    if after.startswith("::"):
        closing = None
    if not formula_html or (closing is None and not head):
        return before, formula_html, after
    tail = closing.group(0) if closing else ""
    glued = f'<span class="ag-nowrap">{head}{formula_html}{tail}</span>'
    return before[: len(before) - len(head)], glued, after[len(tail) :]
