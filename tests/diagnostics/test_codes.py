"""Diagnostic codes: one registry, its table in docs/format.md 13.2, one code per kind of message.

The registry (``ankigen.diagnostics.codes``) is the one module that spells a
code's identifier; stages name a ``Code`` member. The source is read, not
run: a code is "emitted" where its member is named in ``src/`` (directly, or
through a module constant such as ``TEX_SYNTAX = Code.CHECK_TEX_SYNTAX``;
``Code.X.message(...)``, which makes the message from the code's template,
is not a place of its own). A code named at more than one place, or used as
a fallback for messages written elsewhere (``code or Code.CHECK_FAILED``, a
default argument), is reported with messages of several forms; that is
allowed only for the codes in ``SHARED`` below, each with the reason it is
still one kind of message (its template has a ``{detail}`` field, or fields
for the parts that differ).

Every message comes from its code's template: the tests at the end check
that every template is filled in ``src/`` with exactly its fields, and that
no code is reported with a message written in place.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from string import Formatter

import pytest

from ankigen.diagnostics import Code, Diagnostic, Severity, Sink, error, warning
from ankigen.diagnostics.table import HEADER, code_table, with_code_table
from tests.source_strings import spelled_in

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "ankigen"
FORMAT = ROOT / "docs" / "format.md"
REGISTRY = "diagnostics/codes.py"
#: A code's identifier anywhere in a string (``"AG101"``, ``f"... AG101 ..."``).
_SPELLED = re.compile(r"\bAG\d{3}\b")

#: Codes named at several places (or as a fallback), and why each is one kind of message.
SHARED = {
    "AG203": "a malformed quote: the message says which form is wrong",
    "AG205": "a quoted formula that does not parse: the message says where and what",
    "AG210": "an assertion that does not hold: the message shows both sides",
    "AG211": "a statement off the grammar: 'syntax error at column N: ...'",
    "AG212": "a statement that cannot be decided: the message says why",
    "AG134": "a tag under ankigen::: one message (syntax/tags.py) for front matter and metadata",
    "AG505": "a cloze's own braces run into its '}}': worded for text and for a formula",
    "AG620": "a subdeck Anki refuses: syntax/decks.py's message, at the heading or under the title",
    "AG621": "a deck name Anki refuses: syntax/decks.py's message, for front matter or the title",
    "AG602": "an unsafe SVG: the same check for an image and a figure",
    "AG201": "one message; check/_coverage.py also counts them (for the CLI's hint line)",
}


@dataclass(frozen=True)
class Site:
    """One place in ``src/`` that gives a diagnostic its code."""

    where: str
    fallback: bool  # the code of messages written elsewhere (a default, ``x or CODE``)


def _documented_codes() -> list[str]:
    text = FORMAT.read_text("utf-8")
    table = text[text.index("### 13.2 Diagnostic codes") :]
    table = table[: table.index("\n## ")]
    return re.findall(r"^\| `(AG\d{3})` \|", table, re.M)


def _modules() -> dict[str, ast.Module]:
    return {
        path.relative_to(SRC).as_posix(): ast.parse(path.read_text("utf-8"))
        for path in sorted(SRC.rglob("*.py"))
    }


def _member(node: ast.AST) -> Code | None:
    """The registry member ``node`` names (``Code.EMPTY_ANSWER``), if it names one."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Code"
        and node.attr in Code.__members__
    ):
        return Code[node.attr]
    return None


def _named_code(node: ast.AST, aliases: dict[str, Code]) -> Code | None:
    """The code ``node`` names: a member of the registry, or a module constant set to one."""
    if (member := _member(node)) is not None:
        return member
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
        return aliases.get(node.attr)
    return None


def _aliases(modules: dict[str, ast.Module]) -> dict[str, Code]:
    """Module-level ``NAME = Code.MEMBER`` in all of ``src/``: name -> code."""
    found: dict[str, Code] = {}
    for tree in modules.values():
        for node in tree.body:
            code = _member(node.value) if isinstance(node, ast.Assign) else None
            if code is not None:
                assert isinstance(node, ast.Assign)
                for target in node.targets:
                    assert isinstance(target, ast.Name)
                    assert found.get(target.id, code) == code, target.id
                    found[target.id] = code
    return found


