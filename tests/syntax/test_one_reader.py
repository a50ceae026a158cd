"""Cloze markers are read in one module: no other module of src/ spells an opener.

Every ``{{cN::`` pattern or literal (to match it or to write it) lives in
``ankigen.syntax.cloze``; other modules ask it (format rule: one source of truth
per syntax). Docstrings may show markers; code may not.
"""

from __future__ import annotations

import re
from pathlib import Path

from ankigen.syntax import cloze
from tests.source_strings import SRC, spelled_in

#: Modules that imitate Anki's own field parser on purpose. They model what
#: Anki reads in a finished field (``{{cN::`` only, in lower case, nested),
#: not the author's syntax, which ``syntax/cloze.py`` reads more leniently so
#: it can report mistakes; one reader cannot serve both.
ANKI_IMITATIONS = {
    "package/anki_cards.py": "Anki's {{cloze:}} filter, to tell which cards a field makes",
    "syntax/anki_markup.py": "what Anki's cloze parser splits a field at, to escape text for it",
}

#: Modules whose strings show authors a marker, as text, and read none.
DOCUMENTATION = {
    "diagnostics/codes.py": "the registry's summaries and fixes, printed in the table of codes",
}


#: ``{{c`` (plain or escaped for a regex) not starting a word such as ``{{cloze:``.
_OPENER_SPELLED = re.compile(r"\\?\{\\?\{c(?:\\d|[^a-z]|$)", re.IGNORECASE)


def spells_an_opener(literal: str) -> bool:
    """True for a string that holds a cloze opener, plainly or as a regex."""
    return _OPENER_SPELLED.search(literal) is not None


def _openers_in(path: Path) -> list[str]:
    return spelled_in(path, spells_an_opener)


def test_the_detector_sees_plain_and_escaped_openers() -> None:
    assert spells_an_opener("{{c")
    assert spells_an_opener("see {{c1::x}}")
    assert spells_an_opener(r"\{\{C(\d+)::")
    assert spells_an_opener(r"\{\{c\d*::")
    assert spells_an_opener(cloze.OPENER.pattern)
    assert not spells_an_opener("{{cloze:Text}}")


def test_no_module_outside_syntax_spells_a_cloze_opener() -> None:
    found = [
        hit
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).parts[0] != "syntax"
        and path.relative_to(SRC).as_posix() not in ANKI_IMITATIONS | DOCUMENTATION
        for hit in _openers_in(path)
    ]
    assert found == []


def test_each_listed_imitation_still_exists_and_spells_an_opener() -> None:
    for name in ANKI_IMITATIONS:
        assert _openers_in(SRC / name), f"{name} no longer imitates Anki: drop it from the list"
