"""A dotted run of digits (an IP address, a version) is no claim: no piece of it is a number.

``127.0.0.0/8`` used to give the claim ``127.0`` and ``2.4.1`` the claim
``2.4``: numbers the card does not say, which a check cannot quote as written.
"""

from __future__ import annotations

from tests.check.claims_support import parse


def test_dotted_runs_are_not_claims_but_numbers_around_them_are() -> None:
    deck = parse("# T\n\nQ ::: Not 127.0.0.0/8, version 2.4.1; it is 3.5.\n")
    claims = [(c.text, c.column) for c in deck.items[0].claims if c.required]
    assert claims == [("8", 21), ("3.5", 45)]
