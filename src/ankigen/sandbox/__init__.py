"""Running code that may be hostile (a figure script) in a fresh interpreter killed at
its limit (``child``, the build's side; ``runner``, the child's), which confines itself
first (``confine``: rlimits, its own folder, namespaces, ``landlock``), then draws
(``figure``) with the deck's formulas sent as data (``formulas``)."""
