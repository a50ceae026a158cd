"""CSS inside an SVG (``<style>`` and ``style=``): what may stay, judged before it ships.

CSS can load (``url()``, ``image-set()``, ``@import``, ``@font-face``) and,
in old browsers, run code. An SVG's CSS may call only colour and transform
functions and ``url(#id)`` inside the file, use no at-rule but ``@media``
and no escape (which spells any word), in any letter case; a comment counts
as the space CSS reads it as. Anything else refuses the SVG.
"""

from __future__ import annotations

import re

__all__ = ["CSS_SUSPECT", "css_problem"]

_LOCAL_URL = re.compile(r"url\(\s*['\"]?#[^)'\"]*['\"]?\s*\)", re.IGNORECASE)
#: At-rules (``@import``, ``@font-face``; ``@media`` alone loads nothing), escapes (which
#: spell any word), markup, and what old browsers ran: refused in any letter case.
_CSS_DANGER = re.compile(
    r"@(?!media[\s(])|javascript:|behavior\s*:|-moz-binding|<|\\", re.IGNORECASE
)
#: A CSS function (or anything written like one, space before the parenthesis too).
_CSS_FUNCTION = re.compile(r"([A-Za-z_-][A-Za-z0-9_-]*)?\s*\(")
#: The functions CSS in an SVG may call: colours and transforms (``url(#id)`` is judged
#: apart, and removed before these are looked for).
_CSS_FUNCTIONS = frozenset(
    {
        *("rgb", "rgba", "hsl", "hsla", "matrix", "translate", "translatex", "translatey"),
        *("scale", "scalex", "scaley", "rotate", "skewx", "skewy"),
        # a media query's parentheses: "@media (prefers-color-scheme: dark) and (…)"
        *("", "media", "and", "not", "only", "or"),
    }
)
_CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.DOTALL)
#: A character (or word) without which neither _CSS_DANGER nor a function can match:
#: text with none of them needs no closer look (``css_problem`` would pass it).
CSS_SUSPECT = re.compile(r"[@(:<\\]|-moz-binding|/\*", re.IGNORECASE)


def css_problem(text: str) -> str | None:
    """What in CSS text could load or run (completes "a <style> element …"), or None."""
    text = _CSS_COMMENT.sub(" ", text)  # a comment is a space to CSS: "@im/**/port" is no word
    if _CSS_DANGER.search(text):
        return "holds CSS that can load or run code"
    local = _LOCAL_URL.sub("", text)
    if "url(" in local.lower():
        return "refers to a file or address outside the SVG with url(...)"
    for call in _CSS_FUNCTION.finditer(local):
        name = (call.group(1) or "").lower()
        if name not in _CSS_FUNCTIONS:
            shown = f"{name}(" if name else "("
            return f"calls the CSS function {shown}...), which may load a file"
    return None
