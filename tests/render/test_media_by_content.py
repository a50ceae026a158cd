"""Media by content, not by name: the bytes decide what ships, whatever the file is called.

One hostile case per way a name can lie: markup saved as a raster, a raster
cut short or declaring a huge size, an SVG in another encoding hiding its
declarations, CSS that loads in another letter case or through an escape,
and the same for what a figure script writes.
"""

from __future__ import annotations

import base64
import codecs
from pathlib import Path

import pytest

from ankigen.render import Failed, MediaCache, Place, Shipped, sanitise_svg, ship_image
from ankigen.render._figures import _ship as ship_figure
from ankigen.render._media_type import (
    MAX_IMAGE_SIDE,
    Markup,
    Raster,
    Unknown,
    media_type,
)
from ankigen.render._svg_safety import CleanSvg, RefusedSvg
from tests.image_bytes import gif_declaring, pillow, png

HERE = Place("deck.md", 3)
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><circle r="2"/></svg>'
HOSTILE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'
LAUGHS = (
    '<?xml version="1.0" encoding="UTF-16"?>\n'
    '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
    '<svg xmlns="http://www.w3.org/2000/svg"><text>&b;&b;&b;</text></svg>'
)


def _ship(tmp_path: Path, name: str, data: bytes) -> Shipped | Failed:
    root = tmp_path / "content"
    root.mkdir(exist_ok=True)
    (root / name).write_bytes(data)
    return ship_image(name, root / "deck.md", root, MediaCache(tmp_path / "cache"), place=HERE)


def _refused(result: Shipped | Failed, code: str, words: str) -> None:
    assert isinstance(result, Failed), result
    assert result.diagnostic.code == code, result.diagnostic.message
    assert words in result.diagnostic.message, result.diagnostic.message


# -- rasters are what they parse as ----------------------------------------------------


@pytest.mark.parametrize(
    ("data", "suffix", "size"),
    [
        (png(3, 2), ".png", (3, 2)),
        (pillow("PNG", 5, 4), ".png", (5, 4)),
        (pillow("JPEG", 7, 3), ".jpg", (7, 3)),
        (pillow("GIF", 2, 9), ".gif", (2, 9)),
        (pillow("WEBP", 6, 5), ".webp", (6, 5)),
    ],
)
def test_real_rasters_parse_with_their_size(
    data: bytes, suffix: str, size: tuple[int, int]
) -> None:
    assert media_type(data) == Raster(suffix, *size)


@pytest.mark.parametrize(
    "name",
    ["evil.png", "evil.gif", "evil.jpg", "evil.jpeg", "evil.webp"],
)
@pytest.mark.parametrize(
    "markup",
    [
        HOSTILE_SVG.encode(),
        b"<html><body><script>alert(1)</script></body></html>",
        b"  \n<?xml version='1.0'?>" + HOSTILE_SVG.encode(),
        codecs.BOM_UTF16_LE + HOSTILE_SVG.encode("utf-16-le"),
    ],
    ids=["svg", "html", "svg-after-space", "svg-utf16"],
)
def test_markup_under_a_raster_name_is_refused(tmp_path: Path, name: str, markup: bytes) -> None:
    _refused(_ship(tmp_path, name, markup), "AG671", "is markup")


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\x89PNG\r\n\x1a\n" + b"\0" * 16, "PNG"),  # the magic number, then nothing
        (png()[:-12], "IEND"),  # cut short
        (png()[:40] + b"\xff" + png()[41:], "PNG"),  # a damaged IDAT
        (pillow("JPEG")[:200], "JPEG"),  # no end of image
        (b"\xff\xd8\xff\xe0" + b"\0" * 30, "JPEG"),
        (pillow("GIF")[:-1], "GIF"),  # no trailer
        (b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\0" * 8, "WebP"),
        (b"MZ\x90\x00 a program", "not a PNG, JPEG, GIF, WebP or SVG"),
        (b"", "not a PNG, JPEG, GIF, WebP or SVG"),
    ],
    ids=[
        "png-magic-only",
        "png-cut",
        "png-damaged",
        "jpeg-cut",
        "jpeg-junk",
        "gif-cut",
        "webp-junk",
        "exe",
        "empty",
    ],
)
def test_bytes_that_do_not_parse_are_refused(tmp_path: Path, data: bytes, why: str) -> None:
    _refused(_ship(tmp_path, "pic.png", data), "AG670", why)


