"""A championship's own settings and its overview.

- ``championships``: saving a championship (new or edited) as one act, seating what then waits.
- ``forms``, ``views``: the championship's form (its rule set a profile plus one select per setting) and its page.
- ``urls_organiser``: under ``/campeonatos/`` (namespace ``tournament``).
"""
