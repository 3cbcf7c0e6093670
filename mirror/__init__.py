"""The public mirror: what the internet may see of a championship, copied by PostgreSQL's own logical replication.

The venue's database *publishes* (``publication``) the rows the public pages
read, each table with only its public columns; a mirror's database
*subscribes* and gets every committed change, resuming by itself from where
it stopped when the venue's internet comes back. The mirror's app is this
same code with ``MIRROR=true``: public pages only, a read-only connection
(``config.urls_mirror``), and live streams fed by the replicated rows
(``notify``). The desk sees the mirror's lag (``status``).
"""
