"""SVG images from content, rewritten to an allow-list before they ship.

An SVG is a document, not a picture: it can hold scripts, event handlers,
``foreignObject`` HTML, links, animations that rewrite links, and references
to other files or the network. An image file in content is untrusted, so
``sanitise_svg`` keeps only drawing elements and presentation attributes,
drops editor metadata (Inkscape, Sodipodi, RDF), and refuses outright, with a
reason, anything that could run, link, or load: the author gets a FILE:LINE
error instead of a silently different picture.

The bytes are first decoded by the encoding they declare (``_svg_encoding.svg_text``)
and judged as UTF-8, so a UTF-16 file hides no DOCTYPE or entity declaration.
CSS (``<style>`` and ``style=``) may call only a few harmless functions
(colours, transforms, ``url(#id)`` inside the file), has no at-rule
(``@import`` in any case) and no escape, after its comments are read as the
spaces they are; anything else is refused.
"""

from __future__ import annotations

import binascii
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ankigen.render._media_type import MediaProblem, judge_media
from ankigen.render._svg_allowlist import ATTRIBUTES as _ATTRIBUTES
from ankigen.render._svg_allowlist import ELEMENTS as _ELEMENTS
from ankigen.render._svg_allowlist import PLAIN_ATTRIBUTES as _PLAIN_KEPT
from ankigen.render._svg_allowlist import REFUSED_ELEMENTS as _REFUSED_ELEMENTS
from ankigen.render._svg_allowlist import SVG as SVG
from ankigen.render._svg_allowlist import XLINK as XLINK
from ankigen.render._svg_css import CSS_SUSPECT, css_problem
from ankigen.render._svg_encoding import Undecodable, declared_encoding, svg_text
from ankigen.render._svg_plain import plain_svg

_SVG_PREFIX = f"{{{SVG}}}"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)

#: Entity declarations (expanding ones make an "XML bomb") and DOCTYPEs with an
#: internal subset. A bare ``<!DOCTYPE svg PUBLIC …>``, as matplotlib writes, is
#: harmless: the parser never fetches the DTD, and the output drops it.
_DECLARATIONS = re.compile(rb"<!ENTITY|<!DOCTYPE[^>\[]*\[", re.IGNORECASE)
#: A raster picture embedded in the SVG (matplotlib's imshow writes these).
_RASTER = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$")

#: What ``ET.tostring(..., encoding="utf-8", xml_declaration=True)`` writes first.
_XML_DECLARATION = "<?xml version='1.0' encoding='utf-8'?>\n"

#: The start of a document that is not plain UTF-8: a byte-order mark, UTF-16/32
#: without one, or an XML declaration (which may name another encoding).
_NOT_PLAIN_UTF8 = re.compile(rb"^(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff|\x00|.\x00|<\?xml)", re.DOTALL)
_XML_DECLARATION_TEXT = re.compile(r"^<\?xml[^>]*\?>")


@dataclass(frozen=True)
class CleanSvg:
    """An SVG rewritten to the allow-list: safe to ship."""

    data: bytes


@dataclass(frozen=True)
class RefusedSvg:
    """An SVG that cannot be shipped; ``reason`` completes "SVG image 'x' …"."""

    reason: str


#: What the allow-list makes of an SVG.
SvgResult = CleanSvg | RefusedSvg


class _Refused(Exception):
    """An SVG construct that could run, link or load."""


def sanitise_svg(data: bytes) -> SvgResult:
    """The SVG rewritten to the allow-list, or a problem naming what was refused."""
    data_or_refusal = _as_utf8(data)
    if isinstance(data_or_refusal, RefusedSvg):
        return data_or_refusal
    data = data_or_refusal
    if _DECLARATIONS.search(data):
        return RefusedSvg("holds a DOCTYPE or entity declaration; save it as plain SVG")
    plain = plain_svg(data)
    if plain is not None:  # a plain drawing: the bytes below, written without a tree
        return CleanSvg(plain)
    return _sanitised_tree(data)


