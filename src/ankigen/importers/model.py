"""What an importer reads from a source: decks of items, as markdown, with where each came from."""

from __future__ import annotations

from dataclasses import dataclass

from ankigen.diagnostics import Code, Diagnostic, warning


@dataclass(frozen=True)
class Origin:
    """Where an item was read: a source file and line (for a package: the note's number)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def lost(self, what: str, *, column: int = 0) -> Diagnostic:
        """A warning at this place: ``what`` could not be carried over."""
        return warning(
            self.file,
            self.line,
            Code.NOT_CARRIED_OVER.message(what=what),
            column=column,
            code=Code.NOT_CARRIED_OVER,
        )


@dataclass(frozen=True)
class ImportedItem:
    """One note to be: its question (one paragraph) and answer (blocks), as markdown.

    For a cloze, ``question`` is the cloze text and ``answer`` the Extra (may be
    empty). ``guid`` is the GUID the note had in the source, when it had one.
    ``section`` is the ``##`` heading the item goes under; ``callout`` the
    ``(kind, title)`` of the callout around it.
    """

    question: str
    answer: str
    origin: Origin
    cloze: bool = False
    tags: tuple[str, ...] = ()
    guid: str | None = None
    section: str | None = None
    callout: tuple[str, str] | None = None


@dataclass(frozen=True)
class ImportedDeck:
    """One content file to write: deck name, file stem, items, and the media they show.

    ``prompts`` maps section headings to the context line their cards show
    (None: none); ``media`` holds (file name, bytes) of every image the items show.
    """

    name: str
    stem: str
    items: tuple[ImportedItem, ...]
    source: str
    math: str = "mathjax"
    prompts: tuple[tuple[str, str | None], ...] = ()
    media: tuple[tuple[str, bytes], ...] = ()


@dataclass(frozen=True)
class ImportResult:
    """Every deck read from one source, what could not be carried over, and what was guessed."""

    decks: tuple[ImportedDeck, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    guessed: str | None = None
