"""What an image file is, decided by its bytes, never by its name.

A browser (and so Anki) sniffs an image's bytes: SVG or HTML markup saved as
``.png`` would still be read as markup somewhere. So a file ships as a raster
only when its bytes parse as one (the magic number and the minimal structure
of a PNG, JPEG, GIF or WebP, with the width and height it declares), and
anything that reads as markup is an SVG for the allow-list (``_svg_safety``)
or is refused. Its text is decoded by the encoding it declares first
(``_svg_encoding.svg_text``: a byte-order mark, UTF-16 without one, or the XML
declaration), so no encoding hides a declaration from the allow-list.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from ankigen.diagnostics import Code
from ankigen.render._svg_encoding import svg_text

__all__ = [
    "MAX_IMAGE_PIXELS",
    "MAX_IMAGE_SIDE",
    "Markup",
    "MediaProblem",
    "MediaType",
    "Raster",
    "Unknown",
    "judge_media",
    "media_type",
    "raster_problem",
]

#: The widest or tallest raster shipped, in pixels (a card is a few hundred wide).
MAX_IMAGE_SIDE = 16_384
#: The most pixels a raster may declare: decoded, 40 million RGBA pixels take 160 MB.
MAX_IMAGE_PIXELS = 40_000_000


@dataclass(frozen=True)
class Raster:
    """A raster image whose bytes parse as ``suffix`` (".png", ".jpg", ".gif", ".webp")."""

    suffix: str
    width: int
    height: int


@dataclass(frozen=True)
class Markup:
    """Text that starts with a tag once decoded: an SVG for the allow-list, or nothing."""


@dataclass(frozen=True)
class Unknown:
    """Bytes that are none of the above; ``why`` completes "image 'x' is not an image: …"."""

    why: str


MediaType = Raster | Markup | Unknown

_PNG = b"\x89PNG\r\n\x1a\n"
_GIF = (b"GIF87a", b"GIF89a")
#: JPEG markers that start a frame (SOFn) and so declare its size.
_JPEG_FRAMES = frozenset(
    {*range(0xC0, 0xC4), *range(0xC5, 0xC8), *range(0xC9, 0xCC), 0xCD, 0xCE, 0xCF}
)
#: JPEG markers without a length: TEM, RSTn, SOI, EOI.
_JPEG_ALONE = frozenset({0x01, *range(0xD0, 0xDA)})
#: PNG colour types and the bit depths each allows.
_PNG_DEPTHS = {0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}


def media_type(data: bytes) -> MediaType:
    """What the bytes are: a raster that parses, markup, or neither (and why)."""
    if data.startswith(_PNG):
        return _png(data)
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg(data)
    if data.startswith(_GIF):
        return _gif(data)
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return _webp(data)
    text = svg_text(data)  # markup in any encoding it declares
    if isinstance(text, str) and text.lstrip().startswith("<"):
        return Markup()
    return Unknown("its bytes are not a PNG, JPEG, GIF, WebP or SVG image")


@dataclass(frozen=True)
class MediaProblem:
    """Why bytes do not ship; ``message`` completes "image 'x' …" or "figure 'f' …"."""

    message: str
    code: str


_TYPE_NAMES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".webp": "WebP"}
#: (An embedded picture's ``data:image/jpeg`` names ``.jpeg``.)


def judge_media(data: bytes, named: str, *, exact: bool = False) -> Raster | Markup | MediaProblem:
    """What ``data``, in a file whose name ends in ``named``, ships as; or why it does not.

    Markup ships only from a ``.svg`` name (then the SVG allow-list judges it).
    A raster ships as the type of its bytes, within the size limit; with
    ``exact`` (a figure, drawn in the format asked for) it must be of the named type.
    """
    kind = media_type(data)
    if isinstance(kind, Unknown):
        return MediaProblem(Code.NOT_AN_IMAGE.message(why=kind.why), Code.NOT_AN_IMAGE)
    if isinstance(kind, Markup):
        if named == ".svg":
            return kind
        return MediaProblem(
            Code.MARKUP_AS_RASTER.message(named=_TYPE_NAMES.get(named, named)),
            Code.MARKUP_AS_RASTER,
        )
    if exact and _TYPE_NAMES.get(named) != _TYPE_NAMES[kind.suffix]:
        wanted = _TYPE_NAMES.get(named, "an SVG")
        return MediaProblem(
            Code.FIGURE_WRONG_FORMAT.message(found=_TYPE_NAMES[kind.suffix], wanted=wanted),
            Code.FIGURE_WRONG_FORMAT,
        )
    problem = raster_problem(kind)
    return kind if problem is None else MediaProblem(problem, Code.IMAGE_TOO_MANY_PIXELS)


def raster_problem(raster: Raster) -> str | None:
    """Why a raster's declared size is refused, or None."""
    width, height = raster.width, raster.height
    if max(width, height) > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
        return Code.IMAGE_TOO_MANY_PIXELS.message(
            width=width, height=height, side=MAX_IMAGE_SIDE, pixels=MAX_IMAGE_PIXELS
        )
    return None


# -- rasters ----------------------------------------------------------------------


