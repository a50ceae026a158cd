"""After any edit, a build from warm caches equals a cold build: deck bytes and diagnostics.

Each edit is applied to a deck built once (so its section cache and proven
checks are warm), then the deck is built again from those caches and, into a
fresh folder, from nothing. Both builds must write the same bytes and report
the same diagnostics (codes, lines and columns included) and counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.cache import Store, stored_values
from ankigen.commands import build
from ankigen.diagnostics import Diagnostic
from ankigen.model import MathMode

DECK = """\
---
tags: [warm]
prompt:
  Spot the error: Find the mistake
---

# Warm deck

Prose before the first section: no card.

## Speed

What is the speedup on $k$ devices? ::: $S = k$, about 3.5x on 4 devices. <!-- id: speedup -->

```check
cite $S = k$ # Amdahl with no serial part
assert `3.5x` ~= 3.5 within 1%
```

How many bytes in a float32? ::: 4 bytes, see [the spec](ftp://example.org/spec).

## Spot the error

"Doubling the sample size halves the standard error." ::: It divides it by √2.

Written as \\(x\\) here ::: a MathJax delimiter, shown as written.

> [!recall] Vocabulary
> Substrate ::: the molecule an enzyme acts on.
>
> The {{c1::Michaelis constant}} is at half the maximum rate.

## Clozes

The {{c1::gradient}} flows backwards through {{c2::128}} layers.

```check
assert `128` == 2^7
```

Question with two colons :: a near miss.
"""

EDITS = {
    "answer": ("4 bytes, see", "4 bytes (32 bits), see"),
    "formula": ("$S = k$, about", "$S = k + 0$, about"),
    "heading": ("## Clozes", "## Cloze deletions"),
    "title": ("# Warm deck", "# Warm deck, renamed"),
    "front matter tags": ("tags: [warm]", "tags: [warm, edited]"),
    "front matter subdecks": ("tags: [warm]\n", "tags: [warm]\nsubdecks: true\n"),
    "front matter key": ("tags: [warm]\n", "tags: [warm]\nkey: other-key\n"),
    "prompt": ("Spot the error: Find the mistake", "Spot the error: none"),
    "line added above": ("Prose before", "A new line.\n\nProse before"),
    "link reference definition": (
        "Prose before the first section: no card.",
        "Prose before the first section: no card.\n\n[spec]: https://example.org",
    ),
    "link reference used": ("see [the spec](ftp://example.org/spec)", "see [spec]"),
    "check block edited": ("assert `128` == 2^7", "assert `128` == 2^(6+1)"),
    "check block now fails": ("assert `128` == 2^7", "assert `128` == 2^8"),
    "check quotes a gone claim": ("through {{c2::128}} layers", "through {{c2::64}} layers"),
    "item removed": ("How many bytes in a float32? ::: 4 bytes", "How many bytes"),
    "section joined": ("\n## Clozes\n", "\nSee also:\n"),
    "fence left open": ("assert `128` == 2^7\n```\n", "assert `128` == 2^7\n"),
}


def _options(project: Path, out: str) -> build.BuildOptions:
    return build.BuildOptions(
        paths=(project / "content",),
        out_dir=project / out,
        figures_dir=project / "figures",
        math=MathMode.MATHJAX,
    )


Outcome = tuple[tuple[Diagnostic, ...], build.BuildSummary, bytes | None]


def _outcome(project: Path, out: str) -> Outcome:
    result = build.run(_options(project, out))
    deck = project / out / "deck.apkg"
    written = deck.read_bytes() if result.written else None
    return result.diagnostics, result.summary, written


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "content").mkdir()
    (tmp_path / "figures").mkdir()
    (tmp_path / "content" / "deck.md").write_text(DECK, "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return tmp_path


@pytest.mark.parametrize("name", list(EDITS))
def test_a_warm_build_after_an_edit_equals_a_cold_one(project: Path, name: str) -> None:
    first = _outcome(project, "out")
    assert first[2] is not None, first[0]  # the unedited deck builds
    assert stored_values(Store(project / "out" / ".cache"), "sections", "deck")
    assert stored_values(Store(project / "out" / ".cache"), "checks", "deck")
    old, new = EDITS[name]
    source = project / "content" / "deck.md"
    text = source.read_text("utf-8")
    assert old in text
    source.write_text(text.replace(old, new, 1), "utf-8")
    warm = _outcome(project, "out")
    cold = _outcome(project, "cold")
    assert warm == cold
    again = _outcome(project, "out")  # and once more, from the caches this build left
    assert again[0] == cold[0] and again[2] in (cold[2], None)


def test_the_deck_reports_what_the_edits_are_about(project: Path) -> None:
    diagnostics, summary, written = _outcome(project, "out")
    codes = {d.code for d in diagnostics}
    # The deck holds a refused link, a MathJax delimiter and a near miss: warnings that
    # must come back from the cache exactly (codes, lines, columns).
    assert {"AG201", "AG521", "AG600", "AG603"} <= codes, codes
    assert all(d.column > 0 for d in diagnostics if d.code in ("AG600", "AG603"))
    assert written is not None and summary.checks == 2
