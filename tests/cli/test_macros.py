"""Format §17 through the CLI: a project preamble, front matter macros, both math modes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main
from ankigen.importers.apkg import read_deck_file

PREAMBLE = r"""\newcommand{\RR}{\mathbb{R}}
\newcommand{\QQ}{\mathbb{Q}}
\newcommand{\sq}[1]{{#1}^2}
"""

DECK = r"""---
macros:
  \QQ: \mathbb{C}
---
# Macros

Where does $x$ live? ::: In $\RR$, and $\sq{x} \ge 0$ in $\QQ$.
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "macros.md").write_text(DECK, "utf-8")
    (tmp_path / "macros.tex").write_text(PREAMBLE, "utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.ankigen]\nmacros = "macros.tex"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def back(project: Path) -> str:
    (note,) = read_deck_file(project / "build" / "macros.apkg").notes.values()
    return note.fields[1]


def test_mathjax_mode_ships_the_expanded_tex(project: Path) -> None:
    result = invoke("build", "--math", "mathjax")
    assert result.exit_code == 0, result.output
    answer = back(project)
    # The project's \RR, the front matter's \QQ (it overrides the project's), \sq's argument.
    assert r"\(\mathbb{R}\)" in answer and r"\(\mathbb{C}\)" in answer
    assert r"{x}^2 \ge 0" in answer
    assert r"\RR" not in answer and r"\QQ" not in answer and r"\sq" not in answer


def test_image_mode_draws_the_expanded_tex(project: Path) -> None:
    result = invoke("build", "--math", "image")
    assert result.exit_code == 0, result.output
    answer = back(project)
    assert answer.count('<img class="ag-math"') == 3
    assert 'alt="&#92;mathbb&#123;R&#125;"' in answer  # the image of the expanded TeX


def test_an_edit_of_the_preamble_rebuilds_the_deck(project: Path) -> None:
    assert invoke("build", "--math", "mathjax").exit_code == 0
    (project / "macros.tex").write_text(PREAMBLE.replace(r"\mathbb{R}", r"\mathbb{Z}"), "utf-8")
    assert invoke("build", "--math", "mathjax").exit_code == 0
    assert r"\(\mathbb{Z}\)" in back(project)


@pytest.mark.parametrize("mode", ["image", "mathjax"])
def test_a_macro_expanding_to_a_refused_command_is_refused(project: Path, mode: str) -> None:
    (project / "macros.tex").write_text(PREAMBLE + "\\newcommand{\\go}{\\href{x}{y}}\n", "utf-8")
    (project / "content" / "macros.md").write_text(DECK + "\nGo ::: $\\go$\n", "utf-8")
    result = invoke("build", "--math", mode)
    assert result.exit_code == 1
    assert "content/macros.md:9" in result.output
    assert "\\href is not allowed in a formula" in result.output
    assert not (project / "build" / "macros.apkg").exists()


def test_a_preamble_error_is_reported_at_its_line(project: Path) -> None:
    (project / "macros.tex").write_text(PREAMBLE + "\\usepackage{amsmath}\n", "utf-8")
    result = invoke("build")
    assert result.exit_code == 1
    assert "macros.tex:4:1: a macros file holds only \\newcommand" in result.output


def test_an_unknown_command_says_how_to_define_it(project: Path) -> None:
    (project / "content" / "macros.md").write_text(DECK + "\nNew ::: $\\ZZ$\n", "utf-8")
    result = invoke("build", "--math", "mathjax")
    assert result.exit_code == 1
    assert "\\ZZ is not a command ankigen draws" in result.output
    assert "define it in the front matter ('macros:'" in result.output
    assert "math: image" not in result.output


def test_a_check_quotes_a_formula_with_the_projects_macros(project: Path) -> None:
    # Format §17: a quote reads the expanded formula, as the card's is read.
    square = (
        "# Square\n\nSquare ::: $y = \\sq{x}$\n\n"
        "```check\nassert $y = \\sq{x}$ where y = x^2\n```\n"
    )
    (project / "content" / "macros.md").write_text(square, "utf-8")
    result = invoke("check", "--strict")
    assert result.exit_code == 0, result.output


BROKEN = r"""---
macros:
  \loop: \loop x
  \a: {body: "#1 #2", args: 1}
  nobackslash: y
---
# Broken

Uses ::: $\loop$ and $\a{z}$ and $\QQ$.
"""


def test_a_broken_definition_is_one_error_at_its_own_entry(project: Path) -> None:
    (project / "content" / "macros.md").write_text(BROKEN, "utf-8")
    result = invoke("build", "--math", "mathjax")
    assert result.exit_code == 1
    assert [line for line in result.output.splitlines() if "macros.md" in line] == [
        "content/macros.md:3:3: front matter macro \\loop expands forever (or past 20,000 "
        "characters): its body must not use itself",
        "content/macros.md:4:3: front matter macro \\a: its body uses #2 but it takes 1 argument",
        "content/macros.md:5:3: front matter macro nobackslash: a macro's name is a backslash "
        "and letters, e.g. \\RR",
    ]


def test_a_preamble_macro_that_expands_forever_is_an_error_at_its_line(project: Path) -> None:
    (project / "macros.tex").write_text(PREAMBLE + "\\newcommand{\\ever}{\\ever x}\n", "utf-8")
    (project / "content" / "macros.md").write_text(DECK + "\nLoop ::: $\\ever$\n", "utf-8")
    result = invoke("build", "--math", "mathjax")
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if "warning:" not in line]
    assert [line for line in errors if "macros." in line] == [
        "macros.tex:4:13: macro \\ever expands forever (or past 20,000 characters): its body "
        "must not use itself",
    ]
