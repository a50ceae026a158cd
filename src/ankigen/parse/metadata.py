"""Per-item metadata comments: ``<!-- id: why-sync; tags: sync core; guid: Lx=a?fAjcf -->``.

``guid`` (an extension for imported decks) gives the note the GUID it had in
another deck, so re-importing the built deck updates that note in place. It
is written percent-encoded wherever a character could end the comment or the
field (``%``, ``;``, ``-``, ``<``, ``>``, white space, anything outside
printable ASCII): :func:`encode_guid` writes it, the reader decodes it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from ankigen.diagnostics import Code, Sink
from ankigen.syntax import tags as tags_syntax

_COMMENT = re.compile(r"^<!--(.*?)-->\s*$", re.DOTALL)
_FIELD = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*:(.*)$", re.DOTALL)
_KEYS = ("id", "tags", "guid")
_ID = re.compile(r"^[^\s]+$")


@dataclass(frozen=True)
class Metadata:
    """What a metadata comment sets: the stable id, extra tags and an explicit GUID."""

    note_id: str | None = None
    tags: tuple[str, ...] = ()
    #: The note's GUID as another deck gave it (decoded), or None: derived from key and id.
    guid: str | None = None


#: Characters a GUID keeps as written in a comment; the rest are percent-encoded.
_GUID_SAFE = "!#$&()*+,./:=?@[]^_`{|}~'\"\\"
_GUID_MAX = 200


def encode_guid(guid: str) -> str:
    """``guid`` as written in a metadata comment (``;``, ``-``, ``%``... percent-encoded)."""
    # quote() never encodes "-", but "--" would end the comment.
    return quote(guid, safe=_GUID_SAFE).replace("-", "%2D")


def is_comment(html: str) -> bool:
    """True when ``html`` is exactly one HTML comment."""
    return _COMMENT.match(html.strip()) is not None


def parse_comment(html: str, line: int, sink: Sink, column: int = 0) -> Metadata | None:
    """Read a comment (at ``line``, ``column``: 0 when unknown) as metadata when it has
    an ``id:`` or ``tags:`` field.

    Other comments (``<!-- TODO -->``) are not metadata: None. A metadata
    comment with an unknown field, or a tag in ankigen's own namespace, is an
    error (reported to ``sink``, and None), so a typo such as ``tag:`` does not
    pass silently.
    """
    match = _COMMENT.match(html.strip())
    if match is None:
        return None
    fields: dict[str, str] = {}
    twice: list[str] = []
    for part in match.group(1).split(";"):
        if not part.strip():
            continue
        field = _FIELD.match(part)
        if field is None:
            return None
        if field.group(1) in fields:
            twice.append(field.group(1))
        fields[field.group(1)] = field.group(2).strip()
    if not any(key in fields for key in _KEYS):
        # `<!-- tag: core -->` is a misspelt field, not a remark: say so.
        for key in fields:
            close = difflib.get_close_matches(key.lower(), _KEYS, n=1, cutoff=0.8)
            if close:
                message = Code.MISSPELT_METADATA_FIELD.message(field=key, meant=close[0])
                at, col = _place(html, _key_offset(html, key), line, column)
                sink.error(at, message, column=col, code=Code.MISSPELT_METADATA_FIELD)
                return None
        return None
    unknown = sorted(set(fields) - set(_KEYS))
    if unknown:
        message = Code.UNKNOWN_METADATA_FIELD.message(field=unknown[0])
        at, col = _place(html, _key_offset(html, unknown[0]), line, column)
        sink.error(at, message, column=col, code=Code.UNKNOWN_METADATA_FIELD)
        return None
    note_id = fields.get("id")
    if note_id is not None and not _ID.match(note_id):
        message = Code.METADATA_ID_WITH_SPACE.message(id=note_id)
        value = html.find(note_id, max(_key_offset(html, "id"), 0))
        at, col = _place(html, value, line, column)
        sink.error(at, message, column=col, code=Code.METADATA_ID_WITH_SPACE)
        return None
    for key in dict.fromkeys(twice):
        _report_twice(html, key, line, column, sink)
    tags = tuple(fields.get("tags", "").split())
    _report_commas(html, tags, line, column, sink)
    reserved = [tag for tag in tags if tags_syntax.is_reserved(tag)]
    for tag in reserved:
        _report_reserved(html, tag, line, column, sink)
    if reserved:
        return None
    written = fields.get("guid")
    guid = None if written is None else _decode_guid(written)
    if written is not None and guid is None:
        message = Code.METADATA_GUID.message(guid=written, most=_GUID_MAX)
        sink.error(line, message, column=column, code=Code.METADATA_GUID)
        return None
    return Metadata(note_id or None, tags, guid)


def _report_twice(html: str, key: str, line: int, column: int, sink: Sink) -> None:
    """AG129: a field written twice, at its second spelling (the one that counts)."""
    first = _key_offset(html, key)
    second = _key_offset(html, key, first + 1)
    at, col = _place(html, second if second >= 0 else first, line, column)
    example = " ('tags: a b')" if key == "tags" else ""
    message = Code.METADATA_FIELD_TWICE.message(field=key, example=example)
    sink.warning(at, message, column=col, code=Code.METADATA_FIELD_TWICE)


def _report_commas(html: str, tags: tuple[str, ...], line: int, column: int, sink: Sink) -> None:
    """AG144: tags written as a comma-separated list (``tags: nature, plants``)."""
    meant = " ".join(tag.strip(",") for tag in tags if tag.strip(","))
    for tag in tags:
        if tag.endswith(","):
            at, col = _place(html, html.find(tag, html.find("tags")), line, column)
            message = Code.TAG_WITH_COMMA.message(tag=tag, meant=meant)
            sink.warning(at, message, column=col, code=Code.TAG_WITH_COMMA)
            return  # one warning: its fix rewrites the whole list


def _report_reserved(html: str, tag: str, line: int, column: int, sink: Sink) -> None:
    """A reserved tag, at its own line and column inside the comment."""
    at, col = _place(html, html.find(tag, html.find("tags")), line, column)
    message = tags_syntax.reserved_message(tag)
    sink.error(at, message, column=col, code=tags_syntax.RESERVED)


def _key_offset(html: str, key: str, start: int = 0) -> int:
    """Where field ``key`` is written in the comment, from ``start`` on (-1: not found)."""
    found = re.compile(rf"(?<![\w-]){re.escape(key)}\s*:").search(html, start)
    return found.start() if found else -1


def _place(html: str, offset: int, line: int, column: int) -> tuple[int, int]:
    """The line and column of ``html[offset]``, for a comment that starts at ``line``,
    ``column`` (0 when unknown, then the column stays unknown on the comment's first
    line). An offset of -1 (not found) is the comment's start."""
    offset = max(offset, 0)
    line_start = html.rfind("\n", 0, offset) + 1
    if line_start:
        column = 1  # on a later line of the comment, counted from that line's start
    at = offset - line_start + column if column else 0
    return line + html.count("\n", 0, offset), at


def _decode_guid(written: str) -> str | None:
    """The GUID a ``guid`` field writes, or None when it writes none."""
    if not _ID.match(written):
        return None
    try:
        guid = unquote(written, errors="strict")
    except UnicodeDecodeError:
        return None
    if len(guid) > _GUID_MAX or not guid.isprintable() or " " in guid:
        return None
    return guid
