"""Authors' TeX macros expanded in every formula of a section, before anything reads them.

Format §17: the walker, the claims a check may quote, the fragments and so
render and the card only ever see the expanded TeX. A formula whose
expansion fails (a macro that expands forever, one given too few arguments)
is an error (AG119) at the formula's line, naming the macro; it is left as
written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from markdown_it.token import Token

from ankigen.diagnostics import Code, Diagnostic, Sink, error
from ankigen.syntax.tex_macros import NO_MACROS, ExpansionError, Macros, expand, uses_macro
from ankigen.syntax.tex_preamble import read_preamble

_INLINE_MATH = ("math_inline", "math_inline_double")


def expand_macros(
    tokens: Sequence[Token], macros: Macros, lines: Sequence[str], sink: Sink
) -> None:
    """Replace every macro in the formulas of ``tokens`` (changed in place)."""
    if not macros:
        return
    for block in tokens:
        first = block.map[0] + 1 if block.map else 0
        last = block.map[1] if block.map else 0
        if block.type == "math_block":
            _expand(block, macros, (first, last), lines, sink)
        for child in block.children or ():
            if child.type in _INLINE_MATH:
                _expand(child, macros, (first, last), lines, sink)


def _expand(
    token: Token, macros: Macros, span: tuple[int, int], lines: Sequence[str], sink: Sink
) -> None:
    if not uses_macro(token.content, macros):
        return
    expanded = expand(token.content, macros)
    if isinstance(expanded, ExpansionError):
        line, column = _place(expanded.macro, span, lines)
        message = Code.MACRO_EXPANSION.message(detail=expanded.message)
        sink.error(line, message, column=column, code=Code.MACRO_EXPANSION)
        return
    token.content = expanded


def _place(name: str, span: tuple[int, int], lines: Sequence[str]) -> tuple[int, int]:
    """The first line of ``span`` (first, last) that writes ``name``, and its column."""
    first, last = span
    for line in range(first, max(first, last) + 1):
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if name in text:
            return line, text.index(name) + 1
    return first, 0


def project_macros(path: Path | None, shown: str) -> tuple[Macros, tuple[Diagnostic, ...]]:
    """The macros of the project's preamble file (``shown`` in messages), and its problems.

    The file is read by ``syntax.tex_preamble``'s closed grammar (AG118 for
    anything else in it; AG109 for a file that cannot be read).
    """
    if path is None:
        return NO_MACROS, ()
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        message = Code.MACROS_FILE_UNREADABLE.message(reason=reason)
        unreadable = error(shown, 1, message, column=1, code=Code.MACROS_FILE_UNREADABLE)
        return NO_MACROS, (unreadable,)
    preamble = read_preamble(text)
    problems = tuple(
        error(
            shown,
            line,
            Code.MACROS_FILE_CONTENT.message(detail=problem),
            column=1,
            code=Code.MACROS_FILE_CONTENT,
        )
        for line, problem in preamble.problems
    )
    return preamble.macros, problems
