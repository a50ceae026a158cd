"""The machinery around the pipeline: what to build, what to reuse, how to publish.

``discover`` finds the decks, ``plan`` decides what each needs, ``reuse`` and
``build_cache`` keep what an earlier build proved, ``publish`` and ``release``
write decks without losing a good one, ``stamp`` says a deck is up to date,
``guards`` refuses unsafe outputs, ``partial`` builds one section, ``times``
keeps timestamps reproducible; ``config``, ``paths``, ``cpus``, ``timelimit``
and ``pool`` are the settings and resources those share.
"""
