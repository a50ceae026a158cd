"""Diagnostic codes: each one listed in docs/format.md 13.2, and one code per kind of message.

The source is read, not run: a code is "emitted" where its string stands in
``src/`` (directly, or through a module constant such as ``TEX_SYNTAX``). A
code written at more than one place, or used as a fallback for messages
written elsewhere (``code or "AG210"``, a default argument), names several
message templates; that is allowed only for the codes in ``SHARED`` below,
each with the reason it is still one kind of message.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "ankigen"
FORMAT = ROOT / "docs" / "format.md"
_CODE = re.compile(r"^AG\d{3}$")

#: Codes written at several places (or as a fallback), and why each is one kind of message.
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
}


@dataclass(frozen=True)
class Site:
    """One place in ``src/`` that gives a diagnostic its code."""

    where: str
    fallback: bool  # the code of messages written elsewhere (a default, ``x or CODE``)


def _documented_codes() -> set[str]:
    text = FORMAT.read_text("utf-8")
    table = text[text.index("### 13.2 Diagnostic codes") :]
    table = table[: table.index("\n## ")]
    return set(re.findall(r"^\| `(AG\d{3})` \|", table, re.M))


def _modules() -> dict[str, ast.Module]:
    return {
        str(path.relative_to(SRC)): ast.parse(path.read_text("utf-8"))
        for path in sorted(SRC.rglob("*.py"))
    }


def _constants(modules: dict[str, ast.Module]) -> dict[str, str]:
    """Module-level ``NAME = "AGnnn"`` in all of ``src/``: name -> code."""
    found: dict[str, str] = {}
    for tree in modules.values():
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
                and _CODE.match(node.value.value)
            ):
                for target in node.targets:
                    assert isinstance(target, ast.Name)
                    assert found.get(target.id, node.value.value) == node.value.value, target.id
                    found[target.id] = node.value.value
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


def _sites() -> dict[str, list[Site]]:
    modules = _modules()
    constants = _constants(modules)
    sites: dict[str, list[Site]] = defaultdict(list)
    for name, tree in modules.items():
        definitions = {
            id(node.value)
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        }
        fallbacks = _fallback_nodes(tree)
        for node in ast.walk(tree):
            code = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if _CODE.match(node.value) and id(node) not in definitions:
                    code = node.value
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                code = constants.get(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                code = constants.get(node.attr)
            if code is not None:
                sites[code].append(
                    Site(f"{name}:{getattr(node, 'lineno', 0)}", id(node) in fallbacks)
                )
    return sites


def test_every_code_in_the_source_is_documented_and_every_documented_code_is_used() -> None:
    emitted = set(_sites())
    documented = _documented_codes()
    assert sorted(emitted - documented) == [], "codes missing from docs/format.md 13.2"
    assert sorted(documented - emitted) == [], "codes in docs/format.md 13.2 that nothing emits"


def test_each_code_is_written_once_unless_shared_for_a_reason() -> None:
    shared = {
        code: [s.where for s in found]
        for code, found in _sites().items()
        if len(found) > 1 or any(s.fallback for s in found)
    }
    assert {c: w for c, w in shared.items() if c not in SHARED} == {}
    assert sorted(set(SHARED) - set(shared)) == [], "SHARED lists codes written only once"


def test_each_code_has_one_line_in_the_table() -> None:
    text = FORMAT.read_text("utf-8")
    table = text[text.index("### 13.2 Diagnostic codes") :]
    rows = re.findall(r"^\| `(AG\d{3})` \|", table[: table.index("\n## ")], re.M)
    assert len(rows) == len(set(rows))
    assert rows == sorted(rows)
