"""The SVG allow-list's fast path, for plain drawings: the same bytes, without a tree.

Most SVG images are plain: ASCII, no entities, comments, DOCTYPE or
namespaced names, and only drawing elements with allow-listed presentation
attributes whose values hold nothing CSS could use to load or run. For such
a file the cleaned document can be written straight from the source bytes:
``plain_svg`` checks well-formedness with expat (the parser ElementTree
uses, with the same namespace processing), then copies each kept tag with
its attributes normalised and drops editor metadata and titles with the text
that follows them up to the next tag, as ``ElementTree.remove`` does.

It refuses nothing itself: anything outside that subset (a refused or
``<style>`` element, an attribute off the plain list, a suspicious value, a
character that would need escaping) returns None, and the full allow-list
in ``_svg_safety`` judges the file, so every refusal and every message
comes from one place. ``tests/perf/test_svg_plain.py`` checks on generated
and hostile SVGs that whatever this returns is what the full path writes.
"""

from __future__ import annotations

import functools
import re
from xml.parsers import expat

from ankigen.render._svg_allowlist import ELEMENTS, PLAIN_ATTRIBUTES, REFUSED_ELEMENTS, SVG
from ankigen.render._svg_css import css_problem

#: What ``ET.tostring(..., encoding="utf-8", xml_declaration=True)`` writes first.
XML_DECLARATION = b"<?xml version='1.0' encoding='utf-8'?>\n"

_KEPT = frozenset(name.encode() for name in ELEMENTS if name != "style")
#: Elements the fast path leaves to the full allow-list.
_JUDGED = frozenset(name.encode() for name in (*REFUSED_ELEMENTS, "style"))
_PLAIN = frozenset(name.encode() for name in PLAIN_ATTRIBUTES)
_XMLNS = b' xmlns="' + SVG.encode() + b'"'
_PROLOG = re.compile(rb"<\?xml[ \t\n](?:[^?]|\?(?!>))*\?>")
_OTHER_ENCODING = re.compile(rb"encoding[ \t\n]*=[ \t\n]*[\"'](?![Uu][Tt][Ff]-8[\"'])")
#: A double-quoted attribute value (it never holds "<" or ">": see ``_plain_start``).
_VALUE = re.compile(rb'="[^"<>]*"')
#: A tag once its values are gone: written as ElementTree writes it, or not plain.
_SHAPE = re.compile(rb"/?[A-Za-z_][-A-Za-z0-9_.]*((?: [A-Za-z_][-A-Za-z0-9_.]*)*)/?")
#: A value the CSS check would look at (``_svg_css.CSS_SUSPECT``), or one
#: with white space the parser turns into spaces.
_JUDGED_VALUE = re.compile(rb'="([^"<>]*(?:[@(:\\\t\n]|-moz-binding)[^"<>]*)"')
#: A value that is a transform of numbers alone (MathJax writes one on most elements):
#: functions ``css_problem`` allows, and nothing else it looks at.
_TRANSFORM_VALUE = re.compile(rb'="(?:(?:translate|scale|matrix|rotate)\([-0-9., e]*\) ?)+"')
#: Without one of these, ``_JUDGED_VALUE`` cannot match.
_JUDGED_CHARACTERS = (b"@", b"(", b":", b"\\", b"\t", b"\n", b"-moz-binding")


def plain_svg(data: bytes) -> bytes | None:
    """The cleaned bytes ``sanitise_svg`` would give, for a plain SVG; else None."""
    start = _plain_start(data)
    if start is None:
        return None
    root_end = data.find(b">", start)
    root = data[start + 1 : root_end]
    attributes = root.replace(_XMLNS, b"", 1)
    rest = data[root_end + 1 :]
    if attributes == root or not _plain_root(attributes):
        return None
    names = _plain_tags(attributes, rest)
    if names is None or not _well_formed(data):
        return None
    head = XML_DECLARATION + b"<svg" + _XMLNS
    if attributes.endswith(b"/"):
        return head + attributes[3:-1] + b" />"
    return _written(head + attributes[3:], rest, names)


def _plain_start(data: bytes) -> int | None:
    """Where the root element starts, when the bytes are in the plain subset so far.

    Plain bytes hold no ``<`` and no ``>`` but in tags (the counts agree), and
    their only namespace is the root's.
    """
    if not data.isascii() or b"&" in data or b"<!" in data or b"\r" in data:
        return None
    start = 0
    prolog = _PROLOG.match(data)
    if prolog is not None:
        if _OTHER_ENCODING.search(prolog.group()):
            return None  # the bytes would be read in another encoding
        start = prolog.end()
    if b"<?" in data[start:] or data.count(b"xmlns") != 1:
        return None  # processing instructions, or a namespace beyond the root's
    if data.count(b"<") != data.count(b">"):
        return None
    while start < len(data) and data[start] in b" \t\n":
        start += 1
    return start if data.startswith(b"<svg", start) else None


def _plain_root(attributes: bytes) -> bool:
    """True when the root element is ``<svg>`` itself (not ``<svgx>`` or ``<svg-1>``)."""
    return attributes == b"svg" or attributes.startswith((b"svg ", b"svg/"))


