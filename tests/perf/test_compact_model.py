"""The types a deck holds one of per item keep their fields in slots, and stay frozen.

A 100,000-item deck holds hundreds of thousands of these at once; a
per-instance ``__dict__`` cost about 25 MB of the build's peak at 100,000 items.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from ankigen import model
from ankigen.model import Claim, CodeBlock, Fragment, ImageRef, Item, ItemKind, Math, Note
from ankigen.parse import parse_text

PER_ITEM = [
    model.Math,
    model.ImageRef,
    model.Fragment,
    model.CodeBlock,
    model.Claim,
    model.Item,
    Note,  # one per item too, alive while the deck is packaged
]


@pytest.mark.parametrize("cls", PER_ITEM, ids=lambda cls: cls.__name__)
def test_fields_live_in_slots(cls: type) -> None:
    assert getattr(cls, "__slots__", None) == tuple(f.name for f in dataclasses.fields(cls))
    assert "__dict__" not in dir(cls)


def _item() -> Item:
    math = Math("x^2", display=False, line=3, column=7)
    front = Fragment("What is \x00m0\x00?", (math,), (ImageRef("figure:f1", "plot", 3),))
    return Item(
        kind=ItemKind.REVEAL,
        line=3,
        front=front,
        back=Fragment("A square."),
        guid="g",
        note_id=None,
        tags=("t",),
        subdeck=None,
        checks=(CodeBlock("check", "cite $x^2$", 4),),
        claims=(Claim("x^2", formula=True, line=3, column=7, required=False),),
    )


def test_items_stay_frozen_comparable_and_replaceable() -> None:
    item = _item()
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.line = 4  # type: ignore[misc]
    moved = dataclasses.replace(item, subdeck="Deck::Sub", context="Section")
    assert (moved.subdeck, moved.context, moved.front) == ("Deck::Sub", "Section", item.front)
    assert item == _item() and hash(item.front.maths) == hash(_item().front.maths)
    assert item.front.images[0].figure_id == "f1"


SECTION = """# Deck

## Sharing

The {{c1::plain}} text of a cloze.

What is a *marked* question? ::: A `marked` answer.

```check
cite $x$
```
"""


def test_items_keep_no_markdown_and_tags_once_per_section(tmp_path: Path) -> None:
    deck = parse_text(SECTION, tmp_path / "bank.md", tmp_path, "bank.md").deck
    assert deck is not None
    plain, marked = deck.items
    # The markdown an item was read from is not kept: only what later stages read.
    assert not hasattr(plain, "question_source") and not hasattr(plain, "answer_source")
    assert plain.front.html == "The {{c1::plain}} text of a cloze."
    # Markup renders to other text: the fragment keeps its own HTML.
    assert marked.back.html == "A <code>marked</code> answer."
    assert marked.front.html == "What is a <em>marked</em> question?"
    assert plain.tags == marked.tags == ("sharing",)
    assert plain.tags is marked.tags
    assert marked.checks[0].kind == "check"
    assert marked.checks[0].kind is sys.intern("check")
