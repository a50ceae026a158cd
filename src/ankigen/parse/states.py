"""The walker's states: the item being collected, and where in the file the walker is.

An item is in one of three states, kept apart from the ``##`` section.
Transitions, from any state unless one is named:

=====================================================  ==================
block                                                  next state
=====================================================  ==================
paragraph with ``:::`` (a reveal item, or a cloze       ``InAnswer``
with an Extra)
cloze paragraph without ``:::``                        ``AwaitingMetadata``
``#``/``##`` heading, ``---``, ``check``/``formulas``  ``Outside``
fence, callout (before and after its contents)
metadata comment ending the item's last paragraph,     ``Outside`` (sets the
or on the line after it                                item's metadata)
any other block in ``InAnswer`` (``###`` to ``######`` ``InAnswer`` (the
headings too)                                          answer grows)
any other block elsewhere                              unchanged (prose)
=====================================================  ==================

A question is one paragraph, read at once (``parse.paragraph``), so "in a
question" is no state of its own; a callout is a context (its kind becomes a
tag) inside which the same states run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it.token import Token

from ankigen.model import CodeBlock, ItemKind
from ankigen.parse.metadata import Metadata


@dataclass
class Draft:
    """An item being collected; frozen into ``model.Item`` once complete."""

    kind: ItemKind
    line: int
    front: tuple[Token, ...]
    lead: tuple[Token, ...]
    lead_line: int
    question_source: str
    answer_source: list[str]
    section: str | None
    tags: list[str]
    blocks: list[Token] = field(default_factory=list)
    metadata: Metadata = field(default_factory=Metadata)
    checks: list[CodeBlock] = field(default_factory=list)
    last_line: int = 0
    #: The title of the callout the item stands in, for the card's context line.
    callout_title: str | None = None


# -- item states -------------------------------------------------------------


@dataclass(frozen=True)
class Outside:
    """No item is open: a paragraph here is an item or prose."""


@dataclass(frozen=True)
class InAnswer:
    """``item``'s answer is open: blocks that are not items extend it."""

    item: Draft


@dataclass(frozen=True)
class AwaitingMetadata:
    """``item``, a cloze without ``:::``, has ended; a comment on the next line is its metadata."""

    item: Draft


ItemState = Outside | InAnswer | AwaitingMetadata


@dataclass
class Section:
    """The ``##`` section being read: its name, its tag, and its last item (for ``check``)."""

    name: str | None = None
    tag: str | None = None
    last_item: Draft | None = None
