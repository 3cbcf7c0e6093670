"""Where and when mesas are played: physical tables, jueces, rounds.

- ``seating``: which mesa is played at which table by which juez, automatic seating, a round's and a mesa's
  start, the control board's flags.
- ``sedes``: the sedes and their physical tables, the jueces available on a day.
- ``forms``, ``views``: the tables page, a mesa's table, the sedes, a round's start, the control board.
- ``urls_organiser``: under ``/campeonatos/`` (namespace ``tournament``).
"""
