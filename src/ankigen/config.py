"""Project settings: folders from ``[tool.ankigen]`` in ``pyproject.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ankigen.errors import UsageError


@dataclass(frozen=True)
class ProjectSettings:
    """Default folders for content, figures and output."""

    content: Path
    figures: Path
    out: Path


def load_settings(project_dir: Path) -> ProjectSettings:
    """Read ``[tool.ankigen]`` from ``project_dir/pyproject.toml``, else use defaults."""
    values: dict[str, object] = {}
    pyproject = project_dir / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UsageError(f"{pyproject}: cannot read: {exc}") from exc
        values = data.get("tool", {}).get("ankigen", {})
    unknown = sorted(set(values) - {"content", "figures", "out"})
    if unknown:
        raise UsageError(
            f"{pyproject}: unknown [tool.ankigen] key '{unknown[0]}' (known: content, figures, out)"
        )

    def folder(key: str, default: str) -> Path:
        value = values.get(key, default)
        if not isinstance(value, str):
            raise UsageError(f"{pyproject}: [tool.ankigen] {key} must be a string")
        return project_dir / value

    return ProjectSettings(
        folder("content", "content"), folder("figures", "figures"), folder("out", "build")
    )
