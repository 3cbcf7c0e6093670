"""A mesa's result and the standings.

- ``results``: a result recorded from the engine's state, a walkover, a correction (the Director's override).
- ``standings``: the standings and the bracket's sections, from mesas already loaded.
- ``forms``, ``views``: a walkover or a correction; ``urls_organiser``: under ``/campeonatos/`` (namespace
  ``tournament``).
"""
