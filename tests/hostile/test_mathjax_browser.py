"""Real MathJax in a real browser: text delimiters stay text, our formulas typeset.

A deck in mathjax mode whose text holds Anki's delimiters in every spelling
(``\\\\(``, ``&#92;(``, inside a cloze, inside code) next to one real formula is
built and imported into Anki; the back of its card, as Anki renders it, is
loaded in headless Chromium with MathJax 3 configured as Anki configures it.
MathJax must typeset exactly the one formula, and the hostile TeX in the text
(``\\href``, ``\\style``) must stay visible, literally.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from tests import chromium
from tests.anki_support import fresh_collection, import_deck
from tests.reliability.support import run_cli

_CHROMIUM = chromium.CHROMIUM
_SPEC = importlib.util.find_spec("mathjax")
_MATHJAX = (
    Path(next(iter(_SPEC.submodule_search_locations or []))) / "static/mathjax/es5/tex-chtml.js"
    if _SPEC is not None
    else None
)

CONTENT = r"""---
math: mathjax
---
# MathJax

Q \\(\href{https://e.org/x}{x}\\) and &#92;[\style{color:red}{y}&#92;] ::: Only $a+b$; `\(c\)`.

The {{c1::\\(\href{https://example.org/z}{z}\\)}} and {{c2::w}}.
"""

#: Anki's MathJax settings (ts/mathjax in Anki's source), and a probe for what it typeset.
_PAGE = """<!doctype html><html><head><script>
window.MathJax = {{
  tex: {{displayMath: [["\\\\[", "\\\\]"]], processEscapes: false,
        processEnvironments: false, processRefs: false}},
  startup: {{pageReady: () => MathJax.startup.defaultPageReady().then(() => {{
    const found = [...document.querySelectorAll("section")].map(card => ({{
      typeset: card.querySelectorAll("mjx-container").length,
      links: [...card.querySelectorAll("[href]")].map(e => e.getAttribute("href")),
      text: card.innerText}}));
    document.body.setAttribute("data-probe", JSON.stringify(found));
  }})}}
}};
</script><script src="{mathjax}"></script></head><body>{cards}</body></html>"""


def _backs(tmp_path: Path) -> list[str]:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "delimiters.md").write_text(CONTENT, "utf-8")
    out = tmp_path / "out"
    result = run_cli(["build", str(tmp_path / "content"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    with fresh_collection() as collection:
        import_deck(collection, out / "delimiters.apkg")
        cards = [collection.get_card(c) for c in collection.find_cards("", order="c.ord")]
        return [re.sub(r"<style>.*?</style>", "", c.answer(), flags=re.S) for c in cards]


def _typeset(page: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = chromium.measure(page, 800, "--allow-file-access-from-files")
    return found


@pytest.mark.skipif(_CHROMIUM is None, reason="chromium not installed")
@pytest.mark.skipif(_MATHJAX is None or not _MATHJAX.is_file(), reason="MathJax files missing")
def test_mathjax_typesets_only_the_formulas_the_author_wrote_with_dollars(
    tmp_path: Path,
) -> None:
    assert _MATHJAX is not None
    backs = _backs(tmp_path)
    assert len(backs) == 3  # the reveal card, and cards 1 and 2 of the cloze
    page = tmp_path / "cards.html"
    cards = "".join(f"<section>{back}</section>" for back in backs)
    page.write_text(_PAGE.format(mathjax=_MATHJAX.as_uri(), cards=cards), "utf-8")
    reveal, *clozes = _typeset(page)
    assert reveal["typeset"] == 1
    assert reveal["links"] == []
    assert r"\(\href{https://e.org/x}{x}\)" in str(reveal["text"])
    assert r"\[\style{color:red}{y}\]" in str(reveal["text"])
    assert r"\(c\)" in str(reveal["text"])
    for cloze in clozes:
        assert cloze["typeset"] == 0
        assert cloze["links"] == []
        assert r"\(\href{https://example.org/z}{z}\)" in str(cloze["text"])
