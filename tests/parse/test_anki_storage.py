"""Fields as Anki stores them (NFC on import) and hints as Anki draws them (``[hint]``)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ankigen.package.anki_cards import _tokens, cloze_ordinals, reveal_clozes
from ankigen.syntax import anki_markup

MARK = "\u0338"  # COMBINING LONG SOLIDUS OVERLAY: ">" + MARK is "≯" in NFC


@pytest.mark.parametrize(
    ("field", "stored"),
    [
        (f"<em>{MARK} onfocus=x</em>", "<em>&#824; onfocus=x</em>"),
        # NFC reorders U+0338 (class 1) before U+0301 (class 230): both are guarded.
        (f"<b>\u0301{MARK}x</b>", "<b>&#769;&#824;x</b>"),
        (f'<img alt="a">{MARK} onload=x', '<img alt="a">&#824; onload=x'),
        ("e\u0301 <b>t</b>", "\u00e9 <b>t</b>"),  # composed text stays text
        ("a=\u0338b", "a=&#824;b"),
        # A decoded entity NFC turns into ASCII cannot complete a command.
        ("[an\u212ai:tts]x[/anki:tts]", "&#91;anKi:tts]x[/anki:tts]"),
        ("plain <b>ascii</b>", "plain <b>ascii</b>"),
    ],
)
def test_fields_are_written_as_anki_stores_them(field: str, stored: str) -> None:
    assert anki_markup.as_anki_stores(field) == stored


_PIECES = ["<b>", "</b>", ">", "<", "=", "a", "e", MARK, "\u0301", "\u20d2", "\u212a", "\u1100"]


@given(st.lists(st.sampled_from([*_PIECES, "\u1161"])).map("".join))
def test_anki_normalisation_changes_no_field_written_so(field: str) -> None:
    stored = anki_markup.as_anki_stores(field)
    assert unicodedata.normalize("NFC", stored) == stored
    assert not set("\u226e\u2260\u226f") & set(stored)  # no "<", "=" or ">" composed away


@pytest.mark.parametrize(
    ("field", "inert"),
    [
        ("{{c1::x::sound:boom.mp3}}", "{{c1::x::&#115;ound:boom.mp3}}"),
        ("{{c1::x::SOUND:b.mp3}}", "{{c1::x::&#83;OUND:b.mp3}}"),
        ("{{c1::x::anki:tts]hi[/anki:tts}}", "{{c1::x::&#97;nki:tts]hi[/anki:tts}}"),
        ("{{c1::x::latex]y[/latex}}", "{{c1::x::&#108;atex]y[/latex}}"),
        ("{{c1::x::/latex}}", "{{c1::x::&#47;latex}}"),
        ("{{c1::x::$]y[/$}}", "{{c1::x::&#36;]y&#91;/$}}"),
        ("{{c1::x::a[sound:b.mp3}}", "{{c1::x::a&#91;sound:b.mp3}}"),
        # Only the last "::" run of a cloze's text sets the hint; text outside clozes is no hint.
        ("{{c1::a {{c2::b::sound:x}} c::anki:}}", "{{c1::a {{c2::b::&#115;ound:x}} c::&#97;nki:}}"),
        ("a::sound:x {{c1::y}}", "a::sound:x {{c1::y}}"),
        ("{{c1::x::an ordinary hint}}", "{{c1::x::an ordinary hint}}"),
        # An opener past 0xFFFF is text to Anki: no cloze, no hint.
        ("{{c65536::x::sound:y}}", "{{c65536::x::sound:y}}"),
    ],
)  # fmt: skip
def test_hints_are_inert_once_anki_wraps_them_in_brackets(field: str, inert: str) -> None:
    assert anki_markup.inert_hints(field) == inert


@given(st.lists(st.sampled_from(["{{c1::", "{{c2::", "{{c99999::", "}}", "::", "x", "sound:"]))
       .map("".join))  # fmt: skip
def test_the_field_is_cut_where_anki_cuts_it(field: str) -> None:
    runs = anki_markup.anki_cloze_runs(field)
    assert "".join(text for text, _ in runs) == field
    # Text and markers alternate: the same cut as the card renderer's tokens.
    texts, markers = [t for t, _ in runs[0::2] if t], [m for m, _ in runs[1::2]]
    tokens = _tokens(field)
    assert [t for t in tokens if isinstance(t, str)] == texts
    assert [t is None for t in tokens if not isinstance(t, str)] == [m == "}}" for m in markers]


def test_cloze_numbers_of_thousands_of_digits_are_text_not_a_traceback() -> None:
    assert anki_markup.anki_cloze_number("9" * 5000) is None
    assert anki_markup.anki_cloze_number("0" * 5000 + "7") == 7


#: The commands Anki reads in a rendered side: sound and TTS tags, LaTeX (case-insensitive).
_ANKI_COMMAND = re.compile(r"\[sound:|\[anki:|\[latex\]|\[\$\]|\[\$\$\]", re.IGNORECASE)


@given(
    st.lists(
        st.sampled_from(["{{c1::", "{{c2::", "}}", "::", "sound:", "SOUND:", "anki:", "tts",
                         "latex", "/latex", "]", "[", "$", "/", "x", " ", "&#36;"]),
        max_size=14,
    ).map("".join)
)  # fmt: skip
def test_no_card_of_any_ordinal_draws_a_hint_into_a_command(field: str) -> None:
    # Text reaches the field with its own bracket commands inert (anki_markup.inert).
    written = anki_markup.inert_hints(anki_markup.inert_commands(field))
    for ordinal in cloze_ordinals(written):
        front = reveal_clozes(written, ordinal, question=True)
        assert _ANKI_COMMAND.search(front) is None, (written, front)
