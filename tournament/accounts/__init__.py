"""Accounts: the jueces' pool, the organisers and the Directors.

- ``accounts``: who may referee and who runs championships; an account opened, a password set, a juez
  (de)activated.
- ``lockouts``: sign-in lockouts (django-axes), as the sign-in pages and the jueces page see them.
- ``forms``, ``views``: the jueces page (organisers) and the Comité's page of organisers and Directors.
- ``urls_organiser``: under ``/jueces/`` (namespace ``jueces``); ``urls_committee``: under ``/comite/cuentas/``
  (namespace ``roles``).
"""
