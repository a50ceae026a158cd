"""Each parsed formula knows the 1-based column of its opening ``$`` (issue 14)."""

from __future__ import annotations

from pathlib import Path

from ankigen.model import Deck, Math
from ankigen.parse import parse_text

SOURCE = r"""# D

What is $x$ beside $x$? ::: It costs \$y, so $y = 5$.

Here: $$a$$ and $b$ ::: it is

$$
c = 1
$$

Text {{c1::with $z$}} inside.
"""


def _maths(tmp_path: Path) -> list[list[Math]]:
    deck = parse_text(SOURCE, tmp_path / "d.md", tmp_path, "d.md").deck
    assert isinstance(deck, Deck)
    return [[*item.front.maths, *item.back.maths] for item in deck.items]


def _places(maths: list[Math]) -> list[tuple[str, int, int]]:
    return [(m.tex, m.line, m.column) for m in maths]


def test_a_repeated_formula_and_an_escaped_dollar_each_get_their_own_column(
    tmp_path: Path,
) -> None:
    first, _, _ = _maths(tmp_path)
    assert _places(first) == [("x", 3, 9), ("x", 3, 20), ("y = 5", 3, 46)]


def test_display_formulas_inline_and_as_a_block(tmp_path: Path) -> None:
    _, second, _ = _maths(tmp_path)
    assert _places(second) == [("a", 5, 7), ("b", 5, 17), ("c = 1", 7, 1)]


def test_a_formula_inside_a_cloze(tmp_path: Path) -> None:
    _, _, third = _maths(tmp_path)
    assert _places(third) == [("z", 11, 17)]


def test_formulas_whose_macros_were_expanded_keep_their_own_columns() -> None:
    text = "---\nmacros:\n  \\RR: \\mathbb{R}\n---\n# F\n\nQ ::: $\\RR$ and $\\RR^2$ and $x$.\n"
    deck = parse_text(text, Path("f.md"), Path("."), "f.md").deck
    assert deck is not None
    assert [m.column for m in deck.items[0].back.maths] == [7, 17, 29]