def _fallback_nodes(tree: ast.Module) -> set[int]:
    """Ids of nodes used as a fallback code: ``x or CODE`` and default arguments."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            ids.update(id(value) for value in node.values[1:])
        elif isinstance(node, ast.arguments):
            ids.update(id(default) for default in [*node.defaults, *node.kw_defaults] if default)
    return ids


def _message_calls(tree: ast.AST) -> list[tuple[ast.expr, ast.Call]]:
    """The ``X.message(...)`` calls in ``tree``, with their ``X`` (a code, or a name for one)."""
    return [
        (node.func.value, node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "message"
    ]


def _sites() -> dict[str, list[Site]]:
    modules = _modules()
    del modules[REGISTRY]
    aliases = _aliases(modules)
    sites: dict[str, list[Site]] = defaultdict(list)
    for name, tree in modules.items():
        definitions = {id(node.value) for node in tree.body if isinstance(node, ast.Assign)}
        # ``Code.X.message(...)`` writes a message: where it is reported names the code
        definitions |= {id(receiver) for receiver, _ in _message_calls(tree)}
        fallbacks = _fallback_nodes(tree)
        for node in ast.walk(tree):
            code = _named_code(node, aliases) if id(node) not in definitions else None
            if code is not None:
                sites[code].append(
                    Site(f"{name}:{getattr(node, 'lineno', 0)}", id(node) in fallbacks)
                )
    return sites


def _spelled_codes(path: Path) -> list[str]:
    """Where a module's strings (docstrings aside) spell a code's identifier."""
    return spelled_in(path, _SPELLED.search, SRC)


def test_only_the_registry_spells_a_code() -> None:
    spelled = [
        hit
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).as_posix() != REGISTRY
        for hit in _spelled_codes(path)
    ]
    assert spelled == [], "name the code from ankigen.diagnostics.Code instead"
    assert _spelled_codes(SRC / REGISTRY), "the scan must see the registry's identifiers"


def test_the_table_in_docs_format_md_is_generated_from_the_registry() -> None:
    text = FORMAT.read_text("utf-8")
    assert code_table() in text, "run: python -m ankigen.diagnostics.table docs/format.md"
    assert with_code_table(text) == text
    assert _documented_codes() == sorted(Code)


def test_the_generator_replaces_a_stale_table_and_keeps_the_text_around_it() -> None:
    rows = "| `AG101` | error | old | old |\n| `AG999` | error | x | y |\n"
    stale = f"before\n\n{HEADER}{rows}\nafter\n"
    assert with_code_table(stale) == f"before\n\n{code_table()}\nafter\n"


def test_every_registered_code_is_well_formed() -> None:
    assert len(Code.__members__) == len(Code), "two names for one identifier"
    for code in Code:
        assert re.fullmatch(r"AG\d{3}", code), code.name
        assert code.name.isupper(), code.name
        assert code.summary.strip() and code.fix.strip(), code.name
        assert "|" not in code.summary + code.fix, f"{code.name}: a '|' would split its table row"
        assert code.severity in (Severity.ERROR, Severity.WARNING)


def test_a_diagnostic_keeps_a_code_as_its_plain_identifier() -> None:
    sink = Sink("a.md")
    sink.warning(2, "no items", code=Code.NO_ITEMS)
    made = [
        error("a.md", 1, "empty answer after ':::'", code=Code.EMPTY_ANSWER),
        warning("a.md", 1, "unverified claim", code=Code.UNVERIFIED_CLAIM),
        *sink.diagnostics,
    ]
    assert [d.code for d in made] == ["AG106", "AG201", "AG103"]
    for diagnostic in made:
        assert type(diagnostic.code) is str  # caches (marshal) store builtin strings only
        assert Diagnostic.from_record(diagnostic.to_record()) == diagnostic


def test_every_registered_code_is_emitted_and_every_emitted_code_registered() -> None:
    emitted = set(_sites())
    assert sorted(set(Code) - emitted) == [], "registered codes that nothing in src/ names"
    assert emitted <= set(Code)


def test_each_code_is_named_once_unless_shared_for_a_reason() -> None:
    shared = {
        code: [s.where for s in found]
        for code, found in _sites().items()
        if len(found) > 1 or any(s.fallback for s in found)
    }
    assert {c: w for c, w in shared.items() if c not in SHARED} == {}
    assert sorted(set(SHARED) - set(shared)) == [], "SHARED lists codes named only once"


#: Calls that carry a code to an error, with the position of the code among their arguments.
_ERROR_MAKERS = {"failed": -1, "TexProblem": 1, "MediaProblem": 1, "DrawFailure": 1}


def _severity_and_code(call: ast.Call) -> tuple[Severity, ast.expr] | None:
    """The severity a call reports its code with, and the code's node, when the call says both.

    ``error(...)``/``sink.warning(...)``, ``sink.report(Severity.X, ...)``,
    ``place.failed(...)`` and the render problems (always errors), and a syntax
    ``Finding`` (a warning when ``is_warning``).
    """
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    keywords = {k.arg: k.value for k in call.keywords}
    if name in ("error", "warning") and "code" in keywords:
        return Severity(name), keywords["code"]
    first = call.args[0] if call.args else None
    if name == "report" and isinstance(first, ast.Attribute) and first.attr in Severity.__members__:
        return Severity[first.attr], keywords["code"]
    if name in _ERROR_MAKERS:
        position = _ERROR_MAKERS[name]
        code = keywords.get("code", call.args[position] if position < len(call.args) else None)
        return (Severity.ERROR, code) if code is not None else None
    if name == "Finding":
        flag = keywords.get("is_warning", call.args[4] if len(call.args) > 4 else None)
        warns = isinstance(flag, ast.Constant) and flag.value is True
        code = keywords.get("code", call.args[3] if len(call.args) > 3 else None)
        if code is not None:
            return (Severity.WARNING if warns else Severity.ERROR), code
    return None


def test_a_code_is_reported_with_its_registered_severity() -> None:
    """Where a call names both a severity and a code, they agree with the registry."""
    modules = _modules()
    del modules[REGISTRY]
    aliases = _aliases(modules)
    checked: set[Code] = set()
    wrong = []
    for name, tree in modules.items():
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            found = _severity_and_code(call)
            code = _named_code(found[1], aliases) if found else None
            if found and code is not None:
                checked.add(code)
                if code.severity is not found[0]:
                    wrong.append(f"{name}:{call.lineno}: {code.name} reported as {found[0]}")
    assert wrong == []
    assert len(checked) > len(Code) * 2 // 3  # the scan sees most codes where they are reported


#: Codes reported (by a direct ``error``/``warning``/``report`` call) without a column:
#: none. Every code carries a column; other codes reach theirs through a ``Place``,
#: a ``Finding``'s snippet or a formula's column.
WITHOUT_COLUMN: set[Code] = set()


def test_a_code_reported_directly_carries_a_column() -> None:
    modules = _modules()
    del modules[REGISTRY]
    aliases = _aliases(modules)
    without: set[Code] = set()
    for tree in modules.values():
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            func = call.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            found = _severity_and_code(call) if name in ("error", "warning", "report") else None
            code = _named_code(found[1], aliases) if found else None
            if code is not None and not any(k.arg == "column" for k in call.keywords):
                without.add(code)
    assert sorted(without - WITHOUT_COLUMN) == [], "give the diagnostic its column"
    assert sorted(WITHOUT_COLUMN - without) == [], "has a column now: remove from WITHOUT_COLUMN"


# --- message templates ---------------------------------------------------------------

#: The one helper that fills the template of the code it is given (its keyword ``code``,
#: ``CHECK_SYNTAX`` when none), and the fields it fills.
_FILLER = "StatementSyntaxError"
_FILLER_FIELDS = frozenset({"column", "detail"})


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _template_uses() -> dict[Code, list[tuple[str, frozenset[str] | None]]]:
    """Each code whose template ``src/`` fills, with where and the fields it is given.

    The fields are None where they cannot be read (positional arguments, ``**fields``).
    """
    modules = _modules()
    del modules[REGISTRY]
    aliases = _aliases(modules)
    uses: dict[Code, list[tuple[str, frozenset[str] | None]]] = defaultdict(list)
    for name, tree in modules.items():
        for receiver, call in _message_calls(tree):
            code = _named_code(receiver, aliases)
            if code is not None:
                plain = not call.args and all(k.arg for k in call.keywords)
                given = frozenset(str(k.arg) for k in call.keywords) if plain else None
                uses[code].append((f"{name}:{call.lineno}", given))
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            if _callee(call) == _FILLER:
                node = next((k.value for k in call.keywords if k.arg == "code"), None)
                code = Code.CHECK_SYNTAX if node is None else _named_code(node, aliases)
                if code is not None:
                    uses[code].append((f"{name}:{call.lineno} ({_FILLER})", _FILLER_FIELDS))
    return uses


def test_every_code_has_a_message_template() -> None:
    for code in Code:
        assert code.template.strip(), code.name
        assert code.fields == frozenset(
            field for _, field, _, _ in Formatter().parse(code.template) if field
        ), code.name
        assert all(field.isidentifier() for field in code.fields), code.name
        code.message(**dict.fromkeys(code.fields, 1))  # a number suits every format spec


def test_a_message_is_its_template_filled_with_exactly_its_fields() -> None:
    assert Code.EMPTY_ANSWER.message() == "empty answer: write the answer after ':::'"
    assert Code.FILE_UNREADABLE.message(reason="Permission denied") == (
        "cannot read file: Permission denied"
    )
    assert Code.FILE_NOT_UTF8.message(byte=0xFF).startswith("not UTF-8 text (byte 0xff)")
    assert Code.FRONT_MATTER_PROMPT.message().count("{Spot the error:") == 1  # braces escaped
    with pytest.raises(TypeError, match="FILE_UNREADABLE"):
        Code.FILE_UNREADABLE.message()  # a field missing
    with pytest.raises(TypeError, match="EMPTY_ANSWER"):
        Code.EMPTY_ANSWER.message(separator=":::")  # a field the template does not have


def test_every_template_is_filled_in_src_with_exactly_its_fields() -> None:
    """Each code's message is made from its template, and every call site gives its fields."""
    uses = _template_uses()
    assert sorted(set(Code) - set(uses)) == [], "codes whose template nothing in src/ fills"
    wrong = [
        f"{where}: {code.name} is given {sorted(given or ['?'])}, its template has "
        f"{sorted(code.fields)}"
        for code, found in uses.items()
        for where, given in found
        if given != code.fields
    ]
    assert wrong == []


