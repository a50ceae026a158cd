"""Field HTML to markdown: examples, and a round trip through ankigen's own renderer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.importers.html_to_markdown import field_to_markdown
from tests.importers.html_support import answer_html, question_html, shown

EXAMPLES = [
    ("<b>bold</b> and <i>it</i>", "**bold** and *it*"),
    ("x*y_z [a] $5 a==b &lt;tag&gt; &amp;lt;", "x\\*y\\_z &#91;a] \\$5 a=\\=b \\<tag\\> \\&lt;"),
    ("line1<br>line2<div>line3</div>", "line1\\\nline2\n\nline3"),
    ("<ul><li>a</li><li>b <b>c</b></li></ul><p>para</p>", "- a\n- b **c**\n\npara"),
    ("<ol><li>one<ul><li>inner</li></ul></li></ol>", "1. one\n\n   - inner"),
    (r"Mass \(E=mc^2\) and \[x^2\]", "Mass $E=mc^2$ and $$x^2$$"),
    ("{{c1::Paris::city}} is <u>the</u> capital", "{{c1::Paris::city}} is <u>the</u> capital"),
    (
        '<abbr title="HyperText">HTML</abbr> H<sub>2</sub>O',
        '<abbr title="HyperText">HTML</abbr> H<sub>2</sub>O',
    ),
    ("# not a heading<br>1. not a list", "\\# not a heading\\\n1\\. not a list"),
    ("<s>gone</s> <code>a*b</code>", "~~gone~~ `a*b`"),
    ('<a href="https://example.org/x(1)">site</a>', "[site](https://example.org/x%281%29)"),
    ("<pre>def f():\n    return 1</pre>", "```\ndef f():\n    return 1\n```"),
    ("<h2>Heading</h2>text", "**Heading**\n\ntext"),
    ("<table><tr><td>a<br>b</td></tr></table>", "| a<br>b |\n|---|"),
    (
        "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2|3</td></tr></table>",
        "| a | b |\n|---|---|\n| 1 | 2\\|3 |",
    ),
]


@pytest.mark.parametrize(("html", "markdown"), EXAMPLES)
def test_html_becomes_markdown(html: str, markdown: str) -> None:
    converted = field_to_markdown(html)
    assert converted.markdown == markdown
    assert converted.lost == ()


def test_escaped_text_draws_no_warning_from_the_parser() -> None:
    from pathlib import Path

    from ankigen.parse import parse_text

    markdown = field_to_markdown("See [1], a*b, $5 and a==b; x_y [note].").markdown
    result = parse_text(f"Q? ::: {markdown} <!-- id: q -->\n", Path("x.md"), Path("."), "x.md")
    assert [d.message for d in result.diagnostics] == []


def test_images_are_named_for_copying_and_foreign_sources_reported() -> None:
    converted = field_to_markdown('<img src="a b.png" alt="pic"> <img src="http://x.org/y.png">')
    assert converted.markdown == "![pic](<a b.png>)"
    assert converted.images == ("a b.png",)
    assert converted.lost == ("image 'http://x.org/y.png' (not a media file of the deck)",)


@pytest.mark.parametrize(
    "src", ["../etc/passwd", "/abs.png", "a/b.png", "data:image/png;base64,AA", ".hidden"]
)
def test_an_image_outside_the_media_folder_is_never_referenced(src: str) -> None:
    converted = field_to_markdown(f'<img src="{src}">')
    assert (converted.markdown, converted.images) == ("", ())
    assert len(converted.lost) == 1


def test_scripts_styles_and_handlers_are_dropped_and_named() -> None:
    html = (
        '<p onclick="x()">Hi<script>alert(1)</script><style>p{}</style></p><iframe src=x></iframe>'
    )
    converted = field_to_markdown(html)
    assert converted.markdown == "Hi"
    assert converted.lost == (
        "<script> and its content",
        "<style> and its content",
        "<iframe> and its content",
    )


def test_a_sound_is_reported_not_shown() -> None:
    converted = field_to_markdown("Listen [sound:a.mp3]")
    assert (converted.markdown, converted.lost) == ("Listen", ("sound '[sound:a.mp3]'",))


def test_a_question_is_one_paragraph() -> None:
    converted = field_to_markdown("<div>a</div><div>b</div><ul><li>c</li></ul>", one_paragraph=True)
    assert converted.markdown == "a\\\nb\\\n\\- c"
    assert converted.lost == ("a list in a question, written as lines",)


def test_deep_nesting_is_flattened_not_a_crash() -> None:
    converted = field_to_markdown("<span>" * 5000 + "deep" + "</span>" * 5000)
    assert converted.markdown == "deep"
    assert converted.lost == ("elements nested too deeply (flattened)",)


def test_ankigen_formula_images_become_their_tex() -> None:
    html = (
        'Rate <img class="ag-math" src="m.svg" alt="&#92;eta_&#123;new&#125;"> and'
        '<img class="ag-math ag-display" src="d.svg" alt="x^2">'
    )
    assert field_to_markdown(html).markdown == r"Rate $\eta_{new}$ and$$x^2$$"


def test_an_ankigen_clozed_formula_gets_its_markers_back() -> None:
    back, gap = r"\eta = k \cdot b", r"\eta = {[\ldots]} \cdot b"
    hinted = r"\eta = k \cdot {[\text{base}]}"
    html = (
        f'<span class="ag-mc">{{{{c1::<img class="ag-math" alt="{back}">::'
        f'<img class="ag-math" alt="{gap}">}}}}{{{{c2::<img class="ag-math" alt="{back}">::'
        f'<img class="ag-math" alt="{hinted}">}}}}'
        f'<span class="ag-mc-all"><img class="ag-math" alt="{back}"></span></span>'
    )
    assert field_to_markdown(html).markdown == r"$\eta = {{c1::k}} \cdot {{c2::b::base}}$"


# -- round trip: HTML -> markdown -> ankigen's HTML shows the same -------------------------

_ALNUM = st.sampled_from("abcXYZ019")
_WORD = st.builds(
    lambda first, middle, last: first + middle + last,
    _ALNUM,
    st.text(alphabet=st.sampled_from("abcXYZ019*_[]<>&|$#=+-!`~\\'\"().,?"), max_size=4),
    _ALNUM,
)
_PLAIN = st.text(alphabet=st.sampled_from("abcXYZ019*_[]<>&|$#=+-!~\\'\"().,? "), max_size=12)


def _words(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(children, min_size=1, max_size=4).map(" ".join)


_EMPH_TEXT = _words(_WORD)
_TEX = st.text(alphabet=st.sampled_from("xyab12+=^_"), min_size=1, max_size=6).filter(
    lambda t: t[-1] not in "^_"
)
_IMAGE = st.tuples(
    st.sampled_from(["a.png", "b c.png", "fig(1).svg", "50%.png", "a%20b.png"]),
    st.sampled_from(["", "a map", "x*y"]),
).map(lambda t: f'<img src="{t[0]}" alt="{t[1]}">')
_INLINE = st.one_of(
    _TEX.map(lambda t: f"\\({t}\\)"),
    _IMAGE,
    _PLAIN.map(lambda t: t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")),
    _EMPH_TEXT.map(lambda t: f"<b>{_esc(t)}</b>"),
    _EMPH_TEXT.map(lambda t: f"<i>{_esc(t)}</i>"),
    _EMPH_TEXT.map(lambda t: f"<i>x <b>{_esc(t)}</b></i>"),
)
_LINE = st.tuples(_EMPH_TEXT, st.lists(_INLINE, max_size=3)).map(
    lambda t: " ".join([_esc(t[0]), *t[1]])
)
_PARAGRAPH = st.lists(_LINE, min_size=1, max_size=3).map("<br>".join)
_LIST = st.tuples(st.sampled_from(["ul", "ol"]), st.lists(_LINE, min_size=1, max_size=3)).map(
    lambda t: f"<{t[0]}>" + "".join(f"<li>{x}</li>" for x in t[1]) + f"</{t[0]}>"
)
_FIELD = st.lists(
    st.one_of(
        _PARAGRAPH.map(lambda p: f"<p>{p}</p>"), _PARAGRAPH.map(lambda p: f"<div>{p}</div>"), _LIST
    ),
    min_size=1,
    max_size=3,
).map("".join)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _nonblank(html: str) -> bool:
    return bool(shown(html)) and all(
        shown(part) for part in html.replace("<li>", "\x00").split("\x00")[1:]
    )


@settings(max_examples=150, deadline=None)
@given(_FIELD.filter(_nonblank))
def test_round_trip_of_an_answer_shows_the_same(html: str) -> None:
    markdown = field_to_markdown(html).markdown
    assert shown(answer_html(markdown)) == shown(html), markdown


@settings(max_examples=100, deadline=None)
@given(_PARAGRAPH.filter(lambda h: bool(shown(h))))
def test_round_trip_of_a_question_shows_the_same(html: str) -> None:
    markdown = field_to_markdown(html, one_paragraph=True).markdown
    assert shown(question_html(markdown)) == shown(html), markdown