@pytest.mark.parametrize(
    "data",
    [
        png(declared=(100_000, 100_000)),
        png(declared=(MAX_IMAGE_SIDE + 1, 1)),
        gif_declaring(65_535, 65_535),
    ],
    ids=["png-10G-pixels", "png-too-wide", "gif-4G-pixels"],
)
def test_a_raster_declaring_a_huge_size_is_refused(tmp_path: Path, data: bytes) -> None:
    _refused(_ship(tmp_path, "huge.png", data), "AG672", "pixels")


def test_a_raster_ships_under_the_type_of_its_bytes(tmp_path: Path) -> None:
    """A JPEG called .png ships as .jpg; a .jpeg keeps its own spelling."""
    misnamed = _ship(tmp_path, "photo.png", pillow("JPEG"))
    assert isinstance(misnamed, Shipped) and misnamed.media.name.endswith(".jpg")
    spelled = _ship(tmp_path, "photo.jpeg", pillow("JPEG"))
    assert isinstance(spelled, Shipped) and spelled.media.name.endswith(".jpeg")
    raster_svg = _ship(tmp_path, "pic.svg", png())
    assert isinstance(raster_svg, Shipped) and raster_svg.media.name.endswith(".png")


# -- SVG decoded by its declared encoding ---------------------------------------------


@pytest.mark.parametrize(
    "encoding",
    ["utf-16-le-bom", "utf-16-be-bom", "utf-16-le", "utf-16-be", "utf-32-le-bom", "utf-8-bom"],
)
def test_declarations_in_any_encoding_are_refused(encoding: str) -> None:
    assert isinstance(media_type(_encoded(LAUGHS, encoding)), Markup)
    result = sanitise_svg(_encoded(LAUGHS, encoding))
    assert isinstance(result, RefusedSvg) and "DOCTYPE or entity" in result.reason


@pytest.mark.parametrize("encoding", ["utf-16-le-bom", "utf-16-be", "utf-32-le-bom", "utf-8-bom"])
def test_a_plain_svg_in_another_encoding_ships_as_utf8(encoding: str) -> None:
    result = sanitise_svg(_encoded('<?xml version="1.0" encoding="UTF-16"?>' + SVG, encoding))
    assert result == sanitise_svg(SVG.encode())
    assert isinstance(result, CleanSvg) and b"circle" in result.data


def test_a_handler_hidden_in_utf16_is_refused() -> None:
    result = sanitise_svg(_encoded(HOSTILE_SVG, "utf-16-le-bom"))
    assert isinstance(result, RefusedSvg) and "onload" in result.reason


@pytest.mark.parametrize(
    ("declaration", "refused"),
    [
        ('<?xml version="1.0" encoding="UTF-7"?>', "utf-7"),
        ('<?xml version="1.0" encoding="cp037"?>', "cp037"),
        ('<?xml version="1.0" encoding="no-such-thing"?>', "no-such-thing"),
    ],
)
def test_an_exotic_declared_encoding_is_refused(declaration: str, refused: str) -> None:
    result = sanitise_svg((declaration + SVG).encode())
    assert isinstance(result, RefusedSvg) and refused in result.reason


def test_latin1_as_declared() -> None:
    text = '<?xml version="1.0" encoding="ISO-8859-1"?>' + SVG.replace(
        "<circle", "<text>é</text><circle"
    )
    result = sanitise_svg(text.encode("latin-1"))
    assert isinstance(result, CleanSvg) and "é".encode() in result.data


def _encoded(text: str, encoding: str) -> bytes:
    bom = {"utf-8-bom": codecs.BOM_UTF8, "utf-16-le-bom": codecs.BOM_UTF16_LE}
    bom |= {"utf-16-be-bom": codecs.BOM_UTF16_BE, "utf-32-le-bom": codecs.BOM_UTF32_LE}
    codec = encoding.removesuffix("-bom").replace("utf-8", "utf-8")
    return bom.get(encoding, b"") + text.encode(codec)


# -- CSS in an SVG --------------------------------------------------------------------


