"""The one markdown-it configuration that reads content files."""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from ankigen.parse.rules.anki_bracket import anki_bracket_plugin
from ankigen.parse.rules.braced_dollar import braced_dollar_plugin
from ankigen.parse.rules.escaped_colon import escaped_colon_plugin
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
    braced_dollar_plugin(md)  # $\text{if $x$}$, before dollar math too
    mark_plugin(md)
    mathjax_delimiter_plugin(md)
    stray_dollar_plugin(md)
    escaped_colon_plugin(md)  # `\:::` is text: noted before text_join merges it
    if hasattr(md.inline, "terminator_re"):  # markdown-it-py 4.1 and later
        md.inline.terminator_re = _TERMINATOR
    return md


#: Where markdown-it's text rule stops to let the other inline rules try: the
#: first characters of this parser's inline rules (line break, image, dollar
#: math, entity and MathJax, emphasis, autolink and HTML, mark, link and bracket,
#: escape, code, strikethrough) and ``]``, which ends a link label (found by
#: stepping over tokens). The default set also stops at ``: - { } > ^ + # % @``
#: for plugins not used here; every such stop tried every rule in vain, and the
#: tokens are the same without them (tests/parse/test_terminators.py). A new
#: inline rule must add its first character here.
_TERMINATOR = re.compile("[" + re.escape("\n!$&*<=[\\]_`~") + "]")
