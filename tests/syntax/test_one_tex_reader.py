"""TeX is split into commands in one module: ``ankigen.syntax.tex`` (issue 21).

No other module of src/ spells a pattern for a TeX control word (``\\[A-Za-z]``):
the claims reader (relations, one symbol, ``\\text`` labels, spacing) and the
front matter's macro names read TeX through ``syntax/tex.py`` too. A module that
must, for a reason, goes in :data:`STILL_OWN_PATTERNS` with that reason.
"""

from __future__ import annotations

from tests.source_strings import SRC, strings_in

#: Modules that still spell a control-word pattern of their own, and why.
STILL_OWN_PATTERNS: dict[str, str] = {}

_PATTERNS = ("\\\\[A-Za-z]", "\\\\[a-zA-Z]")


def _spellers() -> set[str]:
    return {
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if any(
            pattern in literal
            for _, literal in strings_in(path, docstrings=True)
            for pattern in _PATTERNS
        )
    }


def test_only_syntax_tex_spells_a_control_word_pattern() -> None:
    assert _spellers() - {"syntax/tex.py"} == set(STILL_OWN_PATTERNS)
