"""ankigen: build Anki decks from markdown question banks."""

__version__ = "0.1.0"
