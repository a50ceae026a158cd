"""Project settings: folders, defaults and time limits from ``[tool.ankigen]``.

Folders follow the project, not the current directory: the project of some
content is the nearest folder at or above it whose ``pyproject.toml`` has a
``[tool.ankigen]`` table, else the content folder's parent. So
``cd / && ankigen build ~/deck/content`` finds ``~/deck/figures``.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.build.timelimit import LIMIT_SETTINGS, TimeLimits
from ankigen.errors import UsageError
from ankigen.model import ClaimLevel, MathMode

_FOLDERS = {"content": "content", "figures": "figures", "out": "build"}
_KNOWN = (*_FOLDERS, "math", "claims", "strict", "jobs", "macros", *LIMIT_SETTINGS)


@dataclass(frozen=True)
class ProjectSettings:
    """Default folders for content, figures and output, the project's defaults and limits.

    ``math`` is the math mode of files whose front matter names none (None:
    image); ``strict`` makes every run strict unless ``--no-strict`` is given;
    ``limits`` are the time limits of checks, formulas and figures; ``jobs``
    the processes that draw formula images (None: every usable CPU).
    """

    content: Path
    figures: Path
    out: Path
    math: MathMode | None = None
    #: Which numbers and formulas are claims in files whose front matter names no level.
    claims: ClaimLevel = ClaimLevel.ANSWERS
    strict: bool = False
    root: Path = Path(".")
    limits: TimeLimits = field(default_factory=TimeLimits)
    jobs: int | None = None
    #: The project's preamble of TeX macros (format §17), for every deck; None: none.
    macros: Path | None = None


def project_root(paths: Sequence[Path], cwd: Path) -> Path:
    """The project folder of ``paths`` (of ``cwd`` when no path is given).

    Walks up from the first path's content folder (the folder itself, or a
    file's folder) to the nearest ``pyproject.toml`` with ``[tool.ankigen]``.
    Without one, the project is the content folder's parent, or ``cwd`` when
    the content folder is ``cwd`` itself (``ankigen build notes.md`` in a flat
    folder never writes outside it); with no paths, ``cwd``.
    """
    if not paths:
        return _nearest_project(cwd.absolute()) or cwd
    first = paths[0].absolute()
    content_dir = first if first.is_dir() else first.parent
    found = _nearest_project(content_dir)
    if found is not None:
        return found
    return cwd if content_dir.resolve() == cwd.resolve() else content_dir.parent


def settings_for(paths: Sequence[Path], cwd: Path) -> ProjectSettings:
    """The settings of the project that ``paths`` (or ``cwd``) belong to."""
    return load_settings(project_root(paths, cwd))


def load_settings(project_dir: Path) -> ProjectSettings:
    """Read ``[tool.ankigen]`` from ``project_dir/pyproject.toml``, else use defaults."""
    pyproject = project_dir / "pyproject.toml"
    values = _table(pyproject) or {}
    unknown = sorted(set(values) - set(_KNOWN))
    if unknown:
        raise UsageError(
            f"{pyproject}: unknown [tool.ankigen] key '{unknown[0]}' (known: {', '.join(_KNOWN)})"
        )

    def folder(key: str) -> Path:
        value = values.get(key, _FOLDERS[key])
        if not isinstance(value, str):
            raise UsageError(f"{pyproject}: [tool.ankigen] {key} must be a string")
        return project_dir / value

    return ProjectSettings(
        folder("content"),
        folder("figures"),
        folder("out"),
        math=_math(values, pyproject),
        claims=_claims(values, pyproject),
        strict=_strict(values, pyproject),
        root=project_dir,
        limits=_limits(values, pyproject),
        jobs=_jobs(values, pyproject),
        macros=_macros(values, pyproject, project_dir),
    )


#: The folders a build writes inside its output folder.
_OUTPUT_PARTS = (".", ".cache", "preview")


def project_output(out: Path, root: Path) -> Path:
    """The project's own output folder, refused (UsageError) when it leads outside the project.

    A ``build`` symbolic link (or one for its cache or preview inside), or an
    ``out`` setting that climbs out of the project, would make a build write
    its decks, cache and preview elsewhere: content must not choose that. A
    folder named with ``--out`` is the user's choice and is not checked.
    """
    inside = root.resolve()
    for part in _OUTPUT_PARTS:
        folder = out / part
        try:
            target = folder.resolve()
        except (OSError, RuntimeError):  # a symbolic link loop
            target = None
        if target is None or not target.is_relative_to(inside):
            where = f" (to {target})" if target is not None else ""
            shown = folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder
            raise UsageError(
                f"the output folder {shown} leads outside the project{where}; "
                "remove the symbolic link (or the out setting in [tool.ankigen]), or name "
                "the folder with --out to write there on purpose"
            )
    return out


def _macros(values: dict[str, object], pyproject: Path, project_dir: Path) -> Path | None:
    value = values.get("macros")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise UsageError(
            f'{pyproject}: [tool.ankigen] macros must be a file name, e.g. "macros.tex"'
        )
    return project_input(project_dir / value, project_dir, "macros")


def project_input(path: Path, root: Path, key: str) -> Path:
    """A path a ``[tool.ankigen]`` setting names, refused when it leads outside the project.

    The settings come with the content (a pull request can change them): a
    ``macros`` file such as ``/proc/self/environ``, or a ``content`` folder
    elsewhere, would read files outside the project into messages and decks.
    A path named on the command line is the user's choice and is not checked.
    """
    try:
        target: Path | None = path.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop
        target = None
    if target is None or not target.is_relative_to(root.resolve()):
        where = f" (to {target})" if target is not None else ""
        raise UsageError(
            f"{root / 'pyproject.toml'}: [tool.ankigen] {key} leads outside the project{where}; "
            "keep it inside the project folder (a content or figures folder elsewhere can be "
            "named on the command line)"
        )
    return path


def _nearest_project(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` with an ``[tool.ankigen]`` table."""
    for folder in (start, *start.parents):
        if _table(folder / "pyproject.toml") is not None:
            return folder
    return None


