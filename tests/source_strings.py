"""The string literals of a module of ``src/``, for tests that say which module may spell what."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import ankigen

SRC = Path(ankigen.__file__).parent


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    owners = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef | ast.FunctionDef))]
    return {
        id(owner.body[0].value)
        for owner in owners
        if owner.body
        and isinstance(owner.body[0], ast.Expr)
        and isinstance(owner.body[0].value, ast.Constant)
    }


def strings_in(path: Path, *, docstrings: bool = False) -> list[tuple[int, str]]:
    """Each string literal of the module at ``path`` with its line (docstrings only if asked)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set() if docstrings else _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]


def spelled_in(path: Path, spells: Callable[[str], object], root: Path = SRC) -> list[str]:
    """``FILE:LINE: 'literal'`` (FILE from ``root``) for each string of code, docstrings
    aside, that ``spells``."""
    where = path.relative_to(root).as_posix()
    return [f"{where}:{line}: {value!r}" for line, value in strings_in(path) if spells(value)]
