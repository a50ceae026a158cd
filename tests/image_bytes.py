"""Small, valid raster images for tests, and rasters that declare a huge size."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def png(width: int = 1, height: int = 1, *, declared: tuple[int, int] | None = None) -> bytes:
    """A valid RGBA PNG; with ``declared``, its header claims that size instead."""
    rows = b"".join(b"\x00" + b"\x00\x00\x00\x00" * width for _ in range(height))
    shown = declared or (width, height)
    header = struct.pack(">IIBBBBB", *shown, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


def pillow(kind: str, width: int = 2, height: int = 2) -> bytes:
    """An image written by Pillow: ``JPEG``, ``GIF``, ``WEBP`` or ``PNG``."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format=kind)
    return buffer.getvalue()


def gif_declaring(width: int, height: int) -> bytes:
    """A GIF whose logical screen claims ``width`` x ``height`` (its one image is 1 x 1)."""
    small = pillow("GIF", 1, 1)
    return small[:6] + struct.pack("<HH", width, height) + small[10:]


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_of_size(total: int) -> bytes:
    """A valid 1 x 1 PNG of exactly ``total`` bytes, padded by an ancillary chunk."""
    small = png()
    padding = total - len(small) - 12
    ihdr_end = 8 + 25
    pad = b"\x00" * padding
    return small[:ihdr_end] + _chunk(b"prVt", pad) + small[ihdr_end:]
