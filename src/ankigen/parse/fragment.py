"""Render markdown-it tokens to card HTML with slots for math and images.

Math and images are not drawn here: each becomes a slot (see
``ankigen.model.SLOT``) that the render stage fills, so parsing does not
depend on the math mode. Raw HTML is escaped; comments are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from ankigen.model import SLOT, Fragment, ImageRef, Math
from ankigen.parse.markdown import content_parser
from ankigen.parse.metadata import is_comment


class _FragmentRenderer(RendererHTML):
    """CommonMark HTML, except for math, images, raw HTML, code and marks."""

    def math_inline(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _math_slot(tokens[idx], env, display=False)

    def math_inline_double(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _math_slot(tokens[idx], env, display=True)

    def math_block(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _math_slot(tokens[idx], env, display=True) + "\n"

    def image(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        alt = self.renderInlineAsText(token.children or [], options, env)
        images: list[ImageRef] = env["images"]
        images.append(ImageRef(str(token.attrGet("src") or ""), alt, _line(token, env)))
        return f"{SLOT}i{len(images) - 1}{SLOT}"

    def html_inline(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _escaped_html(tokens[idx].content)

    def html_block(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        content = tokens[idx].content
        if is_comment(content):
            return ""
        return f"<p>{_escaped_html(content.rstrip())}</p>\n"

    def code_inline(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _literal_braces(super().code_inline(tokens, idx, options, env))

    def code_block(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _literal_braces(super().code_block(tokens, idx, options, env))

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return _literal_braces(super().fence(tokens, idx, options, env))

    def mark_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        number = tokens[idx].meta.get("ord")
        if number is None:
            # A mark outside a cloze item's text (a reveal answer, an Extra):
            # the walker reports it; here it stays literal text, never a crash.
            _matching_close(tokens, idx).meta["literal"] = True
            return "=="
        return "{{c" + str(number) + "::"

    def mark_close(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return "==" if tokens[idx].meta.get("literal") else "}}"


def _matching_close(tokens: Sequence[Token], idx: int) -> Token:
    """The ``mark_close`` that ends the ``mark_open`` at ``idx``."""
    depth = 0
    for token in tokens[idx:]:
        depth += {"mark_open": 1, "mark_close": -1}.get(token.type, 0)
        if depth == 0:
            return token
    return Token("mark_close", "mark", -1)  # unbalanced: a throw-away stand-in


_RENDERER = _FragmentRenderer()


def render_inline(children: Sequence[Token], line: int) -> Fragment:
    """Render one paragraph's inline tokens (starting at ``line``) as a fragment."""
    env = _new_env(line)
    html = _RENDERER.renderInline(children, content_parser().options, env).strip()
    return Fragment(html, tuple(env["maths"]), tuple(env["images"]))


def render_blocks(lead: Sequence[Token], lead_line: int, blocks: Sequence[Token]) -> Fragment:
    """Render an answer: the inline ``lead`` after a separator, then whole blocks.

    A lone lead renders without a paragraph wrapper, so a one-line answer is
    just its text; with blocks after it, the lead becomes their first paragraph.
    """
    env = _new_env(lead_line)
    options = content_parser().options
    lead_html = _RENDERER.renderInline(lead, options, env).strip()
    if not blocks:
        return Fragment(lead_html, tuple(env["maths"]), tuple(env["images"]))
    parts = [f"<p>{lead_html}</p>\n"] if lead_html else []
    parts.append(_RENDERER.render(blocks, options, env))
    return Fragment("".join(parts).strip(), tuple(env["maths"]), tuple(env["images"]))


def _new_env(line: int) -> dict[str, Any]:
    return {"maths": [], "images": [], "line": line}


def _line(token: Token, env: EnvType) -> int:
    """The 1-based line of a token: block map, or a line noted by the walker."""
    if "line" in token.meta:
        return int(token.meta["line"])
    if token.map:
        return token.map[0] + 1
    return int(env["line"])


def _math_slot(token: Token, env: EnvType, *, display: bool) -> str:
    maths: list[Math] = env["maths"]
    maths.append(Math(token.content.strip(), display, _line(token, env)))
    return f"{SLOT}m{len(maths) - 1}{SLOT}"


def _escaped_html(content: str) -> str:
    """Raw HTML is shown as the text the author typed; comments disappear."""
    if is_comment(content):
        return ""
    return _literal_braces(escapeHtml(content))


def _literal_braces(html: str) -> str:
    """Keep ``{{c1::x}}`` inside code literal: Anki only reads a bare ``{{``."""
    return html.replace("{", "&#123;")