def _plain_tags(root: bytes, rest: bytes) -> set[bytes] | None:
    """The names of the start tags after the root, when every tag is written as
    ElementTree writes it, with plain attributes only; else None."""
    if not (_values_pass(root) and _values_pass(rest)):
        return None
    bodies = {part.partition(b">")[0] for part in _VALUE.sub(b"", rest).split(b"<")[1:]}
    for body in (*bodies, _VALUE.sub(b"", root)):
        shape = _SHAPE.fullmatch(body)
        if shape is None or not _PLAIN.issuperset(shape.group(1).split()):
            return None
    return {b.partition(b" ")[0].removesuffix(b"/") for b in bodies if not b.startswith(b"/")}


def _values_pass(text: bytes) -> bool:
    """True when every attribute value in the text is kept as it is by the full path.

    A value the CSS check looks at (a transform's ``translate(…)``, as every
    MathJax drawing has) passes when ``css_problem``, the full path's own check,
    finds nothing in it; one with white space the parser turns into spaces
    never does. Most text holds none of the characters ``_JUDGED_VALUE`` looks
    for, which a few substring tests tell faster than the pattern (newlines
    that end the text after a ``>`` cannot be in a value).
    """
    # A transform of numbers would pass: it is judged no further.
    text = _TRANSFORM_VALUE.sub(b'=""', text)
    body = text.rstrip(b"\n")
    at_tag_end = body == text or body.endswith(b">")
    if at_tag_end and not any(character in body for character in _JUDGED_CHARACTERS):
        return True
    for value in set(_JUDGED_VALUE.findall(text)):
        if b"\t" in value or b"\n" in value or css_problem(value.decode("ascii")) is not None:
            return False
    return True


def _well_formed(data: bytes) -> bool:
    """True when ElementTree's parser reads the bytes without an error."""
    parser = expat.ParserCreate(namespace_separator="}")
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        return False
    return True


def _written(head: bytes, rest: bytes, names: set[bytes]) -> bytes | None:
    """The cleaned document: the root's start tag, then every kept node after it, in order.

    ``names`` are the names of the start tags in ``rest``.
    """
    if names.isdisjoint(_JUDGED):
        flat = _flat(head, rest, names - _KEPT)
        if flat is not None:
            return flat
    return _walked(head, rest)


def _flat(head: bytes, rest: bytes, dropped: set[bytes]) -> bytes | None:
    """The cleaned document written with a few byte replacements, or None: walk it instead.

    Applies when every dropped element (a title, say) holds text only and no
    element is left with nothing inside. Then ElementTree's output is the
    source with those elements cut out with the text after them, the root's
    tail gone, and ``" />"`` for ``"/>"`` (no value and no text holds ``>``
    in a plain document).
    """
    # Each name is judged on the source as it is, so whether a dropped element
    # nested in another counts does not hang on the order a set is walked in.
    for name in dropped:
        if _has_start_tag(name, _dropped_leaf(name).sub(b"", rest)):
            return None  # a dropped element with elements inside
    for name in dropped:
        rest = _dropped_leaf(name).sub(b"", rest)
    if rest.startswith(b"</") or rest.count(b"></") != rest.count(b"/></"):
        return None  # an element with nothing inside: ElementTree writes "<g />"
    return head + b">" + rest[: rest.rfind(b">") + 1].replace(b"/>", b" />")


def _has_start_tag(name: bytes, text: bytes) -> bool:
    """True when ``text`` still holds a start tag of the element ``name``."""
    return any(b"<" + name + end in text for end in (b" ", b"/", b">"))


@functools.lru_cache(maxsize=64)
def _dropped_leaf(name: bytes) -> re.Pattern[bytes]:
    """An element ``name`` with no element inside, and the text after it up to the next tag."""
    tag = re.escape(name)
    return re.compile(rb"<%s(?: [^>]*)?(?:/>|>[^<]*</%s>)[^<]*" % (tag, tag))


def _walked(head: bytes, rest: bytes) -> bytes | None:
    """The cleaned document, written node by node."""
    parts = rest.split(b"<")
    out = [head]
    # Where each open kept element's start tag is in ``out``; it ends with ">"
    # once the element has content (a start tag written so far never does).
    stack = [0]
    skipped = 0  # depth inside a dropped element
    if parts[0]:
        out[0] += b">"
        out.append(parts[0])  # apart: the root's start tag must still end with ">"
    for part in parts[1:]:
        body, _, text = part.partition(b">")
        closing = body.startswith(b"/")
        empty = body.endswith(b"/")
        if skipped:
            skipped += -1 if closing else (0 if empty else 1)
            continue  # the text is inside the dropped element, or its tail
        if closing:
            _close(stack.pop(), body, out)
        else:
            name = (body[:-1] if empty else body).partition(b" ")[0]
            if name not in _KEPT:
                if name in _JUDGED:
                    return None  # refused, or <style> (its CSS needs the full check)
                skipped = 0 if empty else 1
                continue  # the text is inside the dropped element, or its tail
            _open(stack[-1], out)
            if empty:
                out.append(b"<" + body[:-1] + b" />")
            else:
                out.append(b"<" + body)
                stack.append(len(out) - 1)
        if text and stack:
            _open(stack[-1], out)
            out.append(text)
    return b"".join(out)


def _open(index: int, out: list[bytes]) -> None:
    """Content follows in an open element: its start tag ends with ``>``."""
    if not out[index].endswith(b">"):
        out[index] += b">"


def _close(index: int, body: bytes, out: list[bytes]) -> None:
    """The end of an element: its end tag, or ``" />"`` when nothing was kept inside it."""
    if out[index].endswith(b">"):
        out.append(b"<" + body + b">")
    else:
        out[index] += b" />"
