"""Image files referenced by content: resolved safely inside the content root."""

from __future__ import annotations

import functools
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ankigen.build.paths import display_path
from ankigen.diagnostics import Code
from ankigen.model import MediaFile
from ankigen.render._media import (
    MediaCache,
    Place,
    Shipped,
    ShipResult,
    content_hash,
)
from ankigen.render._media_type import MediaProblem, Raster, judge_media
from ankigen.render._nearest import nearest_image
from ankigen.render._svg_safety import RefusedSvg, sanitise_svg
from ankigen.render._svg_store import SvgStore, svg_name

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}
#: The raster type each extension names (``_media_type.Raster.suffix``).
_SUFFIXES = {".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg", ".gif": ".gif", ".webp": ".webp"}
#: Largest image shipped: Anki syncs every media file to every device of a learner.
MAX_IMAGE_BYTES = 20 * 1024 * 1024
#: Used when the file system does not say how long a file name may be.
_NAME_MAX = 255
_PATH_MAX = 4096
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows, which has no such symlinks
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


@dataclass
class Folders:
    """Which folders are known to be inside the content root, once resolved.

    One per deck: a reference in a folder already resolved costs one ``lstat``
    instead of resolving every component of its path again.
    """

    root: Path
    _resolved_root: Path | None = None
    _inside: dict[Path, Path | None] = field(default_factory=dict)

    def inside(self, folder: Path) -> Path | None:
        """``folder`` with symlinks resolved, when that is inside the content root; else None."""
        if folder in self._inside:
            return self._inside[folder]
        if self._resolved_root is None:
            self._resolved_root = self.root.resolve()
        resolved = folder.resolve()
        known = resolved if resolved.is_relative_to(self._resolved_root) else None
        self._inside[folder] = known
        return known


def ship_image(
    target: str,
    content_file: Path,
    root: Path,
    cache: MediaCache,
    *,
    place: Place,
    folders: Folders | None = None,
    store: SvgStore | None = None,
) -> ShipResult:
    """Ship an image under a collision-free name made from its bytes.

    The path must be relative, stay inside the content root once symlinks
    are resolved, and name an existing image file: content is untrusted and
    may not pull in files from elsewhere on the machine. A raster image is
    shipped from where it is; an SVG is shipped as its sanitised bytes, held in
    memory (``MediaCache.hold``). With ``folders``, a file in a folder already
    resolved costs one ``lstat``; with a ``store``, an unchanged SVG is not read.
    A failure is an error at ``place``, the reference.
    """
    if _SCHEME.match(target) or target.startswith("//"):
        return place.failed(Code.IMAGE_URL.message(target=target), code=Code.IMAGE_URL)
    relative = unquote(target)
    if not relative:
        return place.failed(Code.IMAGE_NO_PATH.message(), code=Code.IMAGE_NO_PATH)
    if Path(relative).is_absolute() or relative.startswith("\\"):
        return place.failed(
            Code.IMAGE_ABSOLUTE_PATH.message(path=relative), code=Code.IMAGE_ABSOLUTE_PATH
        )
    name_problem = _name_problem(target, relative, root)
    if name_problem is not None:
        return place.failed(name_problem, code=Code.IMAGE_NAME_INVALID)
    try:
        path = content_file.parent / relative
        return _ship_file(relative, path, root, cache, folders, place, store)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        message = Code.IMAGE_UNREADABLE.message(image=_shown(relative), reason=reason)
        return place.failed(message, code=Code.IMAGE_UNREADABLE)
    except RuntimeError:  # pathlib's report of a symbolic link loop
        message = Code.IMAGE_LINK_LOOP.message(image=_shown(relative))
        return place.failed(message, code=Code.IMAGE_LINK_LOOP)


def _ship_file(
    relative: str,
    path: Path,
    root: Path,
    cache: MediaCache,
    folders: Folders | None,
    place: Place,
    store: SvgStore | None,
) -> ShipResult:
    """Judge the file a (well-formed) relative path names, and ship it."""
    plain = _plain_file(path, folders)
    if plain is not None:
        return _ship_resolved(relative, *plain, cache, place, store)
    resolved = path.resolve()
    if not resolved.is_relative_to(root.resolve()):
        return place.failed(
            Code.IMAGE_OUTSIDE_CONTENT.message(path=relative, folder=display_path(root)),
            code=Code.IMAGE_OUTSIDE_CONTENT,
        )
    if not resolved.is_file():
        return place.failed(_not_found(relative, path, root), code=Code.IMAGE_NOT_FOUND)
    return _ship_resolved(relative, resolved, resolved.stat(), cache, place, store)


def _not_found(relative: str, path: Path, root: Path) -> str:
    """The message for a missing image: where it was looked for, and the likely fix."""
    content_dir = path.parents[len(Path(relative).parts) - 1]  # path is content_dir / relative
    near = nearest_image(relative, content_dir, root, _EXTENSIONS)
    hint = (
        f"did you mean '{near}'?"
        if near is not None
        else "correct the path, relative to the content file's folder"
    )
    return Code.IMAGE_NOT_FOUND.message(image=_shown(relative), path=display_path(path), hint=hint)


