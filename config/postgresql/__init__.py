"""Django's PostgreSQL backend, with a pool that gets over a restart of the database at once (``base``)."""
