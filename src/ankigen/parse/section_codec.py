"""The section cache's codec: a ``SectionResult`` as builtin values and back.

Values are tuples, strings and numbers only (``marshal`` writes them; loading
builds no object of any class); the decoder builds the model's dataclasses
field by field. Lines are stored counted from the section's first line, so a
section that only moved still decodes to the file's lines. A field added to
``model.Item`` and friends and not spelled out here makes ``KNOWN_FIELDS``
false, which turns the cache off: never wrong.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ankigen.diagnostics import Diagnostic, Severity
from ankigen.model import Claim, CodeBlock, Fragment, ImageRef, Item, ItemKind, Math, Prose

__all__ = ["KNOWN_FIELDS", "SectionResult", "decode", "encode"]


@dataclass(frozen=True)
class SectionResult:
    """What one section parsed to.

    ``items`` have no subdeck and no context line yet (both depend on the
    whole file); ``places`` holds each item's ``##`` section name, callout
    title and whether its question asks one (ends in ``?``), from which the
    file works them out. ``diagnostics`` come in the
    order a whole-file parse finds them (walker, MathJax delimiters, refused
    links, then freezing).
    """

    title: str | None
    items: tuple[Item, ...]
    places: tuple[tuple[str | None, str | None, bool], ...]
    formulas: tuple[CodeBlock, ...]
    diagnostics: tuple[Diagnostic, ...]
    #: The section's blocks on no card (format §15), for the preview.
    prose: tuple[Prose, ...] = ()
    #: The line of its opening ``#``/``##`` heading when text on no card follows it, and of
    #: a reveal item left with an empty answer at its end (0: none): the file joins them
    #: across a section cut (AG142, ``parse.lost_text``).
    edges: tuple[int, int] = (0, 0)


# -- encoding: builtin values only, lines counted from the section's start ------


def encode(result: SectionResult, start: int) -> Any:
    """``result`` as builtin values, its lines counted from ``start``."""
    return (
        result.title,
        tuple(_item(item, start) for item in result.items),
        result.places,
        tuple(_block(block, start) for block in result.formulas),
        tuple(_diagnostic(d, start) for d in result.diagnostics),
        tuple((p.line - start, p.text) for p in result.prose),
        tuple(line - start if line else 0 for line in result.edges),
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
        tuple(_block(block, start) for block in item.checks),
        tuple(
            (c.text, c.formula, c.line - start, c.column, c.required, c.everywhere, c.unit)
            for c in item.claims
        ),
        item.context,
    )


def _fragment(fragment: Fragment, start: int) -> tuple[Any, ...]:
    return (
        fragment.html,
        tuple((m.tex, m.display, m.line - start, m.column) for m in fragment.maths),
        tuple((i.target, i.alt, i.line - start, i.column) for i in fragment.images),
    )


def _diagnostic(d: Diagnostic, start: int) -> tuple[Any, ...]:
    return (d.file, d.line - start, d.message, d.severity.value, d.detail, d.column, d.code)


def _block(block: CodeBlock, start: int) -> tuple[str, str, int]:
    return (block.kind, block.text, block.line - start)


# -- decoding: the inverse; a value of another shape raises TypeError or ValueError ---


def decode(value: Any, start: int) -> SectionResult:
    """The inverse of ``encode``; a value of another shape raises TypeError or ValueError."""
    title, items, places, formulas, diagnostics, prose, edges = value
    return SectionResult(
        title,
        tuple([_decode_item(start, item) for item in items]),
        tuple((section, callout, bool(asks)) for section, callout, asks in places),
        tuple(CodeBlock(kind, text, line + start) for kind, text, line in formulas),
        tuple(
            Diagnostic(file, line + start, message, Severity(severity), detail, column, code)
            for file, line, message, severity, detail, column, code in diagnostics
        ),
        tuple(Prose(line + start, text) for line, text in prose),
        (edges[0] + start if edges[0] else 0, edges[1] + start if edges[1] else 0),
    )


def _decode_item(start: int, value: Any) -> Item:
    kind, line, front, back, guid, note_id, tags, subdeck, checks, claims, context = value
    if checks:
        checks = tuple([_code_block(k, text, at + start) for k, text, at in checks])
    if claims:
        claims = tuple([_claim(t, f, at + start, c, r, e, u) for t, f, at, c, r, e, u in claims])
    # Not Item(...): a frozen dataclass sets each field through object.__setattr__,
    # which doubles the cost of decoding the tens of thousands of items of a big deck.
    # KNOWN_FIELDS checks that these are Item's fields, in order, and that it has no
    # __post_init__, so this is the instance Item(...) makes; each slot's own
    # descriptor stores its field (Item has slots: no __dict__ to fill at once).
    # Written out, not in a loop: the loop would cost as much as it saves.
    (set_kind, set_line, set_front, set_back, set_guid, set_note_id, set_tags, set_subdeck,
     set_checks, set_claims, set_context) = _ITEM  # fmt: skip
    item = _new(Item)
    set_kind(item, _KINDS[kind])
    set_line(item, line + start)
    set_front(item, _decode_fragment(start, *front))
    set_back(item, _decode_fragment(start, *back))
    set_guid(item, guid)
    set_note_id(item, note_id)
    set_tags(item, tags)
    set_subdeck(item, subdeck)
    set_checks(item, checks)
    set_claims(item, claims)
    set_context(item, context)
    return item


def _decode_fragment(
    start: int, html: str, maths: tuple[Any, ...], images: tuple[Any, ...]
) -> Fragment:
    if maths:
        maths = tuple([_math(tex, d, line + start, column) for tex, d, line, column in maths])
    if images:
        images = tuple([ImageRef(t, alt, line + start, column) for t, alt, line, column in images])
    set_html, set_maths, set_images = _FRAGMENT
    fragment = _new(Fragment)
    set_html(fragment, html)
    set_maths(fragment, maths)
    set_images(fragment, images)
    return fragment


def _math(tex: str, display: bool, line: int, column: int) -> Math:
    set_tex, set_display, set_line, set_column = _MATH
    math = _new(Math)
    set_tex(math, tex)
    set_display(math, display)
    set_line(math, line)
    set_column(math, column)
    return math


def _code_block(kind: str, text: str, line: int) -> CodeBlock:
    set_kind, set_text, set_line = _CODE_BLOCK
    block = _new(CodeBlock)
    set_kind(block, kind)
    set_text(block, text)
    set_line(block, line)
    return block


def _claim(
    text: str, formula: bool, line: int, column: int, required: bool, everywhere: bool, unit: str
) -> Claim:
    set_text, set_formula, set_line, set_column, set_required, set_everywhere, set_unit = _CLAIM
    claim = _new(Claim)
    set_text(claim, text)
    set_formula(claim, formula)
    set_line(claim, line)
    set_column(claim, column)
    set_required(claim, required)
    set_everywhere(claim, everywhere)
    set_unit(claim, unit)
    return claim


_KINDS = {kind.value: kind for kind in ItemKind}
_new = object.__new__


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
        "checks",
        "claims",
        "context",
    ),
    Fragment: ("html", "maths", "images"),
    Math: ("tex", "display", "line", "column"),
    ImageRef: ("target", "alt", "line", "column"),
    CodeBlock: ("kind", "text", "line"),
    Claim: ("text", "formula", "line", "column", "required", "everywhere", "unit"),
    Diagnostic: ("file", "line", "message", "severity", "detail", "column", "code"),
}


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    """Each slot's own setter, in ``names`` order; Nones unless ``cls`` has exactly these slots."""
    if getattr(cls, "__slots__", None) != names:
        return (None,) * len(names)
    return tuple(getattr(cls, name).__set__ for name in names)


#: The fields of these classes are stored straight into their slots (see ``_decode_item``).
_ITEM, _FRAGMENT, _MATH, _CODE_BLOCK, _CLAIM = (
    _slot_setters(cls, _FIELDS[cls]) for cls in (Item, Fragment, Math, CodeBlock, Claim)
)
KNOWN_FIELDS = all(
    None not in setters for setters in (_ITEM, _FRAGMENT, _MATH, _CODE_BLOCK, _CLAIM)
) and all(
    tuple(f.name for f in dataclasses.fields(cls)) == names and not hasattr(cls, "__post_init__")
    for cls, names in _FIELDS.items()
)
