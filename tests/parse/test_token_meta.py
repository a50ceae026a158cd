"""``Token.meta`` is read and written only through ``parse.token_meta``, and no key is dead."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ankigen.parse import token_meta

SRC = Path(token_meta.__file__).resolve().parents[1]
_META_ACCESS = re.compile(r"\.meta\b(?!data)")


def _sources() -> dict[Path, str]:
    return {path: path.read_text("utf-8") for path in SRC.rglob("*.py")}


def test_no_module_but_token_meta_touches_token_meta() -> None:
    own = Path(token_meta.__file__).resolve()
    touching = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path, text in _sources().items()
        if path != own
        for number, line in enumerate(text.splitlines(), start=1)
        if _META_ACCESS.search(line.replace("tokens_meta", ""))
    ]
    assert touching == []


def test_every_accessor_is_used_so_no_key_is_written_and_never_read() -> None:
    tree = ast.parse(Path(token_meta.__file__).read_text("utf-8"))
    accessors = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    ]
    others = "\n".join(text for path, text in _sources().items() if path.name != "token_meta.py")
    assert "set_line" in accessors, "the test reads the wrong module"
    # Every key has a setter and a reader here; both must be called elsewhere.
    unused = [name for name in accessors if f"token_meta.{name}(" not in others]
    assert unused == []
