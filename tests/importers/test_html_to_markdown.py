"""Field HTML to markdown: examples, and a round trip through ankigen's own renderer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.importers.html_to_markdown import field_to_markdown
from tests.importers.html_support import answer_html, question_html, shown

#: (field HTML, its markdown; None: the same text, kept as inline HTML)
EXAMPLES: list[tuple[str, str | None]] = [
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
    ("<h2>Heading</h2>text", "### Heading\n\ntext"),
    ("<h1>A</h1><h3>B #</h3><h6>C</h6>", "### A\n\n##### B \\#\n\n###### C"),
    (
        "<details><summary>S <b>t</b> &lt;</summary><p>body <b>x</b></p></details>",
        "<details>\n<summary>S <b>t</b> &lt;</summary>\n\nbody **x**\n\n</details>",
    ),
    ("<kbd>Ctrl</kbd>+<small>s</small> <mark>m</mark> x<sup>2</sup>", None),
    ("<table><tr><td>a<br>b</td></tr></table>", "| a<br>b |\n|---|"),
    (
        "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2|3</td></tr></table>",
        "| a | b |\n|---|---|\n| 1 | 2\\|3 |",
    ),
]


@pytest.mark.parametrize(("html", "markdown"), EXAMPLES)
def test_html_becomes_markdown(html: str, markdown: str | None) -> None:
    converted = field_to_markdown(html)
    assert converted.markdown == (html if markdown is None else markdown)
    assert converted.lost == ()


def test_escaped_text_draws_no_warning_from_the_parser() -> None:
    from pathlib import Path

    from ankigen.parse import parse_text

    markdown = field_to_markdown("See [1], a*b, $5 and a==b; x_y [note]; a:::b, c ::: d").markdown
    assert markdown.endswith("a\\:::b, c \\::: d")
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


def test_a_heading_in_a_question_is_a_bold_line_and_details_its_lines() -> None:
    html = "<h2>Title</h2><details><summary>more</summary>text</details>"
    converted = field_to_markdown(html, one_paragraph=True)
    assert converted.markdown == "**Title**\\\nmore\\\ntext"
    assert converted.lost == ("a <details> in a question, written as lines",)


def test_what_a_summary_cannot_hold_is_reported() -> None:
    converted = field_to_markdown(
        '<details><summary><img src="a.png"> {{c1::x}}</summary></details>'
    )
    assert converted.markdown == "<details>\n<summary>{{c1::x}}</summary>\n\n</details>"
    assert converted.lost == (
        "the markup of <img> in a <summary> (its text is kept)",
        "a cloze inside a <summary> (shown as text)",
    )


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
#: Text Anki shows as written: a `\(` or `\[` in a field opens MathJax, so not those.
_PLAIN = st.text(
    alphabet=st.sampled_from("abcXYZ019*_[]<>&|$#=+-!~\\'\"().,? "), max_size=12
).filter(lambda t: not any(delimiter in t for delimiter in ("\\(", "\\)", "\\[", "\\]")))


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attribute(text: str) -> str:
    return _esc(text).replace('"', "&quot;")


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
#: Format 16's inline elements, which stay HTML, and an ``<abbr>``'s title.
_KEPT_TAG = st.sampled_from(["u", "sub", "sup", "mark", "small", "kbd"])
# A title that starts or ends with ' loses it in parse/inline_html.read_tag (its quote strip).
_TITLE = st.text(alphabet=st.sampled_from("ab Z1&<>\"'*_$[]|"), min_size=1, max_size=8).filter(
    lambda t: not t.startswith("'") and not t.endswith("'")
)
_KEPT = st.one_of(
    st.tuples(_KEPT_TAG, _EMPH_TEXT).map(lambda t: f"<{t[0]}>{_esc(t[1])}</{t[0]}>"),
    st.tuples(_ALNUM, _KEPT_TAG, _ALNUM).map(lambda t: f"H{t[0]}<{t[1]}>{t[2]}</{t[1]}>O"),
    st.tuples(_TITLE, _EMPH_TEXT).map(
        lambda t: f'<abbr title="{_attribute(t[0])}">{_esc(t[1])}</abbr>'
    ),
)
_INLINE = st.one_of(
    _KEPT,
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
#: A heading of level 1 to 4: the importer writes ``###`` and deeper, levels kept apart.
_HEADING = st.tuples(st.integers(1, 4), _LINE).map(lambda t: f"<h{t[0]}>{t[1]}</h{t[0]}>")
#: A table whose cells hold line breaks (``<br>``, format 16) and inline markup.
_TABLE = st.lists(
    st.lists(_PARAGRAPH, min_size=2, max_size=2).map(
        lambda cells: "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
    ),
    min_size=1,
    max_size=3,
).map(lambda rows: "<table>" + "".join(rows) + "</table>")
_SUMMARY = st.lists(
    st.one_of(_EMPH_TEXT.map(_esc), _KEPT, _EMPH_TEXT.map(lambda t: f"<b>{_esc(t)}</b>")),
    min_size=1,
    max_size=3,
).map(" ".join)
_SIMPLE_BLOCK = st.one_of(
    _PARAGRAPH.map(lambda p: f"<p>{p}</p>"), _PARAGRAPH.map(lambda p: f"<div>{p}</div>"), _LIST
)
_DETAILS = st.tuples(_SUMMARY, st.lists(_SIMPLE_BLOCK, min_size=1, max_size=2)).map(
    lambda t: f"<details><summary>{t[0]}</summary>{''.join(t[1])}</details>"
)
_FIELD = st.lists(st.one_of(_SIMPLE_BLOCK, _HEADING, _TABLE, _DETAILS), min_size=1, max_size=3).map(
    "".join
)


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


def test_a_summary_keeps_the_spaces_of_a_title() -> None:
    """The summary is put on one line; an attribute's value is not squeezed with it."""
    html = '<details><summary> <abbr title="  ">aa</abbr>\n  b </summary><p>c</p></details>'
    markdown = field_to_markdown(html).markdown
    assert '<summary><abbr title="  ">aa</abbr> b</summary>' in markdown
    assert shown(answer_html(markdown)) == shown(html)
