"""The mirror's three PostgreSQL roles, each with the least it needs (``manage.py mirror_role``, docs/mirror.md).

- ``replication``, at the venue: the role the mirror connects as, through
  the internet. ``REPLICATION`` (to stream the log and make the slots),
  and ``SELECT`` on the published columns only (the first copy of each
  table reads them): it cannot read a password hash, a pair's token, a
  table's PIN, a cédula or a phone, even with its password stolen.
- ``subscriber``, on the mirror: the subscribe step's alone
  (``mirror_subscribe``: it migrates, owns the tables and creates the
  subscription). PostgreSQL 16 lets a plain role create subscriptions
  (``pg_create_subscription``, with ``CREATE`` on the database); before 16
  only a superuser may, so there it is a superuser, whose password serves
  that step and nothing else.
- ``app``, on the mirror: the role the public pages are served with
  (``make mirror``). ``SELECT`` on the tables of the schema, now and as
  the subscriber creates them later, and every transaction read-only by
  default; not ``pg_read_all_data``, which reads the catalogs whole,
  ``pg_subscription.subconninfo`` (the venue's password) with them.

Each kind is a list of statements, the same whether the command runs them
or prints them for the DBA (``--sql``), and run again they leave the role
as this code says. None holds a password: the command sends the role's
password already hashed (``hashed_password``).
"""

import re

from .publication import columns, quoted, tables

DEFAULT_NAMES = {"replication": "mesa_replication", "subscriber": "mesa_mirror_owner", "app": "mesa_mirror"}
NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
# The first server release whose plain roles may create subscriptions.
PG_CREATE_SUBSCRIPTION = 160000
PLAIN = "NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS"


def _role(name, attributes):
    """The role ``name`` with exactly ``attributes``, made if it is not there."""
    return [
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = "
        f"'{name}') THEN CREATE ROLE {quoted(name)}; END IF; END $$",
        f"ALTER ROLE {quoted(name)} WITH {attributes}",
    ]


def column_grants(name, schema):
    """``SELECT`` on each published table's public columns, and nothing else on the schema's tables."""
    return [f"REVOKE ALL ON ALL TABLES IN SCHEMA {quoted(schema)} FROM {quoted(name)}"] + [
        f"GRANT SELECT ({', '.join(quoted(c) for c in columns(label))}) ON {quoted(schema)}.{quoted(table)} "
        f"TO {quoted(name)}"
        for table, label in tables().items()
    ]


def replication(name, database, schema):
    return [
        *_role(name, f"LOGIN REPLICATION {PLAIN}"),
        f"GRANT CONNECT ON DATABASE {quoted(database)} TO {quoted(name)}",
        f"GRANT USAGE ON SCHEMA {quoted(schema)} TO {quoted(name)}",
        *column_grants(name, schema),
    ]


def subscriber(name, database, schema, version):
    if version < PG_CREATE_SUBSCRIPTION:
        return _role(name, "LOGIN SUPERUSER")
    return [
        *_role(name, f"LOGIN NOREPLICATION {PLAIN}"),
        f"GRANT pg_create_subscription TO {quoted(name)}",
        f"GRANT CONNECT, CREATE ON DATABASE {quoted(database)} TO {quoted(name)}",
        f"GRANT USAGE, CREATE ON SCHEMA {quoted(schema)} TO {quoted(name)}",
    ]


def app(name, database, schema, owner):
    """``owner``: the subscriber's role, whose tables (those of later migrations too) ``name`` reads."""
    return [
        *_role(name, f"LOGIN NOREPLICATION {PLAIN}"),
        f"ALTER ROLE {quoted(name)} SET default_transaction_read_only = on",
        f"GRANT CONNECT ON DATABASE {quoted(database)} TO {quoted(name)}",
        f"GRANT USAGE ON SCHEMA {quoted(schema)} TO {quoted(name)}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {quoted(schema)} FROM {quoted(name)}",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA {quoted(schema)} TO {quoted(name)}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {quoted(owner)} IN SCHEMA {quoted(schema)} "
        f"GRANT SELECT ON TABLES TO {quoted(name)}",
    ]


def hashed_password(connection, name, password):
    """``password`` as PostgreSQL stores it (SCRAM, or the server's ``password_encryption``), hashed here by
    libpq: the clear text never reaches the server, its log or its statistics."""
    return connection.connection.pgconn.encrypt_password(password.encode(), name.encode()).decode()
