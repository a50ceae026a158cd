"""Each kind of render problem has its own code (docs/format.md 13.2).

Formulas, images and figures once shared one code per family; these pin the
code of each kind of message, one scenario per case.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.model import MathMode
from ankigen.render import Failed, MediaCache, Place, draw_figure, ship_image
from tests.render.formula_support import formula_diagnostics

HERE = Place("deck.md", 3)


def _formula_codes(tmp_path: Path, tex: str, math: MathMode) -> list[tuple[str, str]]:
    found = formula_diagnostics(tmp_path, f"Q ::: ${tex}$", math)
    return [(d.code, d.message) for d in found]


@pytest.mark.parametrize(
    ("tex", "code", "says"),
    [
        (r"\frac{a}{b", "AG302", "unbalanced braces: a '{' is never closed"),
        (r"a}", "AG302", "unbalanced braces: a '}' has no matching '{'"),
        (r"\begin{matrix} a \end{cases}", "AG303", r"\begin{matrix} is closed by \end{cases}"),
        (r"\end{matrix}", "AG303", r"\end{matrix} without \begin{matrix}"),
        (r"\begin x", "AG303", r"\begin without an environment name in braces"),
        (" ", "AG304", "empty formula"),
        ("x" * 4001, "AG612", "formula is too long"),
        ("{" * 41 + "x" + "}" * 41, "AG613", "formula nests braces 41 deep"),
        (r"\href{x}{y}", "AG601", r"\href is not allowed"),
    ],
)
def test_a_formula_that_may_not_reach_a_card(
    tmp_path: Path, tex: str, code: str, says: str
) -> None:
    [(found, message)] = _formula_codes(tmp_path, tex, MathMode.MATHJAX)
    assert (found, says in message) == (code, True), message


def test_a_formula_that_cannot_be_drawn_is_ag301(tmp_path: Path) -> None:
    [(code, message)] = _formula_codes(tmp_path, r"x^2^3", MathMode.IMAGE)
    assert code == "AG301"
    assert message == "formula $x^2^3$ cannot be drawn: Double exponent: use braces to clarify"


def _image_code(tmp_path: Path, target: str) -> tuple[str, str]:
    root = tmp_path / "content"
    root.mkdir(exist_ok=True)
    result = ship_image(target, root / "deck.md", root, MediaCache(tmp_path / "cache"), place=HERE)
    assert isinstance(result, Failed)
    return result.diagnostic.code, result.diagnostic.message


@pytest.mark.parametrize(
    ("target", "code", "message"),
    [
        ("missing.png", "AG320", "image file 'missing.png' not found"),
        ("https://example.org/a.png", "AG321", "image 'https://example.org/a.png' is a URL"),
        ("", "AG322", "image has no path"),
        ("/etc/a.png", "AG323", "image path '/etc/a.png' is absolute"),
        ("../a.png", "AG324", "image path '../a.png' leaves the content folder"),
        ("notes.txt", "AG325", "image 'notes.txt' is not a supported image type"),
        ("loop.png", "AG611", "image 'loop.png' is a symbolic link that loops"),
    ],
)
def test_an_image_that_cannot_be_shipped(
    tmp_path: Path, target: str, code: str, message: str
) -> None:
    content = tmp_path / "content"
    content.mkdir()
    (content / "notes.txt").write_text("not an image", "utf-8")
    (tmp_path / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (content / "loop.png").symlink_to(content / "loop.png")
    found, says = _image_code(tmp_path, target)
    assert (found, says.startswith(message)) == (code, True), says


def test_an_unknown_figure_is_ag331(tmp_path: Path) -> None:
    result = draw_figure("nowhere", tmp_path, {}, "", "svg", MediaCache(tmp_path), place=HERE)
    assert isinstance(result, Failed)
    assert result.diagnostic.code == "AG331"
    assert result.diagnostic.message.startswith("unknown figure 'nowhere': there is no ")


def test_a_figure_id_that_is_a_path_is_told_it_names_no_script(tmp_path: Path) -> None:
    (tmp_path / "outside.py").write_text("def draw(fig, formulas):\n    pass\n", "utf-8")
    figures = tmp_path / "figures"
    figures.mkdir()
    result = draw_figure("../outside", figures, {}, "", "svg", MediaCache(tmp_path), place=HERE)
    assert isinstance(result, Failed)
    assert result.diagnostic.message == (
        "unknown figure '../outside': there is no such script: a figure id is a name of "
        "letters, digits, '-' and '_'"
    )


def test_a_figure_whose_process_ends_without_a_result_is_ag332(tmp_path: Path) -> None:
    (tmp_path / "gone.py").write_text(
        "import os\n\ndef draw(fig, formulas):\n    os._exit(3)\n", "utf-8"
    )
    cache = MediaCache(tmp_path / "cache")
    result = draw_figure("gone", tmp_path, {}, "", "svg", cache, place=HERE)
    assert isinstance(result, Failed)
    assert result.diagnostic.code == "AG332"
    assert result.diagnostic.message == "figure 'gone' failed: the process ended with status 3"
