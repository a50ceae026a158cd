"""Front matter ``macros:`` (format §17): each command's replacement, or body and arguments.

    macros:
      \\RR: \\mathbb{R}
      \\norm: {body: '\\left\\lVert #1 \\right\\rVert', args: 1}

A plain replacement that uses ``#1``… takes as many arguments as the highest
it uses. The macros are read into ``syntax.tex_macros.Macro`` values. A value
of any other shape is an error (AG117), and a body that expands forever one
(AG119), each at the line and column of its own entry: a definition that is
wrong is reported there once. It is kept as a ``broken`` macro, so that a
formula using it is left as written and is not told to define it again.
"""

from __future__ import annotations

import yaml

from ankigen.diagnostics import Code, Sink
from ankigen.parse.macro_expansion import mark_endless
from ankigen.syntax.tex import is_command_name
from ankigen.syntax.tex_macros import Macro, highest_argument

_SHAPE = (
    "front matter 'macros' maps each command to its replacement, e.g. "
    "macros: {\\RR: \\mathbb{R}, \\norm: {body: '\\left\\lVert #1 \\right\\rVert', args: 1}}"
)


def read_macros(value: object, text: str, line: int, sink: Sink) -> tuple[Macro, ...]:
    """The macros of a front matter ``macros:`` value written at ``line`` of the YAML ``text``.

    A wrong definition is reported at its entry and returned as a ``broken`` macro.
    """
    if value is None:
        return ()
    places = entry_places(text, "macros")
    problems: list[tuple[str, str]] = [] if isinstance(value, dict) else [("", _SHAPE)]
    macros: dict[str, Macro] = {}
    for key, definition in value.items() if isinstance(value, dict) else ():
        name = str(key).strip()
        read = _macro(name, definition)
        if isinstance(read, str):
            problems.append((name, f"front matter macro {key}: {read}"))
        if is_command_name(name):
            macros[name] = read if isinstance(read, Macro) else Macro(name, "", broken=True)

    def place(name: str) -> tuple[int, int]:
        return places.get(name, (line, 1))  # the entry's, else the 'macros:' line's

    for name, problem in problems:
        at, column = place(name)
        message = Code.FRONT_MATTER_MACRO_SHAPE.message(detail=problem)
        sink.error(at, message, column=column, code=Code.FRONT_MATTER_MACRO_SHAPE)
    mark_endless(macros, place, "front matter ", sink)
    return tuple(macros.values())


def entry_places(text: str, key: str) -> dict[str, tuple[int, int]]:
    """The line and column (1-based, in ``text``) of each key of the mapping under ``key``.

    Read from YAML's own node tree, so a flow mapping (``{\\RR: …}``) is placed too.
    The front matter is read safely before this (no alias, bounded depth).
    """
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    if not isinstance(root, yaml.MappingNode):
        return {}
    for name, node in root.value:
        if name.value == key and isinstance(node, yaml.MappingNode):
            return {
                str(entry.value).strip(): (entry.start_mark.line + 1, entry.start_mark.column + 1)
                for entry, _ in node.value
            }
    return {}


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
        return f"its body uses #{highest_argument(body)} but it takes {_arguments(args)}"
    return Macro(name, body, args)


def _arguments(count: int) -> str:
    """``1 argument``, ``2 arguments``."""
    return f"{count} argument{'' if count == 1 else 's'}"