def _as_utf8(data: bytes) -> bytes | RefusedSvg:
    """The document as UTF-8 bytes, decoded by the encoding it declares.

    Plain UTF-8 (no mark, no declaration) is returned as it is; anything else is
    decoded and written again as UTF-8 without its declaration, so every check
    after this one reads the characters the parser will read.
    """
    if _NOT_PLAIN_UTF8.match(data) is None:
        return data
    text = svg_text(data)
    if isinstance(text, Undecodable):
        return RefusedSvg(f"cannot be read: {text.why}")
    if data.startswith(b"<?xml") and declared_encoding(data) in (None, "utf-8"):
        return data  # UTF-8 as declared: the bytes are the text
    return _XML_DECLARATION_TEXT.sub("", text, count=1).encode("utf-8", "surrogatepass")


def _sanitised_tree(data: bytes) -> SvgResult:
    """The full allow-list: parse, check and prune the tree, write what is left."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        return RefusedSvg(f"is not well-formed SVG ({exc}); re-export it")
    if root.tag != f"{{{SVG}}}svg":
        return RefusedSvg("is not an SVG document (its root element is not <svg>)")
    try:
        _clean(root)
    except _Refused as exc:
        return RefusedSvg(f"is refused: {exc}; remove it from the SVG")
    # The bytes of ET.tostring(root, encoding="utf-8", xml_declaration=True), written
    # to a string first: ElementTree's byte writer pays for an encoder call per piece.
    text = _serialised(root)
    if text is None:  # something _serialised does not write: ElementTree's own writer
        text = ET.tostring(root, encoding="unicode")
    return CleanSvg((_XML_DECLARATION + text).encode("utf-8"))


def _clean(element: ET.Element) -> None:
    """Check and prune ``element``'s attributes and children, recursively."""
    _clean_attributes(element)
    if _local(element.tag) == "style":
        _check_style(element)
    for child in list(element):
        if not isinstance(child.tag, str):
            element.remove(child)  # comments and processing instructions
            continue
        name = _local(child.tag)
        if name == "image" and _is_raster(child):
            _clean_attributes(child, raster=True)
            _drop_content(child)
            continue
        if name in _REFUSED_ELEMENTS:
            raise _Refused(f"it holds a <{name}> element, which can run, link or load")
        if not child.tag.startswith(_SVG_PREFIX) or name not in _ELEMENTS:
            element.remove(child)  # editor metadata, titles, unknown elements
            continue
        _clean(child)


def _drop_content(image: ET.Element) -> None:
    """Judge what is inside an embedded picture as anywhere else, then drop it.

    A picture has no content, but a browser still runs a script, or a ``<set>``
    that rewrites the picture's ``href``, written inside it where the SVG is
    opened as a document: each is refused as it would be elsewhere, and the
    rest (text, titles) is dropped.
    """
    for inner in image:
        if not isinstance(inner.tag, str):
            continue
        name = _local(inner.tag)
        if name in _REFUSED_ELEMENTS:
            raise _Refused(f"it holds a <{name}> element, which can run, link or load")
        _clean(inner)
    image.text = None
    for inner in list(image):
        image.remove(inner)


def _is_raster(image: ET.Element) -> bool:
    """True for an ``<image>`` whose only picture is an embedded PNG, JPEG, GIF or WebP.

    The embedded bytes are judged as an image file's are: they must parse as
    the type the URL names, within the size limit (else the SVG is refused).
    """
    hrefs = [v for k, v in image.attrib.items() if _local(k) == "href"]
    found = _RASTER.match(hrefs[0]) if len(hrefs) == 1 else None
    if found is None:
        return False
    try:
        data = binascii.a2b_base64("".join(hrefs[0].split(",", 1)[1].split()))
    except binascii.Error as exc:
        raise _Refused("an embedded picture whose base64 cannot be read") from exc
    kind = judge_media(data, f".{found.group(1)}", exact=True)
    if isinstance(kind, MediaProblem):
        raise _Refused(f"an embedded {found.group(1).upper()} picture that {kind.message}")
    return True


