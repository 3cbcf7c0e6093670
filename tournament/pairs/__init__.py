"""The pairs: registering them, checking them in, and their CSV files.

- ``registration``: what two pairs of a championship may not share, asked by the form and the import alike;
  a pair saved, a new private link.
- ``checkin``: a pair expected, present or withdrawn, by the desk or through its own link; every pair present at once.
- ``pairs_csv``: the pairs' import (checked row by row before anything is saved) and export, through the
  organisers' one way with CSV files (``tournament.csv_files``).
- ``forms``, ``views``: the check-in desk, the pair form and card, the import's pages.
- ``urls_organiser``: under ``/campeonatos/`` (namespace ``tournament``).
"""
