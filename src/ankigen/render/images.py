"""Image files referenced by content: resolved safely inside the content root."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from ankigen.paths import display_path
from ankigen.render.media import MediaCache, MediaFile, content_hash
from ankigen.render.svg_safety import sanitise_svg

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}
_MAX_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class ImageResult:
    """A shipped image, or the reason it cannot be shipped."""

    media: MediaFile | None
    problem: str | None = None
    source: Path | None = None
    code: str = ""


def ship_image(target: str, content_file: Path, root: Path, cache: MediaCache) -> ImageResult:
    """Copy an image next to the deck's media under a collision-free name.

    The path must be relative, stay inside the content root once symlinks
    are resolved, and name an existing image file: content is untrusted and
    may not pull in files from elsewhere on the machine.
    """
    if _SCHEME.match(target) or target.startswith("//"):
        return ImageResult(
            None,
            f"image '{target}' is a URL; put the file next to the content and use a relative path",
        )
    relative = unquote(target)
    if not relative:
        return ImageResult(None, "image has no path")
    if Path(relative).is_absolute() or relative.startswith("\\"):
        return ImageResult(
            None, f"image path '{relative}' is absolute; use a path relative to the content file"
        )
    resolved = (content_file.parent / relative).resolve()
    if not resolved.is_relative_to(root.resolve()):
        return ImageResult(
            None, f"image path '{relative}' leaves the content folder '{display_path(root)}'"
        )
    if not resolved.is_file():
        return ImageResult(None, f"image file '{relative}' not found")
    suffix = resolved.suffix.lower()
    if suffix not in _EXTENSIONS:
        return ImageResult(
            None,
            f"image '{relative}' is not a supported image type ({', '.join(sorted(_EXTENSIONS))})",
        )
    data = resolved.read_bytes()
    if len(data) > _MAX_BYTES:
        return ImageResult(None, f"image '{relative}' is larger than 20 MB")
    if suffix == ".svg":
        cleaned = sanitise_svg(data)
        if cleaned.data is None:
            return ImageResult(None, f"SVG image '{relative}' {cleaned.problem}", code="AG602")
        data = cleaned.data
    name = f"ag-img-{content_hash(data)}{suffix}"
    if cache.has(name):
        return ImageResult(cache.get(name), source=resolved)
    return ImageResult(cache.put(name, data), source=resolved)
