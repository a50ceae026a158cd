"""``ankigen import``: other tools' question banks and existing ``.apkg`` decks as content files.

Each source format has one small module that reads it into
:class:`~ankigen.importers.model.ImportedDeck` values; ``writer`` turns those
into content files; ``html_to_markdown`` converts Anki's field HTML.
"""
