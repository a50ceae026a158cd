"""ziamath's hot spots, made cheaper without changing a byte it draws (issue 12).

Three shortcuts, each checked against ziamath's own code by
``tests/render/test_ziamath_styles.py`` (same images) and
``tests/perf/test_ziamath_shortcuts.py`` (same values on generated input):

* the style lookup without a deep copy per node (below);
* ``Mnode.size_px`` without building its two unit tables on every call
  (they were a fifth of ziamath's time: a dozen float-to-text formats each);
* ``Mrow``'s measuring pass copies a row's children with ``copy.deepcopy``
  instead of writing each one out as XML and parsing it back, wherever that
  round trip gives the same tree (``_ziamath_copy``).

The style lookup
----------------

ziamath lays out every MathML node by reading its style from
``ChainMap(element.attrib, dataclasses.asdict(parent_style))``: a recursive
deep copy of the parent's style, then a chained lookup, for each of the tens
of thousands of nodes a few hundred formulas have (and ziamath builds most
nodes twice, once to measure). That was about a quarter of the time ziamath
took. ``parse_style`` reads only the top-level style fields from that
mapping (never the nested ``mathvariant``, which it takes from the parent
style itself), so a shallow dict of the fields, merged under the element's
attributes, answers every lookup the same way: the same styles, the same
bytes (``tests/render/test_ziamath_styles.py`` compares images drawn both ways).

Installed only for the ziamath release this was checked against; any other
release keeps its own code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from importlib.metadata import version
from typing import Any

from ankigen.render import _ziamath_copy

#: ziamath releases whose ``styles.parse_style`` reads its mapping as described above.
CHECKED_RELEASES = frozenset({"0.13"})


def install() -> bool:
    """Give ``ziamath.styles`` the shallow lookup; True when it is in place."""
    from ziamath import styles

    if getattr(styles, "asdict", None) is _shallow_fields:
        return True
    if version("ziamath") not in CHECKED_RELEASES:
        return False
    styles.asdict = _shallow_fields  # type: ignore[assignment,attr-defined]
    styles.ChainMap = _merged  # type: ignore[assignment,attr-defined]
    _ziamath_copy.install()
    return True


def _shallow_fields(style: Any) -> dict[str, Any]:
    """A style dataclass's fields as a dict (its nested values not copied)."""
    return {f.name: getattr(style, f.name) for f in dataclasses.fields(style)}


def _merged(first: Mapping[str, Any], *rest: Mapping[str, Any]) -> dict[str, Any]:
    """What ``ChainMap(first, *rest)`` looks up, as one dict (earlier maps win)."""
    merged: dict[str, Any] = {}
    for mapping in reversed(rest):
        merged.update(mapping)
    merged.update(first)
    return merged
