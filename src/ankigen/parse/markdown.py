"""The one markdown-it configuration that reads content files."""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from ankigen.parse.rules.anki_bracket import anki_bracket_plugin
from ankigen.parse.rules.mark import mark_plugin
from ankigen.parse.rules.mathjax_delimiter import mathjax_delimiter_plugin
from ankigen.parse.rules.stray_dollar import stray_dollar_plugin


@lru_cache(maxsize=1)
def content_parser() -> MarkdownIt:
    """CommonMark plus front matter, dollar math, ``==mark==`` and tables.

    Raw HTML is *parsed* (``html=True``) so comments can be read as item
    metadata; the fragment renderer escapes every other piece of HTML.
    """
    md = MarkdownIt("commonmark", {"html": True})
    md.enable("table")
    md.enable("strikethrough")
    front_matter_plugin(md)
    # allow_digits=False: `$5 and $10` is not math (and then an error, so
    # authors write `\$`); allow_space keeps `$ x $` working.
    dollarmath_plugin(md, allow_labels=False, allow_digits=False, double_inline=True)
    anki_bracket_plugin(md)  # after dollar math is registered: it goes before it
    mark_plugin(md)
    mathjax_delimiter_plugin(md)
    stray_dollar_plugin(md)
    return md
