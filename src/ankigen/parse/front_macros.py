"""Front matter ``macros:`` (format §17): each command's replacement, or body and arguments.

    macros:
      \\RR: \\mathbb{R}
      \\norm: {body: '\\left\\lVert #1 \\right\\rVert', args: 1}

A plain replacement that uses ``#1``… takes as many arguments as the highest
it uses. The macros are read into ``syntax.tex_macros.Macro`` values; a value
of any other shape is an error at the ``macros:`` line (AG117).
"""

from __future__ import annotations

from ankigen.diagnostics import Code, Sink
from ankigen.syntax.tex import is_command_name
from ankigen.syntax.tex_macros import Macro, highest_argument

_SHAPE = (
    "front matter 'macros' maps each command to its replacement, e.g. "
    "macros: {\\RR: \\mathbb{R}, \\norm: {body: '\\left\\lVert #1 \\right\\rVert', args: 1}}"
)


def read_macros(value: object, line: int, sink: Sink) -> tuple[Macro, ...]:
    """The macros of a front matter ``macros:`` value written at ``line``."""
    if value is None:
        return ()
    problems: list[str] = []
    macros: list[Macro] = []
    if not isinstance(value, dict):
        problems.append(_SHAPE)
    for name, definition in value.items() if isinstance(value, dict) else ():
        macro = _macro(str(name).strip(), definition)
        if isinstance(macro, str):
            problems.append(f"front matter macro {name}: {macro}")
        else:
            macros.append(macro)
    for problem in problems:
        message = Code.FRONT_MATTER_MACRO_SHAPE.message(detail=problem)
        sink.error(line, message, column=1, code=Code.FRONT_MATTER_MACRO_SHAPE)
    return tuple(macros)


def _macro(name: str, definition: object) -> Macro | str:
    if not is_command_name(name):
        return "a macro's name is a backslash and letters, e.g. \\RR"
    if isinstance(definition, (str, int, float)) and not isinstance(definition, bool):
        body = str(definition)
        return Macro(name, body, highest_argument(body))
    if not isinstance(definition, dict) or not isinstance(definition.get("body"), str):
        return "write its replacement, or {body: '…#1…', args: 1}"
    body = str(definition["body"])
    args = definition.get("args", highest_argument(body))
    if isinstance(args, bool) or not isinstance(args, int) or not 0 <= args <= 9:
        return "'args' is a number from 0 to 9"
    unknown = sorted(set(map(str, definition)) - {"body", "args"})
    if unknown:
        return f"unknown field '{unknown[0]}' (known: body, args)"
    if highest_argument(body) > args:
        return f"its body uses #{highest_argument(body)} but it takes {args} arguments"
    return Macro(name, body, args)