def _plain_file(candidate: Path, folders: Folders | None) -> tuple[Path, os.stat_result] | None:
    """The candidate and its ``lstat``, when it is a regular file (no symlink) in a folder
    inside the root.

    None means "take the slow path": every other case (symlinks, missing files,
    ``..`` at the end) is decided there, with its own message.
    """
    if folders is None or candidate.name in ("", ".", ".."):
        return None
    folder = folders.inside(candidate.parent)
    if folder is None:
        return None
    try:
        status = os.lstat(candidate)
    except OSError:
        return None
    # Not a symlink, in a resolved folder: this is the path resolve() would give.
    return (folder / candidate.name, status) if stat.S_ISREG(status.st_mode) else None


def _ship_resolved(
    relative: str,
    resolved: Path,
    status: os.stat_result,
    cache: MediaCache,
    place: Place,
    store: SvgStore | None,
) -> ShipResult:
    """Judge a resolved regular file inside the root: type, size, and SVG safety.

    ``status`` is the file's ``stat``; with a ``store``, an SVG whose file still
    has the identity it had when the last build read it ships its stored
    sanitised bytes without being read again.
    """
    suffix = resolved.suffix.lower()
    if suffix not in _EXTENSIONS:
        return place.failed(
            Code.IMAGE_TYPE.message(image=relative, types=", ".join(sorted(_EXTENSIONS))),
            code=Code.IMAGE_TYPE,
        )
    # Judge the size before reading: a sparse file can claim gigabytes it never stored.
    if status.st_size > MAX_IMAGE_BYTES:
        return _too_large(relative, place)
    if suffix == ".svg" and store is not None:
        stored = store.get(resolved, status)
        if stored is not None:
            return Shipped(stored, resolved)
    data, before, after = _read(resolved)
    if len(data) > MAX_IMAGE_BYTES:
        return _too_large(relative, place)
    kind = judge_media(data, suffix)  # by the bytes: the name may say anything
    if isinstance(kind, MediaProblem):
        return place.failed(f"image '{relative}' {kind.message}", code=kind.code)
    if isinstance(kind, Raster):
        # Shipped from where it is: no copy into the cache (packaging reads it there).
        shipped = suffix if _SUFFIXES.get(suffix) == kind.suffix else kind.suffix
        return Shipped(MediaFile(f"ag-img-{content_hash(data)}{shipped}", resolved), resolved)
    cleaned = sanitise_svg(data)
    if isinstance(cleaned, RefusedSvg):
        message = Code.UNSAFE_SVG.message(what=f"SVG image '{relative}'", reason=cleaned.reason)
        return place.failed(message, code=Code.UNSAFE_SVG)
    media = cache.hold(svg_name(cleaned.data), cleaned.data)
    if store is not None:
        store.put(resolved, before, after, media)
    return Shipped(media, resolved)


def _read(path: Path) -> tuple[bytes, os.stat_result, os.stat_result]:
    """The file's bytes (up to one past the limit), and its ``fstat`` before and after.

    The file is opened without following a symlink: one put in place of the
    file since it was judged fails here instead of being read.
    """
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    try:
        before = os.fstat(fd)
        chunks: list[bytes] = []
        read = 0
        # Ask for what fstat promised and one byte more, then whatever the file
        # grew by since, up to the limit; stop at the end of the file.
        while read <= MAX_IMAGE_BYTES:
            wanted = before.st_size + 1 - read if read <= before.st_size else MAX_IMAGE_BYTES
            chunk = os.read(fd, min(wanted, MAX_IMAGE_BYTES + 1 - read))
            if not chunk:
                break
            chunks.append(chunk)
            read += len(chunk)
            if read == before.st_size:
                break  # all it promised, and not the byte more: the end
        after = os.fstat(fd)
    finally:
        os.close(fd)
    return b"".join(chunks), before, after


def _too_large(relative: str, place: Place) -> ShipResult:
    limit = MAX_IMAGE_BYTES // (1024 * 1024)
    return place.failed(
        Code.IMAGE_TOO_LARGE.message(image=relative, limit=limit),
        code=Code.IMAGE_TOO_LARGE,
    )


def _name_problem(target: str, relative: str, root: Path) -> str | None:
    """A NUL byte, or a file name or path longer than the file system allows."""
    if "\x00" in relative:
        written = "%00" if "%00" in target else "a NUL character"
        problem = f"contains {written}; remove it from the path"
        return Code.IMAGE_NAME_INVALID.message(path=_shown(target), problem=problem)
    name_max, path_max = _name_limits(root)
    encoded = os.fsencode(relative)
    # A path no longer than a name holds no name that is too long.
    too_long = None
    if len(encoded) > name_max:
        too_long = next((p for p in Path(relative).parts if len(os.fsencode(p)) > name_max), None)
    if too_long is not None:
        problem = (
            f"has a file or folder name of {len(os.fsencode(too_long))} bytes; "
            f"this file system allows {name_max}: rename the file"
        )
        return Code.IMAGE_NAME_INVALID.message(path=_shown(relative), problem=problem)
    if len(encoded) > path_max:
        problem = f"is longer than this file system allows ({path_max} bytes)"
        return Code.IMAGE_NAME_INVALID.message(path=_shown(relative), problem=problem)
    return None


@functools.lru_cache(maxsize=16)
def _name_limits(root: Path) -> tuple[int, int]:
    """The file system's longest file name and longest path, in bytes."""
    try:
        return os.pathconf(root, "PC_NAME_MAX"), os.pathconf(root, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):  # no such setting here (Windows)
        return _NAME_MAX, _PATH_MAX


def _shown(text: str) -> str:
    """A path as quoted in a message: a very long one keeps only its ends."""
    printable = text.replace("\x00", "\\0")
    return printable if len(printable) <= 80 else f"{printable[:50]}…{printable[-20:]}"
