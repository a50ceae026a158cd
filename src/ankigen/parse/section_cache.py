"""Frozen sections of earlier builds, so an edit re-parses only the sections it touched.

Each section's result (its items, formulas and diagnostics) is stored under a
hash of everything that shapes it: the section's text, the front matter, the
deck key, the file's display path, and the code that parses (the source of
the ``ankigen`` package and the versions of markdown-it, its plugins and
genanki, see ``ankigen.fingerprint``). Lines are stored counted from the
section's first line, so a section that only moves (a line added above it)
is still a hit. Any other change is a miss, and a miss is parsed as usual; a
damaged or foreign cache file is ignored.

The file is ``marshal`` data of builtin values only (tuples, strings,
numbers): loading it builds no object of any class; the decoder below builds
items field by field. A field added to ``model.Item`` and friends and not
spelled out here turns the cache off (``_KNOWN_FIELDS``), never wrong.
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ankigen.diagnostics import Diagnostic, Severity
from ankigen.fingerprint import code_fingerprint
from ankigen.model import Claim, CodeBlock, Fragment, ImageRef, Item, ItemKind, Math

_FORMAT = 2


@dataclass(frozen=True)
class SectionResult:
    """What one section parsed to.

    ``items`` have no subdeck and no context line yet (both depend on the
    whole file); ``places`` holds each item's ``##`` section name and callout
    title, from which the file works them out. ``diagnostics`` come in the
    order a whole-file parse finds them (walker, MathJax delimiters, refused
    links, then freezing).
    """

    title: str | None
    items: tuple[Item, ...]
    places: tuple[tuple[str | None, str | None], ...]
    formulas: tuple[CodeBlock, ...]
    diagnostics: tuple[Diagnostic, ...]


class SectionCache:
    """Section results of one deck's last parse, and this parse's for the next.

    This parse's sections are written out one by one as they come (never held
    as one big value), to a temporary file that ``save`` puts in place; use it
    as a context manager so an unsaved one leaves nothing behind.
    """

    def __init__(self, file: Path | None) -> None:
        # A model class whose fields this codec does not know turns the cache off.
        self._file = file if _KNOWN_FIELDS else None
        self._old = _load(self._file)
        self._out: BinaryIO | None = None
        self._broken = self._file is None
        self.hits = 0

    def __enter__(self) -> SectionCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self._discard()

    def get(self, key: str, start: int) -> SectionResult | None:
        """The stored result for ``key``, its lines moved to a section starting at ``start``."""
        stored = self._old.pop(key, None)
        if stored is None:
            return None
        try:
            result = _decode(stored, start)
        except (TypeError, ValueError):
            return None
        self.hits += 1
        self._write(key, stored)
        return result

    def put(self, key: str, result: SectionResult, start: int) -> None:
        """Remember a freshly parsed section that starts at line ``start`` (0-based)."""
        if not self._broken:
            self._write(key, _encode(result, start))

    def save(self) -> None:
        """Put this parse's sections (only those) in place of the last ones."""
        if self._out is None or self._file is None:
            return
        self._out.close()
        self._out = None
        self._temp().replace(self._file)

    def _write(self, key: str, value: Any) -> None:
        if self._broken or self._file is None:
            return
        try:
            if self._out is None:
                self._file.parent.mkdir(parents=True, exist_ok=True)
                self._out = self._temp().open("wb")
                marshal.dump(_FORMAT, self._out)
            marshal.dump((key, value), self._out)
        except (OSError, ValueError):
            self._discard()  # no cache this time; the build goes on
            self._broken = True

    def _discard(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
            self._temp().unlink(missing_ok=True)

    def _temp(self) -> Path:
        assert self._file is not None
        return self._file.with_name(self._file.name + ".tmp")


def section_key(*parts: str) -> str:
    """The cache key of a section: its text and context, and the parser's code."""
    digest = hashlib.sha256(f"{_FORMAT}:{code_fingerprint()}".encode())
    for part in parts:
        digest.update(b"\x1f" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _load(file: Path | None) -> dict[str, Any]:
    """The records of the last parse: a format number, then (key, section) pairs."""
    if file is None:
        return {}
    records: dict[str, Any] = {}
    try:
        with file.open("rb") as handle:
            if marshal.load(handle) != _FORMAT:
                return {}
            while True:
                try:
                    key, value = marshal.load(handle)
                except EOFError:
                    return records
                records[key] = value
    except (OSError, ValueError, EOFError, TypeError):
        return {}


# -- encoding: builtin values only, lines counted from the section's start ------


def _encode(result: SectionResult, start: int) -> Any:
    return (
        result.title,
        tuple(_item(item, start) for item in result.items),
        result.places,
        tuple(_block(block, start) for block in result.formulas),
        tuple(_diagnostic(d, start) for d in result.diagnostics),
    )


def _item(item: Item, start: int) -> tuple[Any, ...]:
    return (
        item.kind.value,
        item.line - start,
        _fragment(item.front, start),
        _fragment(item.back, start),
        item.guid,
        item.note_id,
        item.tags,
        item.subdeck,
        item.question_source,
        item.answer_source,
        tuple(_block(block, start) for block in item.checks),
        tuple((c.text, c.formula, c.line - start, c.column, c.required) for c in item.claims),
        item.context,
    )


def _fragment(fragment: Fragment, start: int) -> tuple[Any, ...]:
    return (
        fragment.html,
        tuple((m.tex, m.display, m.line - start) for m in fragment.maths),
        tuple((i.target, i.alt, i.line - start) for i in fragment.images),
    )


def _diagnostic(d: Diagnostic, start: int) -> tuple[Any, ...]:
    return (d.file, d.line - start, d.message, d.severity.value, d.detail, d.column, d.code)


def _block(block: CodeBlock, start: int) -> tuple[str, str, int]:
    return (block.kind, block.text, block.line - start)


# -- decoding: the inverse; a value of another shape raises TypeError or ValueError ---


def _decode(value: Any, start: int) -> SectionResult:
    title, items, places, formulas, diagnostics = value
    return SectionResult(
        title,
        tuple(_decode_item(start, *item) for item in items),
        tuple((section, callout) for section, callout in places),
        tuple(CodeBlock(kind, text, line + start) for kind, text, line in formulas),
        tuple(
            Diagnostic(file, line + start, message, Severity(severity), detail, column, code)
            for file, line, message, severity, detail, column, code in diagnostics
        ),
    )


def _decode_item(
    start: int,
    kind: str,
    line: int,
    front: tuple[Any, ...],
    back: tuple[Any, ...],
    guid: str,
    note_id: str | None,
    tags: tuple[str, ...],
    subdeck: str | None,
    question_source: str,
    answer_source: str,
    checks: tuple[Any, ...],
    claims: tuple[Any, ...],
    context: str | None,
) -> Item:
    return Item(
        ItemKind(kind),
        line + start,
        _decode_fragment(start, *front),
        _decode_fragment(start, *back),
        guid,
        note_id,
        tags,
        subdeck,
        question_source,
        answer_source,
        tuple(CodeBlock(k, text, at + start) for k, text, at in checks),
        tuple(
            Claim(text, formula, at + start, column, required)
            for text, formula, at, column, required in claims
        ),
        context,
    )


def _decode_fragment(
    start: int, html: str, maths: tuple[Any, ...], images: tuple[Any, ...]
) -> Fragment:
    return Fragment(
        html,
        tuple(Math(tex, display, line + start) for tex, display, line in maths),
        tuple(ImageRef(target, alt, line + start) for target, alt, line in images),
    )


#: The fields the encoder and decoder above spell out, class by class.
_FIELDS: dict[type, tuple[str, ...]] = {
    Item: (
        "kind",
        "line",
        "front",
        "back",
        "guid",
        "note_id",
        "tags",
        "subdeck",
        "question_source",
        "answer_source",
        "checks",
        "claims",
        "context",
    ),
    Fragment: ("html", "maths", "images"),
    Math: ("tex", "display", "line"),
    ImageRef: ("target", "alt", "line"),
    CodeBlock: ("kind", "text", "line"),
    Claim: ("text", "formula", "line", "column", "required"),
    Diagnostic: ("file", "line", "message", "severity", "detail", "column", "code"),
}
_KNOWN_FIELDS = all(
    tuple(f.name for f in dataclasses.fields(cls)) == names for cls, names in _FIELDS.items()
)
