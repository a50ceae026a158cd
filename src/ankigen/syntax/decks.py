"""Deck names: the ``::`` that nests a deck in another, and what Anki imports.

A deck's name is its front matter ``deck:`` or its ``#`` title; with
``subdecks: true`` each ``##`` section adds ``::<heading>``. Every ``::`` is
a level to Anki, and Anki refuses a whole package whose deck is nested more
than 11 levels ("deck nesting level too deep", measured with the ``anki``
package: ``a::…::a`` of 11 names imports, 12 does not). A name is also kept
to ``MAX_NAME_LENGTH`` characters: Anki imports longer ones, but a name of
thousands of characters is no name a learner can read in a deck list.
"""

from __future__ import annotations

from ankigen.diagnostics import Code

#: The most names a deck's full name may hold (``a::b`` holds two).
MAX_LEVELS = 11
#: The longest full deck name, in characters.
MAX_NAME_LENGTH = 1000

SUBDECK_TOO_DEEP = Code.SUBDECK_TOO_DEEP
DECK_TOO_DEEP = Code.DECK_TOO_DEEP


def levels(name: str) -> int:
    """How many names Anki reads in a deck name (``a::b::c``: three)."""
    return name.count("::") + 1


def problem(name: str) -> str | None:
    """Why Anki would refuse (or a learner could not read) deck ``name``, or None.

    It is the ``why`` of a :data:`SUBDECK_TOO_DEEP` or :data:`DECK_TOO_DEEP`
    message (``{what} makes a deck {why}``), with what to do.
    """
    if levels(name) > MAX_LEVELS:
        why = (
            f"nested {levels(name)} levels deep ('::' nests a deck), and Anki refuses to "
            f"import a deck nested more than {MAX_LEVELS}: write fewer '::' in it"
        )
    elif len(name) > MAX_NAME_LENGTH:
        why = f"name of {len(name)} characters, more than {MAX_NAME_LENGTH}: shorten it"
    elif any(not part.strip() for part in name.split("::")):
        why = (
            "with an empty name between '::' (Anki imports it as a deck named 'blank'): "
            "write a name there, or remove the extra '::'"
        )
    else:
        return None
    return why
