"""One static HTML page per deck: every card's front and back, framed for the author.

Each side sits in ``<div class="card cardN">`` under the note type's own CSS,
as Anki's reviewer puts it in a ``<body class="card cardN">``; night mode
sets Anki's ``nightMode night_mode`` classes. Nothing loads from the network:
MathJax, when the deck needs it, is a file in the page's own folder.
"""

from __future__ import annotations

import hashlib
import html
import json
from dataclasses import dataclass
from importlib import resources

from ankigen.diagnostics import Diagnostic
from ankigen.model import Prose
from ankigen.package.note_types import card_css
from ankigen.preview.deck import PreviewCard

#: The page's MathJax, relative to the page (copied there by the preview command).
MATHJAX_SCRIPT = "mathjax/tex-svg-full.js"

# Anki's reviewer reads \(...\) and \[...\] only, and no $ or environments outside them.
_MATHJAX_CONFIG = {
    "tex": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": False,
        "processEnvironments": False,
        "processRefs": False,
    },
    "svg": {"fontCache": "global"},
    "options": {"enableMenu": False},
}


@dataclass(frozen=True)
class PageInput:
    """What one page shows: the deck, its cards, and how its formulas are typeset.

    ``mathjax``: True to typeset ``\\(...\\)`` with the page's MathJax, False to
    show TeX source (MathJax mode without a MathJax copy), None for image mode.
    """

    stem: str
    deck_name: str
    source: str
    cards: tuple[PreviewCard, ...]
    mathjax: bool | None
    #: The blocks on no card (format §15), shown in their place between the cards.
    prose: tuple[Prose, ...] = ()
    #: The errors of the items left out (format §19), each shown in its place.
    broken: tuple[Diagnostic, ...] = ()


def page_html(page: PageInput) -> str:
    """The whole HTML page of a deck; the same input gives the same bytes."""
    body = "\n".join(_entries(page))
    version = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
    title = html.escape(page.deck_name)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Preview: {title}</title>
<script>{_asset("problems.js")}</script>
<style>
{card_css()}
</style>
<style>
{_asset("preview.css")}
</style>
{_mathjax_head(page.mathjax)}
</head>
<body class="ag-preview" data-stem="{html.escape(page.stem)}" data-version="{version}"
      data-cards="{len(page.cards)}">
<header class="ag-toolbar">
<h1>{title}</h1>
<span>{_plural(len(page.cards), "card")} from <code>{html.escape(page.source)}</code></span>
<button type="button" id="ag-theme">Night mode</button>
<button type="button" id="ag-width">Phone width</button>
<span id="ag-status"></span>
{_math_note(page.mathjax)}
</header>
<main class="ag-deck">
{body}
</main>
<script>{_asset("preview.js")}</script>
</body>
</html>
"""


def version_script(stem: str, page: str) -> str:
    """``<stem>.version.js``: tells an open page whether it is out of date."""
    version = page.split('data-version="', 1)[1].split('"', 1)[0]
    return (
        "window.ankigenVersions = window.ankigenVersions || {};\n"
        f"window.ankigenVersions[{json.dumps(stem)}] = {json.dumps(version)};\n"
    )


def _entries(page: PageInput) -> list[str]:
    """Every card, with each prose block and broken item before the first card below it."""
    between = sorted(
        [(block.line, _prose_entry(page.source, block)) for block in page.prose]
        + [(error.line, _broken_entry(error)) for error in page.broken],
        key=lambda entry: entry[0],
    )
    entries: list[str] = []
    for number, card in enumerate(page.cards, start=1):
        while between and between[0][0] < card.line:
            entries.append(between.pop(0)[1])
        entries.append(_entry(number, card))
    entries += [entry for _, entry in between]
    return entries


def _broken_entry(error: Diagnostic) -> str:
    """An item left out of the deck for an error, with that error's message."""
    where = html.escape(error.location)
    return (
        f'<section class="ag-broken" data-source="{where}">'
        f'<div class="ag-entry-head"><span class="ag-where">{where}</span>'
        "<span>left out: on no card</span></div>"
        f'<pre class="ag-broken-message">{html.escape(error.format())}</pre></section>'
    )


def _prose_entry(source: str, block: Prose) -> str:
    """A block on no card, as its author wrote it, marked as prose."""
    where = html.escape(f"{source}:{block.line}")
    return (
        f'<section class="ag-prose" data-source="{where}">'
        f'<div class="ag-entry-head"><span class="ag-where">{where}</span>'
        "<span>prose: on no card</span></div>"
        f'<pre class="ag-prose-text">{html.escape(block.text)}</pre></section>'
    )


def _entry(number: int, card: PreviewCard) -> str:
    """One card: where it comes from, then its front and its back."""
    kind = f"cloze c{card.ordinal + 1}" if card.note_type.endswith("Cloze") else "reveal"
    sides = "".join(
        f'<div class="ag-side"><div class="ag-side-label">{label}</div>'
        f'<div class="card card{card.ordinal + 1}">{side}</div></div>'
        for label, side in (("Front", card.front), ("Back", card.back))
    )
    return (
        f'<section class="ag-entry" id="card-{number}" data-source="{html.escape(card.source)}">'
        f'<div class="ag-entry-head"><a href="#card-{number}">#{number}</a>'
        f'<span class="ag-where">{html.escape(card.source)}</span>'
        f"<span>{html.escape(card.note_type)}, {kind}</span>"
        f"<span>{html.escape(card.deck_name)}</span></div>"
        f'<div class="ag-sides">{sides}</div></section>'
    )


def _mathjax_head(mathjax: bool | None) -> str:
    if not mathjax:
        return ""
    config = json.dumps(_MATHJAX_CONFIG)
    # The startup promise resolves once every formula is typeset (or has failed).
    return (
        "<script>"
        f"window.MathJax = {config};"
        "window.MathJax.startup = {ready: function () {"
        " MathJax.startup.defaultReady();"
        " window.ankigenMathJax = MathJax.startup.promise; }};"
        "</script>\n"
        f'<script src="{MATHJAX_SCRIPT}"></script>'
    )


def _math_note(mathjax: bool | None) -> str:
    if mathjax is False:
        return (
            '<span class="ag-note">MathJax is not installed with ankigen here: formulas '
            "show as TeX source; Anki typesets them.</span>"
        )
    return ""


def _asset(name: str) -> str:
    return resources.files("ankigen").joinpath("templates", "preview", name).read_text("utf-8")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
