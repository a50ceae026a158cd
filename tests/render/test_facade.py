"""The render stage has one facade: no other package reaches into its private modules.

Every import of ``ankigen.render`` outside ``src/ankigen/render/`` names the
package itself, so the modules behind it can be split or renamed freely.
Importing the facade loads no matplotlib: a build whose images all come
from the cache never pays for it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.import_probe import loads

SRC = Path(__file__).resolve().parents[2] / "src" / "ankigen"


def _render_modules(path: Path) -> list[str]:
    """The modules inside ``ankigen.render`` (not the facade) that ``path`` imports."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("ankigen.render.")]
        elif isinstance(node, ast.ImportFrom) and node.module == "ankigen.render":
            found += [f"ankigen.render.{a.name}" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ankigen.render."):
            found.append(str(node.module))
    return found


def test_no_package_outside_render_imports_its_modules() -> None:
    outside = [p for p in SRC.rglob("*.py") if SRC / "render" not in p.parents]
    reaching = {
        str(p.relative_to(SRC)): imports for p in outside if (imports := _render_modules(p))
    }
    assert reaching == {}


def test_the_facade_loads_no_matplotlib() -> None:
    assert not loads("ankigen.render", "matplotlib")
