"""Section slugs, used as tags."""

from __future__ import annotations


def slugify(title: str) -> str:
    """Lower-case ``title``; each run of non-alphanumerics becomes one ``-``.

    >>> slugify("True or false — justify")
    'true-or-false-justify'
    >>> slugify("Adam's rule")
    'adam-s-rule'
    """
    out: list[str] = []
    pending_dash = False
    for char in title.lower():
        if char.isalnum():
            if pending_dash and out:
                out.append("-")
            out.append(char)
            pending_dash = False
        else:
            pending_dash = True
    return "".join(out)