@pytest.mark.parametrize(
    "css",
    [
        '@IMPORT "https://example.org/beacon.css";',
        '@Import url("https://example.org/b.css");',
        "@\\69mport 'x.css';",
        "@im/**/port 'x.css';",
        'rect { fill: image-set("https://example.org/b.png" 1x); }',
        'rect { fill: -webkit-image-set("b.png" 1x); }',
        "rect { fill: IMAGE-SET('b.png' 1x); }",
        "rect { fill: URL(https://example.org/b.png); }",
        "rect { fill: ur\\6c(https://example.org/b.png); }",
        "rect { fill: u/**/rl(b.png); }",
        'rect { fill: src("b.png"); }',
        "rect { fill: cross-fade(url(#a), 'b.png'); }",
        '@font-face { font-family: x; src: local("x"); }',
        "rect { -MOZ-BINDING: x; }",
        "rect { background: element(#x); }",
        "@media screen { @import 'x.css'; }",
        "@MEDIA print { rect { fill: url(https://example.org/b.png); } }",
    ],
)
@pytest.mark.parametrize("where", ["style element", "style attribute"])
def test_css_that_loads_is_refused_in_any_case_or_escape(css: str, where: str) -> None:
    if where == "style element":
        svg = f'<svg xmlns="http://www.w3.org/2000/svg"><style>{css}</style><rect/></svg>'
    else:
        inline = css.split("{", 1)[-1].rstrip("}").replace('"', "'")
        svg = f'<svg xmlns="http://www.w3.org/2000/svg"><rect style="{inline}"/></svg>'
    result = sanitise_svg(svg.encode())
    assert isinstance(result, RefusedSvg), (css, result)


@pytest.mark.parametrize(
    "css",
    [
        "*{stroke-linejoin: round; stroke-linecap: butt}",  # what matplotlib writes
        "rect { fill: rgb(10, 20, 30); clip-path: url(#c); }",
        "g { transform: translate(1px, 2px) rotate(3deg); }",
        "@media (prefers-color-scheme: dark) { rect { fill: white; } }",
    ],
)
def test_plain_css_is_kept(css: str) -> None:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg"><style>{css}</style><rect/></svg>'
    assert isinstance(sanitise_svg(svg.encode()), CleanSvg)


# -- what a figure script writes --------------------------------------------------------


@pytest.mark.parametrize(
    ("image_format", "drawn", "code"),
    [
        ("png", HOSTILE_SVG.encode(), "AG671"),
        ("png", b"<html><script>alert(1)</script></html>", "AG671"),
        ("png", png(declared=(100_000, 100_000)), "AG672"),
        ("png", pillow("JPEG"), "AG673"),
        ("svg", png(), "AG673"),
        ("svg", _encoded(HOSTILE_SVG, "utf-16-le-bom"), "AG602"),
        ("svg", _encoded(LAUGHS, "utf-16-le-bom"), "AG602"),
    ],
    ids=["svg-as-png", "html-as-png", "huge-png", "jpeg-as-png", "png-as-svg", "utf16", "laughs"],
)
def test_a_figure_is_judged_by_its_bytes(
    tmp_path: Path, image_format: str, drawn: bytes, code: str
) -> None:
    script = tmp_path / "f.py"
    script.write_text("", "utf-8")
    name = f"ag-fig-f-x.{image_format}"
    result = ship_figure("f", name, drawn, image_format, MediaCache(tmp_path), script, HERE)
    assert isinstance(result, Failed) and result.diagnostic.code == code, result
    assert not (tmp_path / name).exists()


def test_a_real_figure_png_ships(tmp_path: Path) -> None:
    script = tmp_path / "f.py"
    script.write_text("", "utf-8")
    result = ship_figure(
        "f", "ag-fig-f-x.png", png(4, 4), "png", MediaCache(tmp_path), script, HERE
    )
    assert isinstance(result, Shipped)


def test_unknown_is_a_reason() -> None:
    assert isinstance(media_type(b"\x00\x01\x02"), Unknown)


# -- pictures embedded in an SVG ------------------------------------------------------------


def _embedding(kind: str, data: bytes) -> bytes:
    encoded = base64.b64encode(data).decode()
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        f'<image width="4" height="4" xlink:href="data:image/{kind};base64,{encoded}"/></svg>'
    ).encode()


def test_an_embedded_picture_that_parses_is_kept() -> None:
    assert isinstance(sanitise_svg(_embedding("png", png(2, 2))), CleanSvg)
    assert isinstance(sanitise_svg(_embedding("jpeg", pillow("JPEG"))), CleanSvg)


@pytest.mark.parametrize(
    ("kind", "data", "why"),
    [
        ("png", png(declared=(100_000, 100_000)), "pixels"),
        ("png", HOSTILE_SVG.encode(), "markup"),
        ("png", pillow("JPEG"), "JPEG image, not PNG"),
        ("gif", b"GIF89a junk", "GIF"),
    ],
    ids=["huge", "markup", "another-type", "damaged"],
)
def test_an_embedded_picture_is_judged_as_an_image_file(kind: str, data: bytes, why: str) -> None:
    result = sanitise_svg(_embedding(kind, data))
    assert isinstance(result, RefusedSvg) and why in result.reason, result
