"""The draw and the bracket's state, over the mesas.

- ``draws``: drawing a championship's mesas, the knockout after the groups, the draw's correction before play,
  ranking the round-robin groups.
- ``advancement``: the one bridge between the ``Mesa`` rows and the bracket engine (``engines.bracket``).
- ``bracket_drawing``: the bracket as brackets-viewer draws it (the page is ``public``'s).
- ``forms``, ``views``: the draw's pages; ``urls_organiser``: under ``/campeonatos/`` (namespace ``tournament``).
"""
