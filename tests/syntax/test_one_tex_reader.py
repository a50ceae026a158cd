"""TeX is split into commands in one module: ``ankigen.syntax.tex`` (issue 21).

No other module of src/ spells a pattern for a TeX control word (``\\[A-Za-z]``)
except the few listed below, which still read TeX with their own regular
expressions; each says why, and each is left to move onto ``syntax/tex.py``.
"""

from __future__ import annotations

from tests.source_strings import SRC, strings_in

#: Modules that still spell a control-word pattern of their own, and why.
STILL_OWN_PATTERNS = {
    "parse/claims.py": "what counts as a claim on a card: relations, one symbol, \\text labels",
    "parse/front_macros.py": "a front matter macro's name is one control word",
}

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
