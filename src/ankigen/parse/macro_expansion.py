"""Authors' TeX macros expanded in every formula of a section, before anything reads them.

Format §17: the walker, the claims a check may quote, the fragments and so
render and the card only ever see the expanded TeX; a ``check`` block's
quoted formulas are expanded with the same macros (``CodeBlock.expansions``). A formula whose
expansion fails (a macro that expands forever, one given too few arguments)
is an error (AG119) at the formula's line, naming the macro; it is left as
written.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from markdown_it.token import Token

from ankigen.diagnostics import Code, Diagnostic, Sink, error
from ankigen.parse import token_meta
from ankigen.syntax.tex_macros import (
    NO_MACROS,
    ExpansionError,
    Macro,
    Macros,
    endless,
    expand,
    uses_macro,
)
from ankigen.syntax.tex_preamble import Preamble, read_preamble

_INLINE_MATH = ("math_inline", "math_inline_double")
#: A quote of a check statement: `` `NUMBER` `` (no formula), ``$$TEX$$`` or ``$TEX$``.
_QUOTED = re.compile(r"`[^`]*`|\$\$(.+?)\$\$|\$(.+?)\$")


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
        elif block.type == "fence" and block.info.strip() == "check":
            token_meta.set_quote_expansions(block, quote_expansions(block.content, macros))
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
        report_expansion(sink, _place(expanded.macro, span, lines), expanded.message)
        return
    token.content = expanded


def report_expansion(sink: Sink, place: tuple[int, int], detail: str) -> None:
    """AG119 at ``place`` (line, column): a macro that expands forever, or lacks arguments."""
    message = Code.MACRO_EXPANSION.message(detail=detail)
    sink.error(place[0], message, column=place[1], code=Code.MACRO_EXPANSION)


def mark_endless(
    macros: dict[str, Macro], place: Callable[[str], tuple[int, int]], what: str, sink: Sink
) -> None:
    """Report each of ``macros`` whose body expands forever at its definition (``place``
    of its name; ``what`` starts the message), and mark it broken.

    Every use of such a macro fails, so the fault is the definition's: one
    error there, and a formula using it is left as written with no second one.
    """
    for name, problem in endless(macros).items():
        report_expansion(sink, place(name), what + problem.message)
        macros[name] = dataclasses.replace(macros[name], broken=True)


def quote_expansions(code: str, macros: Macros) -> list[tuple[str, str]]:
    """Each quoted formula of a check's ``code`` that uses a macro, with its expansion.

    Format §17: a quote reads the expanded formula, as the card's formula is
    read, so a quote written with the card's macros matches it. The quotes are
    found as the checker's lexer finds them (a statement ends at ``#``; a
    `` `…` `` quote holds no formula). One that cannot be expanded is left as
    written, as its formula on the card is (whose error parse reports).
    """
    pairs: dict[str, str] = {}
    for line in code.splitlines():
        for quote in _QUOTED.finditer(line.split("#", 1)[0]):
            tex = quote.group(1) or quote.group(2)
            if tex and tex not in pairs and uses_macro(tex, macros):
                expanded = expand(tex, macros)
                if isinstance(expanded, str) and expanded != tex:
                    pairs[tex] = expanded
    return list(pairs.items())


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
    problems = [
        error(
            shown,
            line,
            Code.MACROS_FILE_CONTENT.message(detail=problem),
            column=1,
            code=Code.MACROS_FILE_CONTENT,
        )
        for line, problem in preamble.problems
    ]
    macros = dict(preamble.macros)
    sink = Sink(shown)
    mark_endless(macros, functools.partial(_definition_place, preamble, text), "", sink)
    return macros, (*problems, *sink.diagnostics)


def _definition_place(preamble: Preamble, text: str, name: str) -> tuple[int, int]:
    """The line of a preamble macro's definition, and the column of its name there."""
    line = preamble.lines[name]
    return line, text.splitlines()[line - 1].find(name) + 1 or 1
