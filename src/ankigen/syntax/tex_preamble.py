"""The closed reader of a project's preamble file of TeX macros (format §17).

A maths author's usual preamble, and nothing else:

    \\newcommand{\\RR}{\\mathbb{R}}          % also \\newcommand\\RR{…} and \\newcommand*
    \\renewcommand{\\vec}[1]{\\mathbf{#1}}
    \\newcommand{\\abs}[2][x]{\\left|#2\\right|_{#1}}   % an optional first argument
    \\def\\norm#1{\\left\\lVert #1 \\right\\rVert}
    \\DeclareMathOperator{\\Tr}{Tr}          % \\operatorname{Tr}; the * form gives limits

``%`` starts a comment; a definition may run over several lines while its
braces are open. Anything else is an error at its line: the file is read,
never run, and nothing of it reaches MathJax except through the expansion of
the macros it defines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ankigen.syntax import tex as syntax_tex
from ankigen.syntax.tex_macros import Macro, highest_argument

_COMMAND = re.compile(r"\\(newcommand|renewcommand|providecommand|def|DeclareMathOperator)(\*?)")
_COUNT = re.compile(r"\s*\[\s*([0-9])\s*\]")
_PARAMETERS = re.compile(r"(?:#[1-9])*")

_EXPECTED = (
    "a macros file holds only \\newcommand, \\renewcommand, \\def and "
    "\\DeclareMathOperator definitions (and % comments)"
)


@dataclass
class Preamble:
    """The macros a preamble file defines, and its problems as (line, message)."""

    macros: dict[str, Macro] = field(default_factory=dict)
    problems: list[tuple[int, str]] = field(default_factory=list)
    #: The line of each macro's definition (its last one), for problems found later.
    lines: dict[str, int] = field(default_factory=dict)


def read_preamble(text: str) -> Preamble:
    """Read every definition of ``text``; a later definition of a name wins."""
    preamble = Preamble()
    source = _without_comments(text)
    at = 0
    while True:
        at = syntax_tex.skip_space(source, at)
        if at >= len(source):
            return preamble
        line = source.count("\n", 0, at) + 1
        command = _COMMAND.match(source, at)
        if command is None:
            preamble.problems.append((line, f"{_EXPECTED}: '{_first_word(source, at)}' is not"))
            return preamble  # the rest cannot be read reliably
        read = _definition(source, command.end(), command.group(1), bool(command.group(2)))
        if isinstance(read, str):
            preamble.problems.append((line, f"\\{command.group(1)}: {read}"))
            return preamble
        macro, at = read
        preamble.macros[macro.name] = macro
        preamble.lines[macro.name] = line


def _definition(source: str, at: int, kind: str, star: bool) -> tuple[Macro, int] | str:
    name_read = _macro_name(source, at)
    if name_read is None:
        return "expected the macro's name, \\name or {\\name}"
    name, at = name_read
    if kind == "def":
        parameters = _PARAMETERS.match(source, syntax_tex.skip_space(source, at))
        assert parameters is not None  # the pattern matches the empty string
        count = len(parameters.group(0)) // 2
        at = parameters.end()
        body = syntax_tex.group_at(source, at)
        if body is None:
            return f"expected {{body}} after {name}"
        return Macro(name, body[0], count), body[1]
    if kind == "DeclareMathOperator":
        body = syntax_tex.group_at(source, at)
        if body is None:
            return f"expected {{text}} after {name}"
        operator = "\\operatorname*" if star else "\\operatorname"
        return Macro(name, f"{operator}{{{body[0]}}}"), body[1]
    count = 0
    default: str | None = None
    counted = _COUNT.match(source, at)
    if counted is not None:
        count, at = int(counted.group(1)), counted.end()
        at = syntax_tex.skip_space(source, at)
        if at < len(source) and source[at] == "[":
            close = source.find("]", at)
            if close < 0:
                return "the optional argument's default is never closed by ']'"
            default, at = source[at + 1 : close], close + 1
    body = syntax_tex.group_at(source, at)
    if body is None:
        return f"expected {{body}} after {name}"
    if highest_argument(body[0]) > count:
        plural = "" if count == 1 else "s"
        return f"{name}'s body uses #{highest_argument(body[0])} but takes {count} argument{plural}"
    return Macro(name, body[0], count, default), body[1]


def _macro_name(source: str, at: int) -> tuple[str, int] | None:
    at = syntax_tex.skip_space(source, at)
    if at < len(source) and source[at] == "{":
        group = syntax_tex.group_at(source, at)
        if group is None:
            return None
        name = group[0].strip()
        return (name, group[1]) if _is_name(name) else None
    name = syntax_tex.command_at(source, at)
    return (name, at + len(name)) if _is_name(name) else None


def _is_name(name: str) -> bool:
    """True for a name a macro may have: ``\\word`` or ``\\`` and one non-space character."""
    return (
        len(name) >= 2
        and name[0] == "\\"
        and not name[1].isspace()
        and syntax_tex.command_at(name, 0) == name
    )


def _without_comments(text: str) -> str:
    """``%`` to the end of the line removed (``\\%`` kept), lines kept for line numbers."""
    return "\n".join(re.sub(r"(?<!\\)%.*", "", line) for line in text.split("\n"))


def _first_word(source: str, at: int) -> str:
    return source[at:].split(None, 1)[0][:40] if source[at:].strip() else ""
