"""The SVG allow-list: drawings keep their shapes, anything that runs or loads is refused."""

from __future__ import annotations

import pytest

from ankigen.render import CleanSvg, RefusedSvg, sanitise_svg

HEAD = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'


def test_a_drawing_keeps_its_shapes_and_loses_editor_metadata() -> None:
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="urn:inkscape" '
        b'xmlns:xlink="http://www.w3.org/1999/xlink" '
        b'width="10" inkscape:label="x"><metadata><rdf/></metadata><title>t</title>'
        b'<!-- c --><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs>'
        b'<rect width="5" style="fill:url(#g)" data-x="1"/><use xlink:href="#g"/></svg>'
    )
    cleaned = sanitise_svg(svg)
    assert isinstance(cleaned, CleanSvg)
    assert cleaned.data == (
        b"<?xml version='1.0' encoding='utf-8'?>\n"
        b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        b'width="10"><defs><linearGradient id="g"><stop offset="0" /></linearGradient></defs>'
        b'<rect width="5" style="fill:url(#g)" /><use xlink:href="#g" /></svg>'
    )


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"<script>alert(1)</script>", "<script>"),
        (b'<g><rect onclick="alert(1)"/></g>', "onclick="),
        (b"<foreignObject/>", "<foreignObject>"),
        (b'<a xlink:href="javascript:alert(1)"><rect/></a>', "<a>"),
        (b'<use xlink:href="other.svg#x"/>', "other.svg"),
        (b'<use href="https://example.org/x.svg#y"/>', "https://example.org"),
        (b'<set attributeName="href" to="javascript:alert(1)"/>', "<set>"),
        (b'<rect fill="url(https://example.org/p)"/>', "url("),
        (b"<style>rect{background:url(x.png)}</style>", "url("),
        (b"<style>@import 'x.css';</style>", "CSS"),
        (b'<rect style="fill:red;behavior:url(#x)"/>', "CSS"),
    ],
)
def test_what_could_run_or_load_is_refused(body: bytes, problem: str) -> None:
    cleaned = sanitise_svg(HEAD + body + b"</svg>")
    assert isinstance(cleaned, RefusedSvg)
    assert problem in cleaned.reason


def test_entity_declarations_are_refused_before_parsing() -> None:
    bomb = b'<!DOCTYPE svg [<!ENTITY a "xxxxxxxxxx"><!ENTITY b "&a;&a;&a;&a;">]>' + HEAD
    cleaned = sanitise_svg(bomb + b"<text>&b;</text></svg>")
    assert isinstance(cleaned, RefusedSvg)
    assert "DOCTYPE" in cleaned.reason


def test_broken_xml_is_a_problem_not_a_crash() -> None:
    cleaned = sanitise_svg(HEAD + b"<rect")
    assert isinstance(cleaned, RefusedSvg)
    assert "not well-formed" in cleaned.reason


def test_a_matplotlib_figure_with_a_raster_passes_unchanged_in_its_drawing() -> None:
    import io

    from matplotlib.figure import Figure

    figure = Figure()
    axes = figure.subplots()
    axes.plot([1, 2], [3, 4], marker="o")
    axes.imshow([[1, 2], [3, 4]])
    exported = io.BytesIO()
    figure.savefig(exported, format="svg")
    assert exported.getvalue().count(b"<!DOCTYPE svg PUBLIC") == 1
    cleaned = sanitise_svg(exported.getvalue())
    assert isinstance(cleaned, CleanSvg)
    assert b"<image " in cleaned.data and b"data:image/png;base64," in cleaned.data
    assert b"<metadata" not in cleaned.data and b"DOCTYPE" not in cleaned.data


def test_an_embedded_picture_must_be_a_raster() -> None:
    cleaned = sanitise_svg(HEAD + b'<image href="data:image/svg+xml;base64,PHN2Zz4="/></svg>')
    assert isinstance(cleaned, RefusedSvg)
    assert "<image>" in cleaned.reason


#: A one-pixel PNG, as an embedded picture's href.
PIXEL = (
    b"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42m"
    b"NkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


@pytest.mark.parametrize(
    ("inside", "problem"),
    [
        (b"<script>document.title='x'</script>", "<script>"),
        (b'<set attributeName="href" to="http://127.0.0.1/x.png"/>', "<set>"),
        (b"<style>@import url(http://127.0.0.1/x.css);</style>", "CSS"),
        (b'<g onload="alert(1)"/>', "onload="),
    ],
)
def test_what_could_run_inside_an_embedded_picture_is_refused(inside: bytes, problem: str) -> None:
    # A browser runs it where the SVG file is opened as a document (a card can link to it).
    cleaned = sanitise_svg(HEAD + b'<image href="' + PIXEL + b'">' + inside + b"</image></svg>")
    assert isinstance(cleaned, RefusedSvg)
    assert problem in cleaned.reason


def test_an_embedded_picture_loses_whatever_else_it_holds() -> None:
    cleaned = sanitise_svg(HEAD + b'<image href="' + PIXEL + b'"><title>t</title>x</image></svg>')
    assert isinstance(cleaned, CleanSvg)
    assert b'<image href="' + PIXEL + b'" /></svg>' in cleaned.data


@pytest.mark.parametrize(
    "style",
    [
        b"<style><g/>@import url(http://127.0.0.1/x.css);</style>",
        b"<style>rect{fill:red}<g/>rect{fill:url(http://127.0.0.1/y.png)}</style>",
    ],
)
def test_css_after_an_element_inside_style_is_not_hidden_from_the_check(style: bytes) -> None:
    # A browser reads the text after a child element of <style> as CSS as well.
    cleaned = sanitise_svg(HEAD + style + b'<rect width="1"/></svg>')
    assert isinstance(cleaned, RefusedSvg)
    assert "<style>" in cleaned.reason
