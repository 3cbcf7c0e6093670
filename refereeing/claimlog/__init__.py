"""The claim log: every claim a juez logs at a mesa, and the JSON API the tablet logs it through.

- ``log``: how a claim becomes an entry, a decision and a state (the only
  writer of ``ClaimEntry``).
- ``api``: the JSON API under ``/api/`` (namespace ``api``).
- ``urls_juez``: the API's URLs.
"""
