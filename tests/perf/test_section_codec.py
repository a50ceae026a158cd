"""A section's record (the store's generic codec) decodes to the very section encoded."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.diagnostics import Diagnostic, Severity
from ankigen.model import Claim, CodeBlock, Fragment, ImageRef, Item, ItemKind, Math
from ankigen.parse.section_cache import SectionResult, read_record, record

LINES = st.integers(0, 10_000)
TEXT = st.text(max_size=12)

MATHS = st.builds(Math, TEXT, st.booleans(), LINES, st.integers(0, 80))
IMAGES = st.builds(ImageRef, TEXT, TEXT, LINES)
FRAGMENTS = st.builds(
    Fragment,
    TEXT,
    st.lists(MATHS, max_size=3).map(tuple),
    st.lists(IMAGES, max_size=2).map(tuple),
)
BLOCKS = st.builds(CodeBlock, st.sampled_from(["check", "formulas"]), TEXT, LINES)
CLAIMS = st.builds(Claim, TEXT, st.booleans(), LINES, st.integers(0, 80), st.booleans())
ITEMS = st.builds(
    Item,
    st.sampled_from(list(ItemKind)),
    LINES,
    FRAGMENTS,
    FRAGMENTS,
    TEXT,
    st.none() | TEXT,
    st.lists(TEXT, max_size=3).map(tuple),
    st.none() | TEXT,
    st.lists(BLOCKS, max_size=2).map(tuple),
    st.lists(CLAIMS, max_size=3).map(tuple),
    st.none() | TEXT,
)
DIAGNOSTICS = st.builds(
    Diagnostic, TEXT, LINES, TEXT, st.sampled_from(list(Severity)), TEXT, st.integers(0, 9), TEXT
)
RESULTS = st.builds(
    SectionResult,
    st.none() | TEXT,
    st.lists(ITEMS, max_size=4).map(tuple),
    st.lists(st.tuples(st.none() | TEXT, st.none() | TEXT, st.booleans()), max_size=4).map(tuple),
    st.lists(BLOCKS, max_size=2).map(tuple),
    st.lists(DIAGNOSTICS, max_size=2).map(tuple),
    st.just(()),
    st.tuples(st.just(0) | st.integers(5_001, 20_000), st.just(0) | st.integers(5_001, 20_000)),
)


@settings(max_examples=80, deadline=None)
@given(RESULTS, st.integers(0, 5_000))
def test_a_decoded_section_is_the_section_that_was_encoded(
    result: SectionResult, start: int
) -> None:
    # Lines are stored relative to the section's first line: encoding at `start`
    # and decoding at `start` gives the lines back.
    decoded = read_record(record(result, start), start)
    assert decoded == result
    # Every slot is filled, as the constructors fill them (equal reprs: same values, same
    # types, nothing left unset).
    assert repr(decoded) == repr(result)
    for item, original in zip(decoded.items, result.items, strict=True):
        assert type(item.front) is Fragment and type(item.kind) is ItemKind
        assert [type(c) for c in item.claims] == [type(c) for c in original.claims]
