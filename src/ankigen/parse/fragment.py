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
from ankigen.parse import inline_html, token_meta
from ankigen.parse.cloze import has_cloze
from ankigen.parse.inline_html import Verdict
from ankigen.parse.markdown import content_parser
from ankigen.parse.metadata import is_comment
from ankigen.syntax import anki_markup
from ankigen.syntax import cloze as cloze_syntax


class _FragmentRenderer(RendererHTML):
    """CommonMark HTML, except for math, images, raw HTML, code, marks and attributes.

    Every attribute value is escaped for Anki (``anki_markup.attribute``), so
    cloze syntax and bracket commands can only stand in text.
    """

    @staticmethod
    def renderAttrs(token: Token) -> str:
        return "".join(
            f' {escapeHtml(key)}="{anki_markup.attribute(str(value))}"'
            for key, value in token.attrItems()
        )

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        escaped = escapeHtml(tokens[idx].content)
        scan: anki_markup.ClozeScan | None = env.get("cloze_scan")
        if scan is None:
            return escaped
        return scan.text(escaped, token_meta.depth(tokens[idx]))

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
        verdicts: dict[int, dict[int, Verdict | None]] = env.setdefault("html", {})
        run = verdicts.get(id(tokens))
        if run is None:  # the paragraph's tags are judged together (format §16)
            places = [i for i, token in enumerate(tokens) if token.type == "html_inline"]
            judged = inline_html.judge_run([tokens[i].content for i in places])
            run = verdicts[id(tokens)] = dict(zip(places, judged, strict=True))
        return _html_piece(run[idx], tokens[idx].content, _line(tokens[idx], env), env)

    def html_block(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        content = tokens[idx].content.rstrip()
        if is_comment(content):
            return ""
        blocks: dict[int, dict[int, list[Verdict | None]]] = env.setdefault("html_blocks", {})
        if id(tokens) not in blocks:  # the answer's HTML blocks are judged together (§16)
            blocks[id(tokens)] = inline_html.judge_blocks(tokens)
        judged = iter(blocks[id(tokens)].get(idx, []))
        pieces = inline_html.block_pieces(content)
        verdicts = [next(judged) if is_tag else None for is_tag, _ in pieces]
        if not any(v is not None and not v.refused for v in verdicts):
            return f"<p>{_escaped_html(content)}</p>\n"  # no tag passes: all shown as text
        line, parts = _line(tokens[idx], env), []
        for (is_tag, piece), verdict in zip(pieces, verdicts, strict=True):
            if is_tag:
                parts.append(_html_piece(verdict, piece, line, env))
            else:
                parts.append(inline_html.literal_text(piece))
            line += piece.count("\n")
        return "".join(parts) + "\n"

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

    def link_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        token = tokens[idx]
        if not anki_markup.is_safe_link(str(token.attrGet("href") or "")):
            # Only http(s) and mailto links leave the card: any other scheme
            # (ms-msdt:, vscode:, file:...) would reach the learner's system
            # handlers. The text stays, as an inert <a> without a target.
            token = token.copy()
            token.attrs.pop("href", None)
        return self.renderToken([token], 0, options, env)

    def mark_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        number = token_meta.cloze_number(tokens[idx])
        if number is None:
            # A mark outside a cloze item's text (a reveal answer, an Extra):
            # the walker reports it; here it stays literal text, never a crash.
            return "=="
        scan: anki_markup.ClozeScan | None = env.get("cloze_scan")
        if scan is not None:
            scan.open(token_meta.depth(tokens[idx]) + 1)
        return cloze_syntax.opener(number)

    def mark_close(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        opener = _matching_open(tokens, idx)
        if opener is not None and token_meta.cloze_number(opener) is None:
            return "=="  # the close of a literal mark (see mark_open)
        scan: anki_markup.ClozeScan | None = env.get("cloze_scan")
        if scan is not None:
            scan.close()
        return "}}"


def _matching_open(tokens: Sequence[Token], idx: int) -> Token | None:
    """The ``mark_open`` that the ``mark_close`` at ``idx`` ends (None when unbalanced)."""
    depth = 0
    for index in range(idx, -1, -1):  # no slice: a copy per mark would be quadratic
        depth += {"mark_open": -1, "mark_close": 1}.get(tokens[index].type, 0)
        if depth == 0:
            return tokens[index]
    return None


_RENDERER = _FragmentRenderer()


def render_inline(children: Sequence[Token], line: int) -> Fragment:
    """Render one paragraph's inline tokens (starting at ``line``) as a fragment.

    In a cloze item's text, a ``::`` that Anki would read as a hint separator
    inside markup the cloze did not open (a link's text, say) is escaped, so
    Anki never splits an element in two.
    """
    env = _new_env(line)
    if has_cloze(children):
        _note_depths(children)
        env["cloze_scan"] = anki_markup.ClozeScan()
    html = _RENDERER.renderInline(children, content_parser().options, env).strip()
    return Fragment(anki_markup.inert(html), tuple(env["maths"]), tuple(env["images"]))


def render_blocks(lead: Sequence[Token], lead_line: int, blocks: Sequence[Token]) -> Fragment:
    """Render an answer: the inline ``lead`` after a separator, then whole blocks.

    A lone lead renders without a paragraph wrapper, so a one-line answer is
    just its text; with blocks after it, the lead becomes their first paragraph.
    """
    env = _new_env(lead_line)
    options = content_parser().options
    lead_html = _RENDERER.renderInline(lead, options, env).strip()
    if not blocks:
        return Fragment(anki_markup.inert(lead_html), tuple(env["maths"]), tuple(env["images"]))
    parts = [f"<p>{lead_html}</p>\n"] if lead_html else []
    parts.append(_RENDERER.render(blocks, options, env))
    html = anki_markup.inert("".join(parts).strip())
    return Fragment(html, tuple(env["maths"]), tuple(env["images"]))


def _note_depths(children: Sequence[Token]) -> None:
    """Note on each token how many inline elements (links, emphasis, marks) enclose it."""
    depth = 0
    for child in children:
        if child.nesting < 0:
            depth -= 1
        token_meta.set_depth(child, depth)
        if child.nesting > 0:
            depth += 1


def _new_env(line: int) -> dict[str, Any]:
    return {"maths": [], "images": [], "line": line}


def _line(token: Token, env: EnvType) -> int:
    """The 1-based line of a token: block map, or a line noted by the walker."""
    noted = token_meta.noted_line(token)
    if noted is not None:
        return noted
    if token.map:
        return token.map[0] + 1
    return int(env["line"])


def _math_slot(token: Token, env: EnvType, *, display: bool) -> str:
    maths: list[Math] = env["maths"]
    maths.append(Math(token.content.strip(), display, _line(token, env)))
    return f"{SLOT}m{len(maths) - 1}{SLOT}"


def _html_piece(verdict: Verdict | None, source: str, line: int, env: EnvType) -> str:
    """One tag as judged: passed (sanitised), an image slot, or the text as written."""
    if verdict is None:
        return _escaped_html(source)  # a comment: nothing
    if verdict.image is not None:
        images: list[ImageRef] = env["images"]
        images.append(ImageRef(verdict.image[0], verdict.image[1], line))
        return f"{SLOT}i{len(images) - 1}{SLOT}"
    if verdict.refused:
        return _escaped_html(source)
    return verdict.html


def _escaped_html(content: str) -> str:
    """Raw HTML is shown as the text the author typed; comments disappear."""
    if is_comment(content):
        return ""
    return _literal_braces(escapeHtml(content))


def _literal_braces(html: str) -> str:
    """Keep ``{{c1::x::y}}`` inside code literal: Anki only reads bare braces and colons."""
    return html.replace("{", "&#123;").replace("}", "&#125;").replace(":", "&#58;")
