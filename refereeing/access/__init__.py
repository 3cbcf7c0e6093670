"""Who may see and act on a mesa, and opening a mesa with the table's PIN.

- ``permissions``: the rules (act or view, the PIN grant, the PIN throttle)
  and the API's authentication and permission classes.
- ``views``: the PIN pages, the table's QR code and the printed table card.
- ``urls_public`` (the PIN pages), ``urls_juez`` (the QR code) and
  ``urls_organiser`` (the table card): under ``/acceso/`` (namespace ``access``).
"""
