"""The store's one codec: every frozen model type round-trips, with no field list anywhere."""

from __future__ import annotations

import dataclasses
import marshal
from pathlib import Path
from typing import Any

import pytest

from ankigen.cache.codec import MODEL_TYPES, Codec, _instance_maker
from ankigen.diagnostics import Diagnostic, Severity, warning
from ankigen.model import (
    CheckReport,
    Claim,
    ClaimLevel,
    CodeBlock,
    Deck,
    Fragment,
    ImageRef,
    Item,
    ItemKind,
    Math,
    MathMode,
    MediaFile,
    Note,
    PackagedDeck,
    Prose,
    RenderedDeck,
)

CODEC = Codec()
FRONT = Fragment(
    "Q \x00m0\x00 \x00i0\x00", (Math("x^2", False, 3, 5),), (ImageRef("a.svg", "a", 3, 9),)
)
ITEM = Item(
    ItemKind.CLOZE,
    3,
    FRONT,
    Fragment("A"),
    "guid-1",
    None,
    ("tag", "other"),
    "Sub",
    (CodeBlock("check", "assert 1 == 1", 5),),
    (Claim("128", False, 4, 2, True, True, "ms"),),
    "Context",
)
DECK = Deck(
    Path("content/deck.md"),
    "content/deck.md",
    Path("content"),
    "Deck",
    "deck",
    MathMode.IMAGE,
    (ITEM,),
    (CodeBlock("formulas", "S = 1", 9),),
    ("t",),
    2,
    ClaimLevel.ALL,
    (Prose(7, "prose"),),
)
NOTE = Note(ItemKind.REVEAL, ("f", "b"), "g", ("t",), "Deck", 3, (Path("figures/x.py"),))
#: One value of every frozen model type (CheckReport with no formulas: those are functions).
SAMPLES: dict[type, object] = {
    Math: FRONT.maths[0],
    ImageRef: FRONT.images[0],
    Fragment: FRONT,
    CodeBlock: ITEM.checks[0],
    Claim: ITEM.claims[0],
    Item: ITEM,
    Prose: DECK.prose[0],
    Deck: DECK,
    CheckReport: CheckReport((warning("f", 3, "w", column=2, code="AG001"),), {}, 1, 2, 0, 0),
    MediaFile: MediaFile("ag-img-1.svg", None, b"<svg/>"),
    Note: NOTE,
    RenderedDeck: RenderedDeck(DECK, (NOTE,), (MediaFile("m.png", Path("m.png")),), ()),
    PackagedDeck: PackagedDeck(Path("build/deck.apkg"), 1, 2, 0),
    Diagnostic: Diagnostic("f", 3, "m", Severity.WARNING, "d", 4, "AG002"),
}


def test_every_model_dataclass_has_a_sample() -> None:
    frozen = {cls for cls in MODEL_TYPES if dataclasses.is_dataclass(cls)}
    assert frozen == set(SAMPLES)
    assert all(cls.__dataclass_params__.frozen for cls in frozen)  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", SAMPLES.values(), ids=[c.__name__ for c in SAMPLES])
def test_every_frozen_model_type_round_trips(value: object) -> None:
    assert CODEC.loads(CODEC.dumps(value)) == value


def test_lines_are_stored_from_a_base_and_read_back_at_another() -> None:
    stored = CODEC.dumps(ITEM, base=2)
    moved = CODEC.loads(stored, base=12)
    assert moved.line == 13 and moved.checks[0].line == 15 and moved.claims[0].line == 14
    assert moved.front.maths[0].line == 13 and moved.front.images[0].line == 13
    assert dataclasses.replace(moved, line=3) != ITEM  # the nested lines moved too
    assert CODEC.loads(stored, base=2) == ITEM


def test_a_new_field_is_written_with_no_change_here() -> None:
    @dataclasses.dataclass(frozen=True)
    class Grown:
        text: str
        line: int
        added: tuple[str, ...] = ()

    codec = Codec([Grown])
    value = Grown("x", 4, ("new",))
    assert codec.loads(codec.dumps(value, base=1), base=1) == value


def test_a_value_of_another_shape_is_refused() -> None:
    for damaged in [
        marshal.dumps(["Item", 1, 2]),  # too few fields
        marshal.dumps(["os.system", "rm"]),  # not a type of the codec
        marshal.dumps(["ItemKind", "no such kind"]),
        marshal.dumps(["Math", "x", False, "not a line", 0]),
        marshal.dumps({1, 2}),  # a set: never written
        b"\x00garbage",
    ]:
        with pytest.raises((ValueError, TypeError)):
            CODEC.loads(damaged)


def test_a_value_it_cannot_write_is_refused() -> None:
    report: Any = CheckReport((), {"S": lambda: 1.0})
    with pytest.raises(TypeError):
        CODEC.dumps(report)


def _maker(cls: type) -> Any:
    names = tuple(f.name for f in dataclasses.fields(cls))
    line = names.index("line") if "line" in names else -1
    return _instance_maker(cls, names, line, (), CODEC.decode)


def test_a_slotted_value_is_made_as_its_constructor_makes_it() -> None:
    """The maker written for a frozen dataclass with slots sets them directly: the same
    value, the same hash, still frozen, its line moved to the base; one with a
    ``__post_init__`` goes through its constructor."""
    values: list[Any] = ["12", False, 3, 4, True, True, "ms"]
    made = _maker(Claim)(["Claim", *values], 10)
    moved = Claim("12", False, 13, 4, True, True, "ms")
    assert made == moved and hash(made) == hash(moved)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "13"
    with pytest.raises(ValueError, match="another shape"):
        _maker(Claim)(["Claim", *values[:-1]], 0)
    with pytest.raises(TypeError, match="line is not a number"):
        _maker(Claim)(["Claim", "12", False, "3", 4, True, True, "ms"], 0)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    with pytest.raises(ValueError, match="negative"):
        _maker(Checked)(["Checked", -1], 0)