#: Where each call that reports a code takes its message: the positional argument's index.
_MESSAGE_AT = {
    "error": 2,  # error(file, line, message, ...); sink.error(line, message, ...): 1
    "warning": 2,
    "failed": 0,
    "TexProblem": 0,
    "MediaProblem": 0,
    "DrawFailure": 0,
    "DrawingLimitError": 0,
    "StatementError": 0,
    "Finding": 2,
}
#: Where such calls take their code, when not as the keyword ``code``.
_CODE_AT = {
    "TexProblem": 1,
    "MediaProblem": 1,
    "DrawFailure": 1,
    "DrawingLimitError": 1,
    "Finding": 3,
}


def _message_and_code(call: ast.Call) -> tuple[ast.expr, ast.expr] | None:
    """The message and code nodes of a call that reports a message under a code."""
    name = _callee(call)
    method = isinstance(call.func, ast.Attribute)
    if name in ("report", "warn", "error", "warning") and method:
        first = call.args[0] if call.args else None
        severity = isinstance(first, ast.Attribute) and first.attr in Severity.__members__
        position = 2 if severity else 1
    elif name in _MESSAGE_AT:
        position = _MESSAGE_AT[name]
    else:
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    code = keywords.get("code")
    if code is None and name in _CODE_AT and _CODE_AT[name] < len(call.args):
        code = call.args[_CODE_AT[name]]
    message = keywords.get("message", call.args[position] if position < len(call.args) else None)
    return (message, code) if message is not None and code is not None else None


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a module or function, not those of the functions defined in it."""
    for child in ast.iter_child_nodes(scope):
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield child
            yield from _own_nodes(child)


def _value_of(node: ast.expr, assignments: list[ast.Assign]) -> ast.expr:
    """What ``node`` stands for: for a name, the value last set to it above ``node``."""
    if not isinstance(node, ast.Name):
        return node
    earlier = [
        a
        for a in assignments
        if a.lineno < node.lineno
        and len(a.targets) == 1
        and isinstance(a.targets[0], ast.Name)
        and a.targets[0].id == node.id
    ]
    return max(earlier, key=lambda a: a.lineno).value if earlier else node


def _written_in_place(value: ast.expr) -> bool:
    """True for a string literal or an f-string."""
    return isinstance(value, ast.JoinedStr) or (
        isinstance(value, ast.Constant) and isinstance(value.value, str)
    )


def _template_of(value: ast.expr, aliases: dict[str, Code]) -> Code | None:
    """The code whose template makes ``value`` (``Code.X.message(...)``), if one does."""
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "message"
    ):
        return _named_code(value.func.value, aliases)
    return None


def test_no_code_is_reported_with_a_message_written_in_place() -> None:
    """A stage reports a code with its template's message, never with text of its own
    (nor with another code's template)."""
    modules = _modules()
    del modules[REGISTRY]
    aliases = _aliases(modules)
    written: set[str] = set()
    mismatched: set[str] = set()
    checked: set[Code] = set()
    for name, tree in modules.items():
        scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]
        for scope in scopes:
            nodes = list(_own_nodes(scope))
            assignments = [node for node in nodes if isinstance(node, ast.Assign)]
            for call in (node for node in nodes if isinstance(node, ast.Call)):
                found = _message_and_code(call)
                code = _named_code(found[1], aliases) if found else None
                if found is None or code is None:
                    continue
                checked.add(code)
                value = _value_of(found[0], assignments)
                if _written_in_place(value):
                    written.add(f"{name}:{call.lineno}: {code.name}")
                template = _template_of(value, aliases)
                if template is not None and template != code:
                    mismatched.add(f"{name}:{call.lineno}: {code.name} with {template.name}'s")
    assert sorted(written) == [], "make the message with Code.X.message(...)"
    assert sorted(mismatched) == [], "report a message under the code whose template made it"
    assert len(checked) > len(Code) // 2  # the scan sees most codes where they are reported
