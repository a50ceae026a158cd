"""``ankigen init``: a new deck project that builds, and passes ``--strict``, at once.

The files come from templates shipped in ``ankigen/templates/init``; the
sample image is drawn here, byte for byte the same on every run. Nothing is
ever overwritten: if any file of the project exists, no file is written.
"""

from __future__ import annotations

import struct
import textwrap
import zlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ankigen import __version__
from ankigen.build.install_source import InstallLine, running_install
from ankigen.errors import UsageError
from ankigen.parse.slug import slugify

#: The sample image's size in pixels and its colour (the palette's teal).
_SQUARE_SIZE = 24
_SQUARE_RGB = (0x2A, 0x9D, 0x8F)


@dataclass(frozen=True)
class NewProject:
    """A project ``init`` wrote: its folder, deck key and every file, in writing order."""

    root: Path
    key: str
    files: tuple[Path, ...]
    #: How the workflow installs ankigen (``reachable`` False: from this machine only).
    install: InstallLine


def project_files(root: Path, install: InstallLine | None = None) -> dict[Path, bytes]:
    """Every file of a new project in ``root`` and its bytes (nothing is written).

    ``install`` is the workflow's install line; by default, how the running
    ankigen was installed (``commands.install_source``).
    """
    key = slugify(root.absolute().name) or "my-deck"
    title = key.replace("-", " ").capitalize()
    install = install or running_install()
    values = (
        ("TITLE", title),
        ("KEY", key),
        ("VERSION", __version__),
        ("INSTALL_COMMENT", _yaml_comment(install.comment, "        ")),
        ("INSTALL", install.command),
    )

    def text(template: str) -> bytes:
        source = resources.files("ankigen").joinpath("templates", "init", template)
        filled = source.read_text("utf-8")
        for name, value in values:
            filled = filled.replace(f"@@{name}@@", value)
        return filled.encode("utf-8")

    return {
        root / "pyproject.toml": text("pyproject.toml.tmpl"),
        root / ".gitignore": text("gitignore.tmpl"),
        root / "content" / f"{key}.md": text("deck.md.tmpl"),
        root / "content" / "img" / "square.png": square_png(),
        root / "figures" / "area.py": text("figure.py.tmpl"),
        root / ".github" / "workflows" / "decks.yml": text("workflow.yml.tmpl"),
    }


def create_project(root: Path, install: InstallLine | None = None) -> NewProject:
    """Write a new project into ``root`` (made if missing); never overwrite a file.

    Raises ``UsageError`` naming every file that already exists, before
    writing anything. ``install``: as for :func:`project_files`.
    """
    install = install or running_install()
    files = project_files(root, install)
    taken = [path for path in files if path.exists() or path.is_symlink()]
    if root.exists() and not root.is_dir():
        taken.insert(0, root)
    if taken:
        shown = ", ".join(str(path) for path in taken)
        exist = "already exists" if len(taken) == 1 else "already exist"
        raise UsageError(
            f"{shown} {exist}; ankigen init never overwrites a file: choose a new or empty "
            "folder (to add ankigen to an existing project, copy the [tool.ankigen] table of "
            "'ankigen init' in an empty folder into its pyproject.toml)"
        )
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("xb") as handle:  # "x": fail rather than overwrite a file made meanwhile
            handle.write(data)
    key = slugify(root.absolute().name) or "my-deck"
    return NewProject(root, key, tuple(files), install)


def square_png() -> bytes:
    """A small teal square as a PNG file, the same bytes on every run."""
    row = b"\x00" + bytes(_SQUARE_RGB) * _SQUARE_SIZE  # filter byte 0, then RGB pixels
    header = struct.pack(">IIBBBBB", _SQUARE_SIZE, _SQUARE_SIZE, 8, 2, 0, 0, 0)
    pixels = zlib.compress(row * _SQUARE_SIZE, 9)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", pixels)
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _yaml_comment(text: str, indent: str) -> str:
    """``text`` as YAML comment lines at ``indent``, wrapped at 78 columns."""
    width = 78 - len(indent) - 2
    return "\n".join(
        f"{indent}# {line}"
        for line in textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False)
    )
