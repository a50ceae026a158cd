"""The context line on a card's front: what kind of answer the question asks for.

A learner reviews cards shuffled, one at a time, so a section heading such
as "True or false — justify" or "Spot the error", which tells how to read
every item under it, is lost unless the card shows it. The rule, in order:

1. ``context: none`` in the front matter: no card of the file has a line.
2. An item inside a callout with a title shows the title.
3. A section named in the front matter's ``prompt:`` shows the line given
   there (or none, for ``none``).
4. Otherwise a section whose items are all statements rather than questions
   (reveal items, none ending in ``?``, an emoji or symbol after it not
   counting: prompts of one kind, such as claims to judge or quotes to
   correct) shows its heading on each of them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Protocol

from ankigen.diagnostics import Code, Sink
from ankigen.model import ItemKind
from ankigen.parse.frontmatter import FrontMatter

#: Closing marks that may follow a question's ``?`` (a quoted or emphasised question).
_CLOSERS = "\"'\u201d\u2019\u00bb*_) \t"
#: Unicode categories of what may trail a question's ``?`` besides closers: symbols
#: (emoji are So), modifiers (skin tones, Sk), joiners (ZWJ, Cf) and variation
#: selectors and keycaps (Mn, Me).
_SYMBOLS = frozenset({"So", "Sk", "Sm", "Cf", "Mn", "Me"})


class Placed(Protocol):
    """What the rule reads of an item: its kind and place, and whether it asks a question."""

    @property
    def kind(self) -> ItemKind:
        """Reveal or cloze."""

    @property
    def asks(self) -> bool:
        """Whether the question, as written, ends in a question mark (``is_question``)."""

    @property
    def section(self) -> str | None:
        """The ``##`` heading the item stands under."""

    @property
    def callout_title(self) -> str | None:
        """The title of the callout the item stands in."""


def item_contexts(drafts: Sequence[Placed], front: FrontMatter, sink: Sink) -> list[str | None]:
    """The context line of each draft (None: no line); problems with ``prompt:`` go to ``sink``."""
    prompts = dict(front.prompts)
    _unknown_prompt_sections(drafts, front, sink)
    if not front.context:
        return [None] * len(drafts)
    prompt_sections = _statement_sections(drafts)
    contexts: list[str | None] = []
    for draft in drafts:
        if draft.callout_title:
            contexts.append(draft.callout_title)
        elif draft.section is not None and draft.section in prompts:
            contexts.append(prompts[draft.section])
        elif draft.section in prompt_sections:
            contexts.append(draft.section)
        else:
            contexts.append(None)
    return contexts


def is_question(source: str) -> bool:
    """True when an item's question, as written, ends in a question mark.

    Closing marks, and emoji or other symbols after the ``?`` (``Why? 🤔``, with
    their joiners, variation selectors and skin tones), do not count.
    """
    end = len(source)
    while end and (source[end - 1] in _CLOSERS or _is_trailing_symbol(source[end - 1])):
        end -= 1
    return source[:end].endswith("?")


def _is_trailing_symbol(char: str) -> bool:
    """An emoji, a symbol, or what joins and varies one (not a letter, digit or ``?``)."""
    return char.isspace() or unicodedata.category(char) in _SYMBOLS


def _statement_sections(drafts: Sequence[Placed]) -> set[str]:
    """Sections whose items (outside callouts) are all reveal items that ask no question."""
    by_section: dict[str, list[Placed]] = {}
    for draft in drafts:
        if draft.section is not None and not draft.callout_title:
            by_section.setdefault(draft.section, []).append(draft)
    return {
        section
        for section, items in by_section.items()
        if all(d.kind is ItemKind.REVEAL and not d.asks for d in items)
    }


def _unknown_prompt_sections(drafts: Sequence[Placed], front: FrontMatter, sink: Sink) -> None:
    sections = {d.section for d in drafts if d.section is not None}
    line = 1 + front.prompt_line_offset
    for name, _ in front.prompts:
        if name not in sections:
            sink.warning(
                line,
                Code.PROMPT_SECTION_MISSING.message(section=name),
                column=1,
                code=Code.PROMPT_SECTION_MISSING,
            )
