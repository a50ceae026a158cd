"""How field HTML is written so Anki reads in it only the clozes the author wrote."""

from __future__ import annotations

from ankigen.parse.fragment import render_inline
from ankigen.parse.markdown import content_parser
from ankigen.syntax import anki_markup


def _inline(source: str) -> str:
    children = content_parser().parseInline(source)[0].children or []
    return render_inline(children, 1).html


def test_attribute_values_hold_nothing_anki_reads() -> None:
    escaped = anki_markup.attribute('a::b {{c1::x}} [sound:y.mp3] \\( "q"')
    assert escaped == (
        "a&#58;&#58;b &#123;&#123;c1&#58;&#58;x&#125;&#125; &#91;sound&#58;y.mp3&#93; "
        "&#92;( &quot;q&quot;"
    )


def test_bracket_commands_and_mathjax_delimiters_in_text_are_inert() -> None:
    assert anki_markup.inert("[sound:a.mp3] [LaTeX]x[/latex] [$]y[/$] [b]") == (
        "&#91;sound:a.mp3] &#91;LaTeX]x&#91;/latex] &#91;$]y&#91;/$] [b]"
    )
    assert anki_markup.inert("\\(x\\) \\alpha") == (
        '<span class="ag-tex">\\</span>(x<span class="ag-tex">\\</span>) \\alpha'
    )


def test_links_with_colons_stay_whole_inside_a_cloze() -> None:
    assert _inline('{{c1::[std::vector](https://e.org/a::b "t::u")::hint}}') == (
        '{{c1::<a href="https&#58;//e.org/a&#58;&#58;b" title="t&#58;&#58;u">std:&#58;vector</a>'
        "::hint}}"
    )


def test_a_hint_separator_at_the_cloze_level_is_kept() -> None:
    assert _inline("**{{c1::a::b}}** {{c2::*x::y*::z}}") == (
        "<strong>{{c1::a::b}}</strong> {{c2::<em>x:&#58;y</em>::z}}"
    )


def test_only_web_links_keep_their_target() -> None:
    assert _inline("[a](ms-msdt:x) [b](mailto:me@e.org) [c](notes/x)") == (
        '<a>a</a> <a href="mailto&#58;me@e.org">b</a> <a href="notes/x">c</a>'
    )
