"""Format §17, TeX macros: golden fixtures under ``macros/``.

Each ``macros/<name>.md`` is parsed with the project preamble
``macros/project-macros.tex``; its items (formulas expanded) and its
diagnostics are compared with ``macros/<name>.golden``: arguments, nesting,
a recursive macro, a macro expanding to a refused command (expanded here;
the TeX allow-list refuses it when the deck is rendered, see
``tests/cli/test_macros.py``), and the order of override.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import parse_file
from ankigen.parse.macro_expansion import project_macros
from tests.conftest import compare_golden
from tests.parse.test_fixtures import dump_deck

FIXTURES = Path(__file__).parent / "macros"


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.md")), ids=lambda p: p.stem)
def test_macro_fixture(fixture: Path) -> None:
    macros, problems = project_macros(FIXTURES / "project-macros.tex", "project-macros.tex")
    assert problems == ()
    result = parse_file(fixture, FIXTURES, fixture.name, macros=macros)
    lines = dump_deck(result.deck)
    lines.append("diagnostics:")
    lines += [f"  {d.format()}  [{d.code}]" for d in result.diagnostics]
    compare_golden("\n".join(lines) + "\n", fixture.with_suffix(".golden"))


def test_an_unreadable_or_foreign_preamble_is_an_error_at_its_line(tmp_path: Path) -> None:
    _, missing = project_macros(tmp_path / "none.tex", "none.tex")
    (problem,) = missing
    assert problem.format().startswith("none.tex:1:1: cannot read the macros file")
    preamble = tmp_path / "m.tex"
    preamble.write_text("\\newcommand{\\RR}{\\mathbb{R}}\n\\usepackage{x}\n", "utf-8")
    _, problems = project_macros(preamble, "m.tex")
    assert [(d.line, d.column, d.code) for d in problems] == [(2, 1, "AG118")]
