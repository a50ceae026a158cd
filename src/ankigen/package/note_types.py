"""The two note types every ankigen deck uses.

Their ids, field names and template names are part of the product's
contract with learners' collections: Anki updates a re-imported note in place
only while its note type id and fields stay the same. Never rename them.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import genanki

REVEAL_MODEL_ID = 1_702_438_001
CLOZE_MODEL_ID = 1_702_438_002

_SOURCE = '<div class="ag-source">{{Source}}</div>'


def card_css() -> str:
    """The stylesheet shared by both note types (day and night mode)."""
    return resources.files("ankigen.package").joinpath("card.css").read_text("utf-8")


@lru_cache(maxsize=1)
def reveal_model() -> genanki.Model:
    """ "ankigen Reveal": Question on the front, Answer below it on the back."""
    return genanki.Model(
        REVEAL_MODEL_ID,
        "ankigen Reveal",
        fields=[{"name": "Question"}, {"name": "Answer"}, {"name": "Source"}],
        templates=[
            {
                "name": "Reveal",
                "qfmt": '<div class="ag-card ag-front">{{Question}}</div>',
                "afmt": (
                    '<div class="ag-card ag-back">{{Question}}<hr id="answer">'
                    '<div class="ag-answer">{{Answer}}</div>' + _SOURCE + "</div>"
                ),
            }
        ],
        css=card_css(),
        sort_field_index=0,
    )


@lru_cache(maxsize=1)
def cloze_model() -> genanki.Model:
    """ "ankigen Cloze": one card per cloze number in Text; Extra on the back."""
    return genanki.Model(
        CLOZE_MODEL_ID,
        "ankigen Cloze",
        fields=[{"name": "Text"}, {"name": "Extra"}, {"name": "Source"}],
        templates=[
            {
                "name": "Cloze",
                "qfmt": '<div class="ag-card ag-front">{{cloze:Text}}</div>',
                "afmt": (
                    '<div class="ag-card ag-back">{{cloze:Text}}'
                    '{{#Extra}}<hr><div class="ag-extra">{{Extra}}</div>{{/Extra}}'
                    + _SOURCE
                    + "</div>"
                ),
            }
        ],
        css=card_css(),
        model_type=genanki.Model.CLOZE,
        sort_field_index=0,
    )