def _clean_attributes(element: ET.Element, *, raster: bool = False) -> None:
    attributes = element.attrib
    for key, value in list(attributes.items()):
        if key in _PLAIN_KEPT and CSS_SUSPECT.search(value) is None:
            continue  # the common case: a kept presentation attribute with a plain value
        name = _local(key) if "}" in key else key
        if name.lower().startswith("on"):
            raise _Refused(f"the event handler {name}= on <{_local(element.tag)}>")
        namespace_ok = not key.startswith("{") or key.startswith(f"{{{XLINK}}}")
        if not namespace_ok or name not in _ATTRIBUTES:
            del attributes[key]
            continue
        if name == "href" and raster:
            continue  # checked by _is_raster: an embedded picture, not a reference
        if name == "href" and not value.strip().startswith("#"):
            raise _Refused(f"the reference href={value[:60]!r}: only '#id' inside the file is kept")
        if CSS_SUSPECT.search(value) is not None:  # most values are numbers and colours
            _check_css(value, f"{name}= on <{_local(element.tag)}>")


def _check_style(style: ET.Element) -> None:
    """Refuse a ``<style>`` element whose CSS imports, scripts or points outside the file.

    A browser reads all of the element's own text as CSS, the text after a
    child element too, so an element inside ``<style>`` is refused: it would
    hide the CSS after it from a check of the first text alone.
    """
    for child in style:
        if isinstance(child.tag, str):
            raise _Refused(f"a <style> element holds a <{_local(child.tag)}> element")
    text = (style.text or "") + "".join(child.tail or "" for child in style)
    _check_css(text, "a <style> element")


def _check_css(text: str, where: str) -> None:
    """Refuse CSS or attribute text that imports, scripts, or points outside the file."""
    problem = css_problem(text)
    if problem is not None:
        raise _Refused(f"{where} {problem}")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


# --- writing the cleaned tree ---------------------------------------------------
#
# ElementTree's serialiser, specialised to what _clean leaves (SVG elements,
# plain or xlink attributes, text): the same characters, about twice as fast.
# Anything else (an element outside the SVG namespace)
# makes it give up, and ElementTree writes the tree.

_XLINK_PREFIX = f"{{{XLINK}}}"


class _Unusual(Exception):
    """A node the specialised writer does not handle."""


def _serialised(root: ET.Element) -> str | None:
    """``ET.tostring(root, encoding="unicode")`` for a cleaned tree, or None."""
    out: list[str] = []
    try:
        uses_xlink = _write(root, out)
    except _Unusual:
        return None
    # ElementTree declares every namespace on the root, sorted by prefix.
    declarations = f' xmlns="{SVG}"' + (f' xmlns:xlink="{XLINK}"' if uses_xlink else "")
    out[0] += declarations
    return "".join(out)


def _write(element: ET.Element, out: list[str]) -> bool:
    """Append ``element`` as ElementTree writes it; True when it uses the xlink namespace."""
    tag = element.tag
    if not isinstance(tag, str) or not tag.startswith(_SVG_PREFIX):
        raise _Unusual
    name = tag[len(_SVG_PREFIX) :]
    uses_xlink = False
    out.append("<" + name)
    for key, value in element.items():
        if key.startswith("{"):
            if not key.startswith(_XLINK_PREFIX):
                raise _Unusual
            key = "xlink:" + key[len(_XLINK_PREFIX) :]
            uses_xlink = True
        out.append(f' {key}="{_escape_attribute(value)}"')
    text = element.text
    if text or len(element):
        out.append(">")
        if text:
            out.append(_escape_text(text))
        for child in element:
            uses_xlink = _write(child, out) or uses_xlink
        out.append(f"</{name}>")
    else:
        out.append(" />")
    if element.tail:
        out.append(_escape_text(element.tail))
    return uses_xlink


def _escape_text(text: str) -> str:
    """Character data, escaped as ElementTree does."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _escape_attribute(text: str) -> str:
    """An attribute value, escaped as ElementTree does (white space as references)."""
    text = _escape_text(text)
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    if "\n" in text:
        text = text.replace("\n", "&#10;")
    if "\t" in text:
        text = text.replace("\t", "&#09;")
    return text
