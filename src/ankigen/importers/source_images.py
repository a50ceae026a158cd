"""Images a markdown source shows, copied next to the content file it becomes.

``![alt](path)``, Obsidian's ``![[path]]`` and HTML's ``<img src>`` naming a
file below the source folder (hashcards' ``@/path``: below the folder named)
are read (size-limited, no symbolic link, never outside the folder) and
written under their plain file names next to the content, each reference
rewritten to that name; a URL (a card loads nothing from the network), or a
file that is missing or outside the folder, is dropped and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ankigen.importers.markdown_text import image_link
from ankigen.importers.package_media import is_image_name

MAX_IMAGE = 16 * 1024 * 1024
_IMAGE = re.compile(
    r"!\[(?P<alt>[^\]\n]*)\]\((?P<target><[^>\n]*>|[^)\s]+)(?P<title>\s+\"[^\"\n]*\")?\)"
)
_WIKI = re.compile(r"!\[\[(?P<target>[^\]|\n]+)(?:\|[^\]\n]*)?\]\]")
#: An HTML ``<img src="…">`` (format section 16 shows one of a local file).
_HTML_SRC = re.compile(
    r"(?P<head><img\b[^>]*?\bsrc=)(?P<quote>[\"'])(?P<target>[^\"'>]*)(?P=quote)", re.I
)


@dataclass
class SourceImages:
    """The images copied so far for one deck: file name -> bytes."""

    root: Path
    files: dict[str, bytes] = field(default_factory=dict)

    def rewrite(self, markdown: str, source_file: Path, lost: list[str]) -> str:
        """``markdown`` with each local image copied and referenced by its new name."""

        def image(match: re.Match[str]) -> str:
            target = match.group("target").strip("<>")
            name = self._copy(target, source_file, lost)
            if name is None:
                return ""
            return image_link(match.groupdict().get("alt") or "", name)

        def html_image(match: re.Match[str]) -> str:
            name = self._copy(match.group("target"), source_file, lost)
            quote = match.group("quote")
            return match.group(0) if name is None else f"{match['head']}{quote}{name}{quote}"

        return _HTML_SRC.sub(html_image, _IMAGE.sub(image, _WIKI.sub(image, markdown)))

    def _copy(self, target: str, source_file: Path, lost: list[str]) -> str | None:
        if not _is_local(target):
            lost.append(
                f"image '{target[:80]}' (not a file: a deck loads nothing from the network)"
            )
            return None
        # hashcards writes `@/x.png` for a file at the root of its collection.
        base, name = (
            (self.root, target[2:]) if target.startswith("@/") else (source_file.parent, target)
        )
        path = (base / unquote(name)).resolve()
        root = self.root.resolve()
        if not path.is_relative_to(root) or not path.is_file() or path.is_symlink():
            lost.append(f"image '{target[:80]}' (no such file in the source folder)")
            return None
        if path.stat().st_size > MAX_IMAGE or not is_image_name(path.name):
            lost.append(f"image '{target[:80]}' (too big, or not a PNG, JPEG, GIF, SVG or WebP)")
            return None
        data = path.read_bytes()
        name, number = path.name, 2
        while self.files.get(name, data) != data:
            name, number = f"{path.stem}-{number}{path.suffix}", number + 1
        self.files[name] = data
        return name


def _is_local(target: str) -> bool:
    return bool(target) and ":" not in target and not target.startswith(("/", "#"))
