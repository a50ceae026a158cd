"""Card sides as Anki renders them: fields + card template + ordinal -> front and back HTML.

This is the one place that knows Anki's rendering rules, written from the
behaviour of Anki's own renderer (and tested against the real ``anki``
package): ``{{Field}}``, ``{{#Field}}...{{/Field}}``, ``{{^Field}}``,
``{{FrontSide}}`` and the ``cloze:`` filter, with Anki's cloze rules:

- ``{{cN::text}}`` and ``{{cN::text::hint}}``, nested up to 10 deep; a closing
  ``}}`` outside any cloze is literal text, an unclosed cloze vanishes;
- the active cloze shows ``[hint]`` (default ``[...]``) on the front and its
  text on the back, wrapped in ``<span class="cloze" data-ordinal="N">``;
  other clozes show their text in ``<span class="cloze-inactive">``;
- a side with no active cloze renders empty (Anki makes no such card);
- inside MathJax ``\\(...\\)`` and ``\\[...\\]`` the spans are stripped again.

Fields are rendered as Anki stores them: NFC-normalised on import.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from ankigen.syntax.anki_markup import anki_cloze_number

#: An opening ``{{cN::`` (its number in group 1) or a closing ``}}`` (no group).
_MARKER = re.compile(r"\{\{c([0-9]+)::|\}\}")
_MAX_NESTING = 10
_MATHJAX = re.compile(r"(\\[(\[])(.*?)(\\[)\]])", re.DOTALL | re.IGNORECASE)
_HTML = re.compile(
    r"<!--.*?-->|<style.*?>.*?</style>|<script.*?>.*?</script>|<.*?>", re.DOTALL | re.IGNORECASE
)
_EMPTY_FIELD = re.compile(r"^(?:\s|</?(?:br|div) ?/?>)*$", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)


@dataclass(frozen=True)
class CardSides:
    """One card: its ordinal (0-based, as Anki's ``card.ord``) and both rendered sides."""

    ordinal: int
    front: str
    back: str


def render_card(
    question_template: str, answer_template: str, fields: Mapping[str, str], ordinal: int
) -> CardSides:
    """Render card ``ordinal`` (0-based) of a note, both sides, as Anki does (without CSS):
    its fields as Anki stores them (NFC), the note type's templates applied."""
    fields = {name: unicodedata.normalize("NFC", value) for name, value in fields.items()}
    front = render_template(question_template, fields, ordinal, front_side=None)
    back = render_template(answer_template, fields, ordinal, front_side=front)
    return CardSides(ordinal, front, back)


def render_template(
    template: str, fields: Mapping[str, str], ordinal: int, front_side: str | None
) -> str:
    """Fill one card template; ``front_side`` is None on the question side."""
    out: list[str] = []
    # One entry per open {{#...}}/{{^...}} section: does its content show?
    visible = [True]
    position = 0
    for tag in _TAG.finditer(template):
        if visible[-1]:
            out.append(template[position : tag.start()])
        position = tag.end()
        name = tag.group(1).strip()
        if name[:1] in "#^":
            shown = not _is_empty(fields.get(name[1:].strip(), ""))
            visible.append(visible[-1] and shown == (name[0] == "#"))
        elif name.startswith("/"):
            if len(visible) > 1:
                visible.pop()
        elif visible[-1]:
            out.append(_replacement(name, fields, ordinal, front_side))
    if visible[-1]:
        out.append(template[position:])
    return "".join(out)


def cloze_ordinals(text: str) -> tuple[int, ...]:
    """The 0-based ordinals of the cards Anki makes from a cloze field: ``cN`` is card
    ``N-1``, nested clozes included, ``c0`` never."""
    flat = _flat_cloze_numbers(text)
    if flat is None:
        return _tree_cloze_ordinals(text)
    return tuple(number - 1 for number in sorted(flat))


def _flat_cloze_numbers(text: str) -> set[int] | None:
    """The cloze numbers of a field whose clozes do not nest (as nearly all do); None for
    any other field (a cloze inside a cloze, a number past 0xFFFF), which is parsed whole.

    With no nesting, a cloze that is closed makes a card and one left open at the end
    vanishes; a ``}}`` outside a cloze is text. That is what ``_parse`` makes of such a
    field, without building its nodes (``tests/perf/test_cloze_tokens_fast_path.py``).
    """
    numbers: set[int] = set()
    open_number = 0  # 0: no cloze open (c0 makes no card either way)
    is_open = False
    for marker in _MARKER.finditer(text):
        number = marker[1]
        if number is None:
            if is_open and open_number:
                numbers.add(open_number)
            is_open = False
            continue
        if is_open or len(number) > 5:
            return None
        parsed = anki_cloze_number(number)
        if parsed is None:
            return None
        open_number, is_open = parsed, True
    return numbers


def _tree_cloze_ordinals(text: str) -> tuple[int, ...]:
    """``cloze_ordinals`` for any field: every cloze, nested ones too, from its nodes."""
    numbers: set[int] = set()
    # A stack, not a nested function that calls itself (a cycle with its cell).
    pending = [_parse(text)]
    while pending:
        for node in pending.pop():
            if isinstance(node, _Cloze) and node.number != 0:
                numbers.add(node.number)
                pending.append(node.children)
    return tuple(number - 1 for number in sorted(numbers))


def reveal_clozes(text: str, ordinal: int, question: bool) -> str:
    """Anki's ``{{cloze:...}}`` filter for card ``ordinal`` (0-based) of a cloze field."""
    number = ordinal + 1
    found = [False]
    rendered = "".join(_reveal(node, number, question, found) for node in _parse(text))
    if not found[0]:
        return ""
    return _MATHJAX.sub(lambda m: m[1] + _HTML.sub("", m[2]) + m[3], rendered)


def _replacement(name: str, fields: Mapping[str, str], ordinal: int, front: str | None) -> str:
    """The text a ``{{...}}`` tag stands for."""
    *filters, field_name = [part.strip() for part in name.split(":")]
    if field_name == "FrontSide":
        return front or ""
    value = fields.get(field_name)
    if value is None:
        return "{{" + name + "}}"  # Anki shows an unknown field's tag as written
    for filter_name in reversed(filters):
        if filter_name != "cloze":
            raise ValueError(f"template filter '{filter_name}' is not supported")
        value = reveal_clozes(value, ordinal, question=front is None)
    return value


def _is_empty(value: str) -> bool:
    return _EMPTY_FIELD.match(value) is not None


@dataclass
class _Cloze:
    """A cloze as Anki parses it: its number, the nodes inside it and its hint."""

    number: int
    children: list[_Node] = field(default_factory=list)
    hint: str | None = None


_Node = str | _Cloze


def _tokens(text: str) -> list[int | str | None]:
    """Cloze openings (their number), closings (None) and runs of text, in order.

    Read left to right: at each place an opening ``{{cN::`` (N up to 0xFFFF,
    as Anki's parser) wins over a closing ``}}``; every other character is text.
    One regular-expression search jumps from marker to marker.
    """
    tokens: list[int | str | None] = []
    position = 0
    run_start = 0
    while (marker := _MARKER.search(text, position)) is not None:
        number = None if marker[1] is None else anki_cloze_number(marker[1])
        if marker[1] is not None and number is None:
            position = marker.start() + 1  # text, like any other character
            continue
        if run_start < marker.start():
            tokens.append(text[run_start : marker.start()])
        tokens.append(number)
        position = run_start = marker.end()
    if run_start < len(text):
        tokens.append(text[run_start:])
    return tokens


def _parse(text: str) -> list[_Node]:
    """Nodes of a field: text and clozes; unclosed clozes are dropped, as Anki does."""
    open_clozes: list[_Cloze] = []
    output: list[_Node] = []
    for token in _tokens(text):
        if isinstance(token, int):
            if len(open_clozes) < _MAX_NESTING:
                open_clozes.append(_Cloze(token))
        elif isinstance(token, str):
            if not open_clozes:
                output.append(token)
                continue
            head, separator, tail = token.partition("::")
            if separator:
                open_clozes[-1].hint = tail
            open_clozes[-1].children.append(head)
        elif open_clozes:
            closed = open_clozes.pop()
            (open_clozes[-1].children if open_clozes else output).append(closed)
        else:
            output.append("}}")
    return output


def _reveal(node: _Node, number: int, question: bool, found: list[bool]) -> str:
    """One node of a cloze field, rendered for the card of cloze ``number``."""
    if isinstance(node, str):
        return node
    active = node.number == number
    found[0] = found[0] or active
    inner = "".join(_reveal(child, number, question, found) for child in node.children)
    if active and question:
        hint = "..." if node.hint is None else node.hint
        return (
            f'<span class="cloze" data-cloze="{_encode_attribute(inner)}" '
            f'data-ordinal="{node.number}">[{hint}]</span>'
        )
    kind = "cloze" if active else "cloze-inactive"
    return f'<span class="{kind}" data-ordinal="{node.number}">{inner}</span>'


def _encode_attribute(text: str) -> str:
    """Escape as Anki's attribute encoder does: ``& < > "`` by name, every other Latin-1
    character but ASCII letters and digits as a hexadecimal character reference."""
    return "".join(_encode_char(char) for char in text)


_NAMED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def _encode_char(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    if ord(char) < 256 and not (char.isascii() and char.isalnum()):
        return f"&#x{ord(char):X};"
    return char
