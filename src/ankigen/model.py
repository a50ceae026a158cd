"""Plain data passed between the stages: parse -> check -> render -> package.

Every value here is a frozen dataclass, so a stage cannot change what an
earlier stage produced; each stage returns new values instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from ankigen.diagnostics import Diagnostic

#: Marks a math or image slot in fragment HTML. Content cannot produce it:
#: markdown-it replaces NUL characters in its input with U+FFFD.
SLOT = "\x00"


class MathMode(StrEnum):
    """How formulas reach the card: rendered images, or TeX for Anki's MathJax."""

    IMAGE = "image"
    MATHJAX = "mathjax"


class ClaimLevel(StrEnum):
    """Which numbers and formulas on a card are claims a check must quote (format section 18).

    ``answers``: those of the answer, cloze text and Extra (section 12's coverage);
    ``all``: every number and every formula other than a lone symbol, on both sides;
    ``off``: none (a bank with no checks); its checks still run and quotes must hold.
    """

    ANSWERS = "answers"
    ALL = "all"
    OFF = "off"


class ItemKind(StrEnum):
    """The note type an item becomes."""

    REVEAL = "reveal"
    CLOZE = "cloze"


@dataclass(frozen=True, slots=True)
class Math:
    """One formula as written: TeX source (cloze markers included), display or inline.

    ``column`` is the 1-based column of its opening ``$`` (0 when unknown).
    """

    tex: str
    display: bool
    line: int
    column: int = 0


@dataclass(frozen=True, slots=True)
class ImageRef:
    """An image reference: ``figure:<id>`` or a path relative to the content file.

    ``column`` is the 1-based column of the target in its line (0 when unknown).
    """

    target: str
    alt: str
    line: int
    column: int = 0

    @property
    def figure_id(self) -> str | None:
        """The figure id for ``figure:<id>`` references, else None."""
        if self.target.startswith("figure:"):
            return self.target[len("figure:") :]
        return None


@dataclass(frozen=True, slots=True)
class Fragment:
    """One side of a card as HTML, with slots for math and images.

    ``html`` holds ``SLOT + "m<i>" + SLOT`` where ``maths[i]`` goes and
    ``SLOT + "i<i>" + SLOT`` where ``images[i]`` goes; the render stage fills them.
    """

    html: str
    maths: tuple[Math, ...] = ()
    images: tuple[ImageRef, ...] = ()

    @property
    def is_empty(self) -> bool:
        """True when the fragment shows nothing at all."""
        return not self.html.strip()


@dataclass(frozen=True, slots=True)
class CodeBlock:
    """A fenced ``check`` or ``formulas`` block: its statements and where they start.

    ``line`` is the line of the block's first statement (the line after the
    opening fence), so statement ``n`` (0-based) of ``text.splitlines()`` sits
    at ``line + n``.
    """

    kind: str
    text: str
    line: int
    #: Each quoted formula (``$…$``) of the block that uses an author's macro, with its
    #: expansion (format §17: a quote reads the expanded formula, as the card shows it).
    expansions: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Claim:
    """A number or formula the item shows, where it stands (1-based line and column).

    ``text`` is the number as written (``128``, ``50%``, ``3.3x`` with a times sign) or a
    formula's TeX (cloze markers kept). ``required`` marks a claim that a
    check must quote or cite: a standalone number, or a formula holding a
    digit or a relation, in an answer, cloze text or Extra. Numbers in a
    reveal question, numbers inside formulas and other formulas are only
    quotable at that level. ``everywhere`` marks a claim at level ``all``
    (format section 18): every number and every formula but a lone symbol,
    on both sides of the card. ``unit`` is the word after a number, which the
    checker reads as its unit when it is one (``ms`` in ``500 ms``).
    ``ankigen.parse.claims`` reads them; the checker asks it.
    """

    text: str
    formula: bool
    line: int
    column: int
    required: bool
    everywhere: bool = False
    unit: str = ""

    def required_at(self, level: ClaimLevel) -> bool:
        """Whether a check must quote or cite this claim at claim level ``level``."""
        if level is ClaimLevel.ALL:
            return self.everywhere
        return level is ClaimLevel.ANSWERS and self.required


