"""Fuzz: markdown from a grammar of hostile pieces never gives a card live markup.

Hypothesis writes items from links, images, alt and title text, clozes
(with and without hints, and hints written without brackets that Anki's
``[hint]`` would make commands), ``==marks==``, emphasis, code, formulas, raw
HTML (allowed elements with hostile attributes, refused ones), TeX macros and
runs of ``::``, braces, quotes, bracket commands (also as entities), combining
marks that Anki's NFC import composes with a tag's ``>`` (U+0338), and MathJax
delimiters. Each
document is built in mathjax mode (no drawing, so examples are fast); a build
may refuse its content, but never with a traceback, and every deck it writes
is imported into real Anki (which NFC-normalises every field: no field may
change), where every side of every card of every ordinal must pass the
allow-list judge. A second grammar holds only what Anki's import and cloze
drawing change (combining marks after tags, bracket-less hints, entity-encoded
brackets), which nothing refuses, so that nearly all its examples build.
``ANKIGEN_FUZZ_SCALE=30`` runs 30 times the
examples.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from anki.collection import Collection
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ankigen.commands.build import BuildOptions, run
from ankigen.model import MathMode
from tests.anki_support import fresh_collection
from tests.hostile.support import judged_sides

SCALE = int(os.environ.get("ANKIGEN_FUZZ_SCALE", "1"))
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000b4944415478da636000020000050001e9fadcd80000000049454e44ae426082"
)

#: Pieces of text an attacker strings together (no spaces: they stay one word).
PIECES = [
    "a",
    "b",
    "::",
    ":",
    ":::",
    "{",
    "}",
    "}",
    "{{c1:",
    '"',
    "'",
    "<",
    ">",
    "&#58;",
    "&#92;(",
    "\\\\(",
    "\\\\)",
    "\\\\[",
    "[sound:a.mp3]",
    "[anki:tts]",
    "[/anki:tts]",
    "[$]",
    "[/$]",
    "[latex]",
    "onload=alert(1)",
    "javascript:alert(1)",
    "<img src=x onerror=alert(1)>",
    # Combining marks that Anki's NFC import composes with a tag's "<", "=" or ">"
    # (U+0338 alone, or after marks NFC reorders it before), and others.
    "\u0338",
    "\u0338 autofocus onfocus=alert(1) ",
    "\u0301\u0338",
    "\u20d2",
    "e\u0301",
    # Brackets and dollars as entities (markdown decodes them; Anki reads the result).
    "&#91;sound:a.mp3&#93;",
    "&lbrack;latex&rbrack;",
    "&#x5B;anki:tts&#x5D;",
    "&#36;",
    "&#36;]x[/&#36;",
    "[an&#x212A;i:tts]",  # U+212A KELVIN SIGN: "K" once NFC-normalised
    # format §16: raw HTML that may pass the allow-list, and pieces of it
    "<br/>",
    "<b onclick=alert(1)>",
    "</b>",
    '<img src="img.png" onerror=alert(1)>',
    '<abbr title="{{c1::x}}">',
    "</abbr>",
]
#: Elements of the HTML allow-list (format §16) and attributes an attacker puts on them.
HTML_TAGS = ["b", "sub", "sup", "kbd", "abbr", "details", "summary", "mark", "span", "script"]
HTML_ATTRIBUTES = [
    "",
    'onclick="alert(1)"',
    'style="background:url(https://e.org)"',
    'title="[sound:a.mp3] {{c1::x}}"',
    "title='x\" onmouseover=\"alert(1)'",
]
words = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join)
#: Hints written without brackets: commands once Anki draws a hint as "[hint]".
BRACKETLESS = [
    "sound:boom.mp3",
    "SOUND:b.mp3",
    "anki:tts lang=en_US]hello[/anki:tts",
    "anki:play:q:0",
    "latex]\\input{x}[/latex",
    "$]x[/$",
    "&#36;]x[/&#36;",
    "&#36;&#36;]x[/&#36;&#36;",
    "/latex",
    "\u0338sound:a.mp3",
]
hints = st.one_of(
    words,
    st.sampled_from(BRACKETLESS),
    st.builds(lambda h, w: h + w, st.sampled_from(BRACKETLESS), words),
)
urls = st.sampled_from(
    ["https://example.org/", "x/onload=alert(1)//", "img.png", "javascript:alert(1)"]
).flatmap(lambda base: words.map(lambda tail: base + tail.replace(" ", "")))
titles = words.map(lambda text: text.replace("\\", "").replace('"', '\\"'))


def _markup(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Inline markup around ``children``: links, images, emphasis, code, formulas."""
    return st.one_of(
        st.builds(lambda t, u: f"[{t}]({u})", children, urls),
        st.builds(lambda t, u, ti: f'[{t}]({u} "{ti}")', children, urls, titles),
        st.builds(lambda t, ti: f'![{t}](img.png "{ti}")', children, titles),
        children.map(lambda t: f"*{t}*"),
        words.map(lambda t: f"`{t}`"),
        st.sampled_from(["$x^2$", "$\\frac{a}{b}$", "$\\RR$", "$\\wrap{\\RR}$"]),
        children.map(lambda t: f"$\\wrap{{{t}}}$"),
        st.builds(
            lambda tag, attribute, t: f"<{tag} {attribute}>{t}</{tag}>",
            st.sampled_from(HTML_TAGS),
            st.sampled_from(HTML_ATTRIBUTES),
            children,
        ),
        st.builds(lambda t: f'<img src="img.png" alt="{t}" onerror="alert(1)">', titles),
        # A mark right after the element's closing tag, or a formula image's ">".
        children.map(lambda t: f"**{t}**\u0338 onclick=alert(1)"),
        st.sampled_from(["$x^2$\u0338 onload=alert(1)", "![i](img.png)\u0338 onerror=alert(1)"]),
    )


