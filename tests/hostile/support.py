"""Build a hostile case, import it into real Anki, and judge every side of every card."""

from __future__ import annotations

import json
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

from anki.collection import Collection

from tests.anki_support import import_deck
from tests.hostile.judge import judge, svg_problems

CASES = Path(__file__).parent / "cases"


@dataclass(frozen=True)
class Case:
    """One folder of ``cases/``: its content and what ``case.toml`` expects.

    ``outcome`` is ``built`` or ``refused``; ``diagnostics`` are texts the
    build's messages must hold; ``shows`` are texts a learner must read,
    literally, on some card; ``modes`` are the math modes to build in;
    ``options`` are extra command-line options (``--strict``).
    """

    name: str
    folder: Path
    outcome: str
    modes: tuple[str, ...]
    diagnostics: tuple[str, ...]
    shows: tuple[str, ...]
    options: tuple[str, ...] = ()


def load_cases() -> list[Case]:
    """Every case folder, in name order."""
    cases = []
    for folder in sorted(p for p in CASES.iterdir() if p.is_dir()):
        spec = tomllib.loads((folder / "case.toml").read_text("utf-8"))
        cases.append(
            Case(
                folder.name,
                folder,
                spec["outcome"],
                tuple(spec.get("modes", ["image", "mathjax"])),
                tuple(spec.get("diagnostics", [])),
                tuple(spec.get("shows", [])),
                tuple(spec.get("options", [])),
            )
        )
    return cases


@dataclass(frozen=True)
class Side:
    """One side of one card as Anki rendered it, and what the judge found."""

    label: str
    problems: tuple[str, ...]
    text: str


def judged_sides(collection: Collection, apkg: Path, *, mathjax: bool) -> list[Side]:
    """Import ``apkg``, judge the front and back of each card, then remove its notes again.

    Removing the notes lets one collection serve every case of a test module.
    """
    media = _media_names(apkg)
    import_deck(collection, apkg)
    sides: list[Side] = []
    try:
        for card_id in collection.find_cards("", order="c.due, c.ord"):
            card = collection.get_card(card_id)
            for label, html, tags in (
                ("front", card.question(), card.question_av_tags()),
                ("back", card.answer(), card.answer_av_tags()),
            ):
                verdict = judge(html, media, mathjax=mathjax)
                problems = verdict.problems + [f"Anki would play {tag!r}" for tag in tags]
                sides.append(Side(f"card {card.ord + 1} {label}", tuple(problems), verdict.text))
    finally:
        collection.remove_notes(collection.find_notes(""))
    return sides


def media_problems(apkg: Path) -> list[str]:
    """Script-bearing SVG files shipped in the deck."""
    with zipfile.ZipFile(apkg) as archive:
        names = json.loads(archive.read("media"))
        return [
            f"{name}: {problem}"
            for number, name in names.items()
            if name.endswith(".svg")
            for problem in svg_problems(archive.read(number))
        ]


def _media_names(apkg: Path) -> frozenset[str]:
    with zipfile.ZipFile(apkg) as archive:
        return frozenset(json.loads(archive.read("media")).values())
