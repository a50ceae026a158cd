"""An SVG's text, decoded by the encoding it declares before anything judges it.

A UTF-16 file hides its DOCTYPE and entity declarations from a byte search
for ``<!ENTITY``; so every check of markup reads characters, decoded here:
a byte-order mark wins, then UTF-16/32 without one (XML 1.0, appendix F),
then the XML declaration's ``encoding``, then UTF-8.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

__all__ = ["Undecodable", "declared_encoding", "svg_text"]


@dataclass(frozen=True)
class Undecodable:
    """Text that cannot be read; ``why`` completes "image 'x' is not an image: …"."""

    why: str


#: Byte-order marks, longest first (UTF-32's LE mark starts with UTF-16's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
#: "<?" or "<s" in UTF-16 or UTF-32 without a mark (XML 1.0, appendix F).
_UNMARKED = (
    (b"\x3c\x00\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00\x3c", "utf-32-be"),
    (b"\x3c\x00", "utf-16-le"),
    (b"\x00\x3c", "utf-16-be"),
)
_DECLARED = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
#: Encodings a declaration may name (by Python's codec name); anything else is refused.
_DECLARABLE = {
    "utf-8": "utf-8",
    "ascii": "ascii",
    "latin-1": "latin-1",
    "iso8859-1": "latin-1",
    "cp1252": "cp1252",
    "utf-16": "utf-16",
    "utf-16-le": "utf-16-le",
    "utf-16-be": "utf-16-be",
    "utf-32": "utf-32",
    "utf-32-le": "utf-32-le",
    "utf-32-be": "utf-32-be",
}


def declared_encoding(data: bytes) -> str | None:
    """The encoding an XML declaration at the start names (Python's codec name), or None."""
    declared = _DECLARED.match(data[:200])
    if declared is None:
        return None
    name = declared.group(1).decode("ascii")
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name.lower()


def svg_text(data: bytes) -> str | Undecodable:
    """The document as text, decoded by the encoding it declares; why not, when it cannot be.

    A byte-order mark wins, then UTF-16/32 without one, then the XML
    declaration's ``encoding``, then UTF-8. A declared encoding that is not a
    common one (UTF-8/16/32, ASCII, Latin-1, Windows-1252) is refused: an
    exotic one (UTF-7, EBCDIC) could hide markup from every check.
    """
    encoding = next((name for mark, name in _BOMS if data.startswith(mark)), None)
    start = len(next((mark for mark, _ in _BOMS if data.startswith(mark)), b""))
    if encoding is None:
        encoding = next((name for mark, name in _UNMARKED if data.startswith(mark)), None)
    if encoding is None:
        name = declared_encoding(data)
        encoding = "utf-8"
        if name is not None:
            if name not in _DECLARABLE:
                return Undecodable(f"it declares the encoding {name!r}; save it as UTF-8")
            encoding = _DECLARABLE[name]
    try:
        return data[start:].decode(encoding)
    except UnicodeDecodeError:
        return Undecodable(f"its text is not valid {encoding.upper()}; save it as UTF-8")
