"""A file's sections read from the shared map are the strings cut from its text."""

from __future__ import annotations

import itertools
import mmap

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.parse.section_text import SectionText

#: Text of any width: ASCII, accents, CJK, astral characters and a lone surrogate.
_CHARS = st.one_of(
    st.characters(codec="utf-8"),
    st.sampled_from(["a", "\n", "é", "\u4e2d", "\U0001f600", "\ud800"]),
)


def _text_of(parts: list[str]) -> SectionText:
    bounds = [0, *itertools.accumulate(map(len, parts))]
    starts = list(range(len(parts)))
    return SectionText("".join(parts), starts, bounds, total=len(parts))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(_CHARS, max_size=3000), min_size=1, max_size=8))
def test_shared_sections_read_as_the_cut_strings(parts: list[str]) -> None:
    cut = _text_of(parts)
    before = [cut.section(n) for n in range(len(cut))]
    assert [s.text for s in before] == parts
    cut.share()
    assert [cut.section(n) for n in range(len(cut))] == before
    assert [cut.chars(n) for n in range(len(cut))] == [len(p) for p in parts]
    cut.forget()  # unmapped here, read back from the map
    assert [cut.section(n) for n in range(len(cut))] == before
    assert cut.whole() == "".join(parts)


def test_sharing_lets_the_string_go_and_forgetting_keeps_the_text() -> None:
    page = "x" * (mmap.PAGESIZE - 1) + "\n"
    cut = _text_of([page * 3, "é" * 5000, page])
    cut.share()
    assert cut._text is None and cut._map is not None  # the string is no longer held
    cut.forget()
    assert cut.section(1).text == "é" * 5000 and cut.section(0).text == page * 3
    cut.share()  # a second call changes nothing
    assert cut.whole() == page * 3 + "é" * 5000 + page
