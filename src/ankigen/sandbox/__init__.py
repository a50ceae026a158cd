"""Running code that may be hostile (a figure script): a child killed at its
limit (``child``), confined (``confine``: rlimits, its own folder, namespaces,
``landlock``)."""
