"""Project settings: folders and time limits from ``[tool.ankigen]`` in ``pyproject.toml``."""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.errors import UsageError
from ankigen.timelimit import LIMIT_SETTINGS, TimeLimits

_FOLDERS = ("content", "figures", "out")


@dataclass(frozen=True)
class ProjectSettings:
    """Default folders for content, figures and output, and the time limits."""

    content: Path
    figures: Path
    out: Path
    limits: TimeLimits = field(default_factory=TimeLimits)


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
    unknown = sorted(set(values) - {*_FOLDERS, *LIMIT_SETTINGS})
    if unknown:
        known = ", ".join([*_FOLDERS, *LIMIT_SETTINGS])
        raise UsageError(f"{pyproject}: unknown [tool.ankigen] key '{unknown[0]}' (known: {known})")

    def folder(key: str, default: str) -> Path:
        value = values.get(key, default)
        if not isinstance(value, str):
            raise UsageError(f"{pyproject}: [tool.ankigen] {key} must be a string")
        return project_dir / value

    return ProjectSettings(
        folder("content", "content"),
        folder("figures", "figures"),
        folder("out", "build"),
        _limits(values, pyproject),
    )


def _limits(values: dict[str, object], pyproject: Path) -> TimeLimits:
    """The time limits set in ``[tool.ankigen]``, each a positive number of seconds."""
    chosen: dict[str, float] = {}
    for key, attribute in LIMIT_SETTINGS.items():
        if key not in values:
            continue
        value = values[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise UsageError(
                f"{pyproject}: [tool.ankigen] {key} must be a positive number of seconds"
            )
        chosen[attribute] = float(value)
    return dataclasses.replace(TimeLimits(), **chosen)
