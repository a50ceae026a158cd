"""Small .apkg files written for the tests with genanki (Anki's stock note types, own media)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import genanki

BASIC = genanki.BASIC_MODEL
REVERSED = genanki.BASIC_AND_REVERSED_CARD_MODEL
CLOZE = genanki.CLOZE_MODEL
VOCAB = genanki.Model(
    1_607_392_319,
    "Vocabulary",
    fields=[{"name": "Word"}, {"name": "Meaning"}, {"name": "Example"}],
    templates=[{"name": "Card 1", "qfmt": "{{Word}}", "afmt": "{{Meaning}}<br>{{Example}}"}],
)


def note(
    model: genanki.Model, *fields: str, tags: tuple[str, ...] = (), guid: str = ""
) -> genanki.Note:
    """A note of ``model`` (a fixed GUID when given)."""
    return genanki.Note(model=model, fields=list(fields), tags=list(tags), guid=guid or None)


def write_package(
    path: Path, decks: dict[str, list[genanki.Note]], media: dict[str, bytes] | None = None
) -> Path:
    """Write ``decks`` (name -> notes) and ``media`` files into ``path``."""
    built = []
    for index, (name, notes) in enumerate(decks.items()):
        deck = genanki.Deck(2_000_000_000 + index, name)
        for each in notes:
            deck.add_note(each)
        built.append(deck)
    files = []
    if media:
        folder = path.parent / "media-src"
        folder.mkdir(exist_ok=True)
        for name, data in media.items():
            (folder / name).write_bytes(data)
            files.append(str(folder / name))
    genanki.Package(built, media_files=files).write_to_file(str(path))
    return path


def rewrite_entry(path: Path, name: str, data: bytes, *, compress: bool = True) -> None:
    """Replace (or add) the zip entry ``name`` of the package at ``path``."""
    with zipfile.ZipFile(path) as archive:
        entries = {n: archive.read(n) for n in archive.namelist() if n != name}
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method) as archive:
        for entry, content in entries.items():
            archive.writestr(entry, content)
        archive.writestr(name, data)


#: A 1x1 white PNG.
PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\x0bIDATx\x9cc\xf8\x0f\x04\x00\t\xfb\x03\xfd\xfb^k+"
    b"\x00\x00\x00\x00IEND\xaeB`\x82"
)