@dataclass(frozen=True, slots=True)
class Item:
    """One question: a reveal (front/back) or a cloze item, ready to render.

    ``front`` is the question (reveal) or the cloze text (cloze); ``back`` is
    the answer (reveal) or the Extra field (cloze); ``claims`` lists what the
    item shows that a check may quote (format section 12). The markdown an item
    was read from is not kept: no later stage reads it (its GUID and the file's
    context rule are worked out while parsing), and at 100,000 items it was
    about 48 MB of the build's peak.
    """

    kind: ItemKind
    line: int
    front: Fragment
    back: Fragment
    guid: str
    note_id: str | None
    tags: tuple[str, ...]
    subdeck: str | None
    checks: tuple[CodeBlock, ...] = ()
    claims: tuple[Claim, ...] = ()
    #: A line shown above the question on the front (plain text), or None.
    context: str | None = None


@dataclass(frozen=True, slots=True)
class Prose:
    """A block of a content file that makes no card (format §15), as its author wrote it.

    ``ankigen preview`` shows it in its place between the cards, marked as
    prose, so that an author sees what makes no card.
    """

    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Deck:
    """One content file, parsed: its settings and items in document order."""

    path: Path
    display_path: str
    root: Path
    name: str
    key: str
    math: MathMode
    items: tuple[Item, ...]
    formulas: tuple[CodeBlock, ...] = ()
    tags: tuple[str, ...] = field(default=())
    #: Line of ``key:`` in the front matter; 0 when the key is the file name.
    key_line: int = 0
    #: Which numbers and formulas on its cards are claims (front matter, else the project's).
    claims: ClaimLevel = ClaimLevel.ANSWERS
    #: The blocks that make no card, in file order (for the preview).
    prose: tuple[Prose, ...] = ()
    #: The names of the authors' TeX macros (format §17, front matter and project, broken
    #: definitions included): one still in a formula is one whose expansion parse reported.
    macros: tuple[str, ...] = ()

    @property
    def stem(self) -> str:
        """The file stem, which names the built ``.apkg``."""
        return self.path.stem


# The stages' results: check -> CheckReport, render -> RenderedDeck, package -> PackagedDeck.


@dataclass(frozen=True)
class CheckReport:
    """What checking one deck found.

    ``diagnostics`` holds errors (failed or broken statements, quotes the
    item does not hold) and warnings (unverified claims, statements that
    prove nothing), sorted by line and column. ``formulas`` maps every name
    of the deck's ``formulas`` blocks to a float function of its free symbols,
    called with keywords: ``formulas["S"](T_compute=1.0, k=4, T_comm=0.1)``.
    ``checks`` counts the ``assert`` statements (a ``for`` counts once) and
    ``failed`` those that did not pass: false, undecidable, timed out,
    unparsable, or quoting what the item does not show.
    """

    diagnostics: tuple[Diagnostic, ...]
    formulas: Mapping[str, Callable[..., float]] = field(default_factory=dict)
    items: int = 0
    checks: int = 0
    failed: int = 0
    #: Quotes naming what the card does not show (an assert quoting one also fails).
    quotes_missing: int = 0
    #: Claims on the card that no statement quotes or cites (each one a warning).
    unverified: int = 0

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return not any(d.is_error for d in self.diagnostics)


@dataclass(frozen=True)
class MediaFile:
    """A file shipped in the deck: its name in Anki's media folder, and its bytes.

    The bytes are on disk at ``path`` (a cache file, or a raster image where it
    is), or held in memory as ``data`` with no ``path``: a sanitised SVG image,
    so a build of thousands of them creates no file per image (``MediaCache.hold``).
    """

    name: str
    path: Path | None
    data: bytes | None = None

    def read(self) -> bytes:
        """The bytes that ship: held in memory, or read from ``path``."""
        if self.data is not None:
            return self.data
        if self.path is None:
            raise ValueError(f"media file {self.name} has neither bytes nor a path")
        return self.path.read_bytes()


@dataclass(frozen=True, slots=True)
class Note:
    """One note, ready to package: note type, field HTML, identity, tags and deck."""

    kind: ItemKind
    fields: tuple[str, ...]
    guid: str
    tags: tuple[str, ...]
    deck_name: str
    line: int
    #: The figure scripts and image files this note shows (its inputs besides the content).
    sources: tuple[Path, ...] = ()


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
class PackagedDeck:
    """A written deck: where it is and what it holds."""

    path: Path
    notes: int
    cards: int
    media: int