def _table(pyproject: Path) -> dict[str, object] | None:
    """The ``[tool.ankigen]`` table of a ``pyproject.toml``, None if it has none."""
    if not pyproject.is_file():
        return None
    try:
        data = tomllib.loads(pyproject.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{pyproject}: cannot read: {exc}") from exc
    table = data.get("tool", {}).get("ankigen")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise UsageError(f"{pyproject}: [tool.ankigen] must be a table")
    return table


def _claims(values: dict[str, object], pyproject: Path) -> ClaimLevel:
    value = values.get("claims", ClaimLevel.ANSWERS.value)
    try:
        return ClaimLevel(str(value))
    except ValueError:
        names = [f'"{level.value}"' for level in ClaimLevel]
        levels = ", ".join(names[:-1]) + " or " + names[-1]
        raise UsageError(f"{pyproject}: [tool.ankigen] claims must be {levels}") from None


def _math(values: dict[str, object], pyproject: Path) -> MathMode | None:
    value = values.get("math")
    if value is None:
        return None
    if value not in ("image", "mathjax"):
        raise UsageError(f'{pyproject}: [tool.ankigen] math must be "image" or "mathjax"')
    return MathMode(value)


def _strict(values: dict[str, object], pyproject: Path) -> bool:
    value = values.get("strict", False)
    if not isinstance(value, bool):
        raise UsageError(f"{pyproject}: [tool.ankigen] strict must be true or false")
    return value


def _jobs(values: dict[str, object], pyproject: Path) -> int | None:
    value = values.get("jobs")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise UsageError(f"{pyproject}: [tool.ankigen] jobs must be a whole number, 1 or more")
    return value


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
