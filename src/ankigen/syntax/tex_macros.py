"""Authors' TeX macros (format §17): a closed reader of their definitions, and expansion.

Macros come from front matter ``macros:`` (``\\RR: \\mathbb{R}``, or
``\\norm: {body: '…#1…', args: 1}``) and from the project's preamble file
(``[tool.ankigen] macros = "macros.tex"``), a file of ``\\newcommand``,
``\\renewcommand``, ``\\def`` and ``\\DeclareMathOperator`` lines. The file is
read here, by this module's own closed grammar: nothing of it is handed to
MathJax or to any TeX engine, and anything else in it is an error.

``expand`` replaces every use of a macro in a formula by its body, its
arguments put in for ``#1``…``#9``, again and again until no macro is left.
It runs at build time, in both math modes, before any other judgement: the
card, the TeX allow-list, both renderers and the checker's quotes only ever
see the expanded TeX. Expansion is bounded (``MAX_EXPANSIONS`` replacements
and ``MAX_EXPANDED_CHARS`` characters per formula): a macro that expands
forever is an error naming it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ankigen.syntax import tex as syntax_tex

#: At most this many macro replacements in one formula.
MAX_EXPANSIONS = 1000
#: An expanded formula longer than this is an error (the card's own limit is lower).
MAX_EXPANDED_CHARS = 20_000

#: What an unknown command's message says (render reports it; the fix is here).
HOW_TO_DEFINE = (
    "define it in the front matter ('macros:' with '\\name: replacement') or in the "
    'project\'s preamble ([tool.ankigen] macros = "macros.tex", a file of \\newcommand '
    "lines)"
)

_ARGUMENT = re.compile(r"#([1-9#])")


@dataclass(frozen=True)
class Macro:
    """One macro: its name (``\\RR``), its body, how many arguments it takes, and the
    default of an optional first argument (``\\newcommand{\\x}[2][a]{…}``), if any."""

    name: str
    body: str
    args: int = 0
    default: str | None = None
    #: True for a definition that is reported where it is written (a wrong shape, a body
    #: that expands forever): a use of it is left as written, with no second error.
    broken: bool = False


Macros = Mapping[str, Macro]
#: No macros (a default that cannot be changed by accident).
NO_MACROS: Macros = MappingProxyType({})


@dataclass(frozen=True)
class ExpansionError:
    """Why a formula could not be expanded, and the macro that failed."""

    message: str
    macro: str
    #: True when the macro expands forever (or too far), whatever it is given.
    forever: bool = False


def uses_macro(tex: str, macros: Collection[str]) -> bool:
    """True when ``tex`` names any of ``macros`` (the cheap test before expanding)."""
    return bool(macros) and any(
        syntax_tex.command_at(token, 0) in macros
        for token in syntax_tex.tokens(tex)
        if token.startswith("\\")
    )


def endless(macros: Macros) -> dict[str, ExpansionError]:
    """The macros whose body expands forever (or too far), each with why.

    Every use of such a macro fails whatever its arguments, so the fault is
    the definition's: reported there once, not at every formula using it.
    """
    found: dict[str, ExpansionError] = {}
    for name, macro in macros.items():
        expanded = expand(macro.body, macros)
        if isinstance(expanded, ExpansionError) and expanded.forever:
            found[name] = ExpansionError(_forever(name), name, forever=True)
    return found


def expand(tex: str, macros: Macros) -> str | ExpansionError:
    """``tex`` with every macro replaced, or why that failed."""
    if not uses_macro(tex, macros):
        return tex
    done: list[str] = []
    rest = tex
    expansions = 0
    while rest:
        at = rest.find("\\")
        if at < 0:
            done.append(rest)
            break
        done.append(rest[:at])
        name = syntax_tex.command_at(rest, at)
        macro = macros.get(name)
        if macro is None or macro.broken:  # a broken one is reported at its definition
            done.append(name)
            rest = rest[at + len(name) :]
            continue
        read = _arguments(rest, at + len(name), macro)
        if isinstance(read, ExpansionError):
            return read
        arguments, end = read
        expansions += 1
        rest = _substitute(macro.body, arguments) + rest[end:]
        size = sum(map(len, done)) + len(rest)
        if expansions > MAX_EXPANSIONS or size > MAX_EXPANDED_CHARS:
            return ExpansionError(_forever(name), name, forever=True)
    return "".join(done)


def _forever(name: str) -> str:
    return (
        f"macro {name} expands forever (or past {MAX_EXPANDED_CHARS:,} characters): "
        "its body must not use itself"
    )


def _arguments(text: str, at: int, macro: Macro) -> tuple[list[str], int] | ExpansionError:
    """The arguments of ``macro`` written from ``text[at:]``, and where they end."""
    arguments: list[str] = []
    wanted = macro.args
    if macro.default is not None and wanted:
        at = syntax_tex.skip_space(text, at)
        if at < len(text) and text[at] == "[":
            close = text.find("]", at)
            if close < 0:
                return ExpansionError(f"macro {macro.name}: '[' is never closed by ']'", macro.name)
            arguments.append(text[at + 1 : close])
            at = close + 1
        else:
            arguments.append(macro.default)
        wanted -= 1
    for _ in range(wanted):
        at = syntax_tex.skip_space(text, at)
        argument = _one_argument(text, at)
        if argument is None:
            return ExpansionError(
                f"macro {macro.name} takes {macro.args} argument"
                f"{'' if macro.args == 1 else 's'}: write each in braces, {macro.name}{{…}}",
                macro.name,
            )
        value, at = argument
        arguments.append(value)
    return arguments, at


def _one_argument(text: str, at: int) -> tuple[str, int] | None:
    """One argument: a brace group (without its braces), a command, or one character."""
    if at >= len(text) or text[at] == "}":
        return None
    if text[at] == "{":
        return syntax_tex.group_at(text, at)
    token = syntax_tex.command_at(text, at)
    return token, at + len(token)


def _substitute(body: str, arguments: list[str]) -> str:
    def put(match: re.Match[str]) -> str:
        which = match.group(1)
        if which == "#":
            return "#"
        number = int(which)
        return arguments[number - 1] if number <= len(arguments) else ""

    return _ARGUMENT.sub(put, body)


def highest_argument(body: str) -> int:
    """The highest ``#n`` a body uses (0 for none)."""
    numbers = [int(n) for n in re.findall(r"(?<!#)#([1-9])", body)]
    return max(numbers, default=0)