def _cloze_markup(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """The same, plus clozes (with and without hints), marks and clozed formulas."""
    return st.one_of(
        _markup(children),
        st.builds(lambda n, t: f"{{{{c{n}::{t}}}}}", st.integers(1, 3), children),
        st.builds(lambda n, t, h: f"{{{{c{n}::{t}::{h}}}}}", st.integers(1, 3), children, hints),
        children.map(lambda t: f"=={t}=="),
        st.just("${{c2::k}}\\,\\eta$"),
    )


#: Format §17: macros every document may use; what they expand to meets the same judge.
MACROS = "---\nmacros:\n  \\RR: \\mathbb{R}\n  \\wrap: '\\left( #1 \\right)'\n---\n"

plain = st.lists(st.recursive(words, _markup, max_leaves=5), min_size=1, max_size=4)
clozed = st.lists(st.recursive(words, _cloze_markup, max_leaves=6), min_size=1, max_size=5)
item = st.one_of(
    st.builds(lambda text: f"The {{{{c1::x}}}} {' '.join(text)} end.", clozed),
    st.builds(lambda q, a: f"Q {' '.join(q)} ::: A {' '.join(a)}", plain, plain),
    st.builds(lambda t, e: f"{{{{c1::x}}}} {' '.join(t)} ::: {' '.join(e)}", clozed, plain),
)
document = st.lists(item, min_size=1, max_size=3).map(lambda items: "\n\n".join(items))


@pytest.fixture(scope="module")
def collection() -> Iterator[Collection]:
    """One collection for every example."""
    with fresh_collection() as shared:
        yield shared


#: A grammar of only what Anki's import and cloze drawing change (NFC, hints): text
#: of combining marks and entity-encoded brackets, tags right before a mark, clozes
#: with bracket-less hints. Nothing in it is refused, so nearly every example builds.
AFTER_ANKI_PIECES = ["a", " ", "\u0338", "\u0301\u0338", "\u20d2", "e\u0301", "=", ">",
                     "&#36;", "&#91;sound:a.mp3&#93;", "[an&#x212A;i:tts]", "::",
                     "onload=alert(1)"]  # fmt: skip
after_anki_words = st.lists(st.sampled_from(AFTER_ANKI_PIECES), min_size=1, max_size=5).map("".join)
after_anki_markup = st.one_of(
    after_anki_words,
    after_anki_words.map(lambda t: f"*x{t}*\u0338 onfocus=alert(1)"),
    after_anki_words.map(lambda t: f"**{t}**{t}"),
    st.builds(lambda t, h: f"{{{{c2::x{t}::{h}}}}}", after_anki_words, hints),
    st.builds(
        lambda t, h: f"{{{{c3::[l](https://e.org){t}::{h}}}}}\u0338", after_anki_words, hints
    ),
    after_anki_words.map(lambda t: f"$x^2${t}"),
    after_anki_words.map(lambda t: f"![i](img.png){t}"),
)
after_anki_document = st.lists(after_anki_markup, min_size=1, max_size=8).map(
    lambda parts: f"The {{{{c1::x}}}} {' '.join(parts)} end.\n\nQ {' '.join(parts)} ::: A"
)


def _settings() -> settings:
    return settings(
        max_examples=20 * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


@_settings()
@given(text=document)
def test_no_card_of_any_ordinal_holds_live_markup(collection: Collection, text: str) -> None:
    _judge_document(collection, f"{MACROS}# Fuzz\n\n{text}\n")


@_settings()
@given(text=after_anki_document)
def test_no_card_holds_live_markup_after_anki_normalises_and_draws_hints(
    collection: Collection, text: str
) -> None:
    _judge_document(collection, f"# After Anki\n\n{text}\n")


def _judge_document(collection: Collection, source: str) -> None:
    """Build ``source`` (mathjax mode); every card of a deck it writes must pass the judge."""
    with tempfile.TemporaryDirectory(prefix="ankigen-fuzz-") as folder:
        root = Path(folder)
        (root / "content").mkdir()
        (root / "content" / "img.png").write_bytes(PNG)
        (root / "content" / "fuzz.md").write_text(source, "utf-8")
        options = BuildOptions(
            paths=(root / "content",),
            out_dir=root / "out",
            figures_dir=root / "figures",
            math=MathMode.MATHJAX,
        )
        result = run(options)
        if result.failed:
            event("refused")
            return  # refused content: the CLI tests prove a refusal never crashes
        event("built")
        apkg = root / "out" / "fuzz.apkg"
        for side in judged_sides(collection, apkg, mathjax=True):
            assert side.problems == (), f"{side.label}: {side.problems}\n{source}"
