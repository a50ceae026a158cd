"""TeX is split into commands in one module: ``ankigen.syntax.tex`` (issue 21).

No other module of src/ spells a pattern for a TeX control word (``\\[A-Za-z]``)
except the few listed below, which still read TeX with their own regular
expressions; each says why, and each is left to move onto ``syntax/tex.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import ankigen

SRC = Path(ankigen.__file__).parent

#: Modules that still spell a control-word pattern of their own, and why.
STILL_OWN_PATTERNS = {
    "parse/claims.py": "what counts as a claim on a card: relations, one symbol, \\text labels",
    "parse/front_macros.py": "a front matter macro's name is one control word",
}

_PATTERNS = ("\\\\[A-Za-z]", "\\\\[a-zA-Z]")


def _spellers() -> set[str]:
    found = set()
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            literal = node.value if isinstance(node, ast.Constant) else None
            if isinstance(literal, str) and any(pattern in literal for pattern in _PATTERNS):
                found.add(path.relative_to(SRC).as_posix())
    return found


def test_only_syntax_tex_spells_a_control_word_pattern() -> None:
    assert _spellers() - {"syntax/tex.py"} == set(STILL_OWN_PATTERNS)
