"""A ``$`` inside a formula's braces (``$\\text{if $x>0$}$``) does not end the formula."""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import parse_text

HEAD = "---\ndeck: D\nkey: d\n---\n\n# D\n\n"


def _formulas(tmp_path: Path, answer: str) -> tuple[list[str], list[str]]:
    text = HEAD + f"What holds? ::: {answer} <!-- id: one -->\n"
    result = parse_text(text, tmp_path / "d.md", tmp_path, "d.md")
    assert result.deck is not None
    maths = [m.tex for item in result.deck.items for m in item.back.maths]
    return maths, [d.message for d in result.diagnostics]


@pytest.mark.parametrize(
    ("answer", "formulas"),
    [
        (r"It holds $\text{if $x>0$}$ only.", [r"\text{if $x>0$}"]),
        (r"$a$ and $\text{for $n$ steps} + b$ and $c$", ["a", r"\text{for $n$ steps} + b", "c"]),
        (r"$\text{cost \$5}$", [r"\text{cost \$5}"]),
        (r"$x$ costs \$5 and $y$", ["x", "y"]),  # dollar math's own reading, unchanged
        (r"$\{a\}$ and $b$", [r"\{a\}", "b"]),
    ],
)
def test_formulas_with_dollars_in_braces(tmp_path: Path, answer: str, formulas: list[str]) -> None:
    found, problems = _formulas(tmp_path, answer)
    assert found == formulas
    assert problems == []


def test_a_formula_left_open_is_still_an_error(tmp_path: Path) -> None:
    found, problems = _formulas(tmp_path, r"It holds $\text{if $x>0$} only.")
    assert r"\text{if $x>0$} only." not in found
    assert any("unclosed '$'" in p for p in problems)
