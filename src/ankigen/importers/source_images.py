"""Images a markdown source shows, copied next to the content file it becomes.

``![alt](path)``, Obsidian's ``![[path]]`` and HTML's ``<img src>`` naming a
file below the source folder (hashcards' ``@/path``: below the folder named)
are read (size-limited, no symbolic link, never outside the folder) and
written under their plain file names next to the content, each reference
rewritten to that name; a URL (a card loads nothing from the network), or a
file that is missing or outside the folder, is dropped and reported.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from ankigen.importers.markdown_text import image_link
from ankigen.importers.package_media import is_image_name

MAX_IMAGE = 16 * 1024 * 1024
_IMAGE = re.compile(
    r"!\[(?P<alt>[^\]\n]*)\]\((?P<target><[^>\n]*>|[^)\s]+)(?P<title>\s+\"[^\"\n]*\")?\)"
)
_WIKI = re.compile(r"!\[\[(?P<target>[^\]|\n]+)(?:\|[^\]\n]*)?\]\]")


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

        markdown = _IMAGE.sub(image, _WIKI.sub(image, markdown))
        return self._html_images(markdown, source_file, lost)

    def _html_images(self, markdown: str, source_file: Path, lost: list[str]) -> str:
        """Each HTML ``<img src>`` (format section 16) copied, its tag written with the new name."""
        if "<img" not in markdown.lower():
            return markdown
        finder = _ImageTags()
        finder.feed(markdown)
        finder.close()
        starts = [0]
        for text_line in markdown.split("\n"):
            starts.append(starts[-1] + len(text_line) + 1)
        parts: list[str] = []
        position = 0
        for (line, column), written, attrs in finder.found:
            start = starts[line - 1] + column
            name = self._copy(attrs.get("src") or "", source_file, lost)
            attrs["src"] = name or ""
            shown = " ".join(f'{key}="{html.escape(value)}"' for key, value in attrs.items())
            parts += [markdown[position:start], f"<img {shown}>" if name else ""]
            position = start + len(written)
        parts.append(markdown[position:])
        return "".join(parts)

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


class _ImageTags(HTMLParser):
    """The ``<img>`` tags of a text: where each starts, as written, and its attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[tuple[int, int], str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        written = self.get_starttag_text()
        if tag == "img" and written:
            self.found.append((self.getpos(), written, {k: v or "" for k, v in attrs}))

    handle_startendtag = handle_starttag