def _png(data: bytes) -> MediaType:
    """Chunks from the signature to IEND, each inside the file with its CRC; IHDR first."""
    position, size, seen = len(_PNG), None, set()
    while position + 12 <= len(data):
        (length,) = struct.unpack_from(">I", data, position)
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        end = position + 12 + length
        if end > len(data) or not kind.isalpha():
            return Unknown("it is a PNG whose chunks run past its end; re-export it")
        (crc,) = struct.unpack_from(">I", data, end - 4)
        # critical chunks only (an upper-case first letter), as decoders judge them
        if kind[0] < 0x61 and zlib.crc32(kind + body) != crc:
            return Unknown("it is a PNG with a damaged chunk; re-export it")
        if size is None:
            size = _png_header(kind, body)
            if size is None:
                return Unknown("it is a PNG whose first chunk is not a valid IHDR; re-export it")
        seen.add(kind)
        if kind == b"IEND":
            if b"IDAT" not in seen:
                return Unknown("it is a PNG without image data; re-export it")
            return Raster(".png", *size)
        position = end
    return Unknown("it is a PNG without its IEND chunk (cut short); re-export it")


def _png_header(kind: bytes, body: bytes) -> tuple[int, int] | None:
    if kind != b"IHDR" or len(body) != 13:
        return None
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", body
    )
    valid = (
        0 < width < 2**31
        and 0 < height < 2**31
        and depth in _PNG_DEPTHS.get(colour, set())
        and (compression, filtering) == (0, 0)
        and interlace in (0, 1)
    )
    return (width, height) if valid else None


def _jpeg(data: bytes) -> MediaType:
    """Marker segments from SOI up to the first scan, a frame header among them, then EOI."""
    position, size = 2, None
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return Unknown("it is a JPEG whose segments are damaged; re-export it")
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        if marker in _JPEG_ALONE:
            position += 2
            continue
        (length,) = struct.unpack_from(">H", data, position + 2)
        if length < 2 or position + 2 + length > len(data):
            return Unknown("it is a JPEG whose segments run past its end; re-export it")
        if marker in _JPEG_FRAMES:
            if length < 8:
                return Unknown("it is a JPEG with a damaged frame header; re-export it")
            height, width = struct.unpack_from(">HH", data, position + 5)
            size = (width, height)
        if marker == 0xDA:  # start of scan: the picture's data follows
            if size is None or 0 in size:
                return Unknown("it is a JPEG without a frame size before its data; re-export it")
            if data.rfind(b"\xff\xd9") < position:
                return Unknown("it is a JPEG without its end marker (cut short); re-export it")
            return Raster(".jpg", *size)
        position += 2 + length
    return Unknown("it is a JPEG without image data; re-export it")


def _gif(data: bytes) -> MediaType:
    """The logical screen, then blocks (extensions and images) up to the trailer."""
    if len(data) < 13:
        return Unknown("it is a GIF cut short; re-export it")
    width, height, packed = struct.unpack_from("<HHB", data, 6)
    position = 13 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
    images = 0
    while position < len(data):
        block = data[position]
        if block == 0x3B:  # trailer
            if not images or 0 in (width, height):
                return Unknown("it is a GIF without an image; re-export it")
            return Raster(".gif", width, height)
        if block == 0x21:  # extension: label, then sub-blocks
            position = _gif_sub_blocks(data, position + 2)
        elif block == 0x2C:  # image: descriptor, local colour table, LZW size, sub-blocks
            if position + 10 > len(data):
                break
            flags = data[position + 9]
            position += 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
            position = _gif_sub_blocks(data, position + 1)
            images += 1
        else:
            return Unknown("it is a GIF with an unknown block; re-export it")
        if position < 0:
            break
    return Unknown("it is a GIF without its trailer (cut short); re-export it")


def _gif_sub_blocks(data: bytes, position: int) -> int:
    """Where the sub-blocks starting at ``position`` end (-1: past the end of the file)."""
    while position < len(data):
        size = data[position]
        position += 1 + size
        if size == 0:
            return position
    return -1


def _webp(data: bytes) -> MediaType:
    """A RIFF container of the file's length whose first chunk is VP8, VP8L or VP8X."""
    (riff,) = struct.unpack_from("<I", data, 4)
    if riff + 8 != len(data) or len(data) < 30:
        return Unknown("it is a WebP whose length is not the one it declares; re-export it")
    kind, (length,) = data[12:16], struct.unpack_from("<I", data, 16)
    body = data[20 : 20 + length]
    if len(body) != length:
        return Unknown("it is a WebP whose first chunk runs past its end; re-export it")
    size: tuple[int, int] | None = None
    if kind == b"VP8 " and length >= 10 and body[3:6] == b"\x9d\x01\x2a":
        width, height = struct.unpack_from("<HH", body, 6)
        size = (width & 0x3FFF, height & 0x3FFF)
    elif kind == b"VP8L" and length >= 5 and body[0] == 0x2F:
        (bits,) = struct.unpack_from("<I", body, 1)
        size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    elif kind == b"VP8X" and length >= 10:
        width = int.from_bytes(body[4:7], "little") + 1
        height = int.from_bytes(body[7:10], "little") + 1
        size = (width, height)
    if size is None or 0 in size:
        return Unknown("it is a WebP without a valid first chunk; re-export it")
    return Raster(".webp", *size)
