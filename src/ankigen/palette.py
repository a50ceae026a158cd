"""The project's named colours, shared by figures and card styles.

Figures import it (``from ankigen.palette import PALETTE``) so every deck
uses one consistent set of soft, night-mode-friendly colours.
"""

from types import MappingProxyType

PALETTE = MappingProxyType(
    {
        "lavender": "#b4a7e5",
        "coral": "#f08a7e",
        "mint": "#7fd1ae",
        "butter": "#f3d36b",
        "slate": "#5b6b7f",
        "ink": "#1f2430",
        "paper": "#ffffff",
    }
)
