"""The mirror's three roles and their grants (#34): what each may do, on PostgreSQL 15 and from 16.

``test_replication`` makes them on clusters of its own (15 here) and tries
them; these read the statements, the same ones ``--sql`` prints for a DBA.
"""

import re

import pytest
from django.core.management import CommandError, call_command

from mirror import publication, roles


def test_the_replication_role_streams_and_reads_the_published_columns_only():
    statements = roles.replication("mesa_replication", "mesa", "public")
    assert 'ALTER ROLE "mesa_replication" WITH LOGIN REPLICATION NOSUPERUSER' in statements[1]
    # Whatever it was granted before goes first: a column no longer published is no longer readable.
    grants = statements[statements.index('REVOKE ALL ON ALL TABLES IN SCHEMA "public" FROM "mesa_replication"') :]
    granted = {}
    for statement in grants[1:]:
        found = re.fullmatch(r'GRANT SELECT \((.*)\) ON "public"\."(\w+)" TO "mesa_replication"', statement)
        assert found, statement
        granted[found[2]] = [column.strip('"') for column in found[1].split(", ")]
    assert granted == {table: publication.columns(label) for table, label in publication.tables().items()}
    for table, label in publication.tables().items():
        assert not set(publication.private_columns(label)) & set(granted[table])
    assert not [s for s in statements if "pg_read_all" in s or "SUPERUSER" in s.replace("NOSUPERUSER", "")]


@pytest.mark.parametrize("version", [150004, 160002, 170000])
def test_the_subscription_owner_is_a_plain_role_from_postgresql_16_and_a_superuser_before(version):
    statements = roles.subscriber("mesa_mirror_owner", "espejo", "public", version)
    if version < 160000:
        assert statements[-1] == 'ALTER ROLE "mesa_mirror_owner" WITH LOGIN SUPERUSER'
        return
    assert "NOSUPERUSER" in statements[1]
    assert statements[2:] == [
        'GRANT pg_create_subscription TO "mesa_mirror_owner"',
        'GRANT CONNECT, CREATE ON DATABASE "espejo" TO "mesa_mirror_owner"',
        'GRANT USAGE, CREATE ON SCHEMA "public" TO "mesa_mirror_owner"',
    ]


def test_the_mirrors_app_reads_the_owners_tables_now_and_later_and_writes_nothing():
    statements = roles.app("mesa_mirror", "espejo", "public", "mesa_mirror_owner")
    assert 'ALTER ROLE "mesa_mirror" SET default_transaction_read_only = on' in statements
    assert 'GRANT SELECT ON ALL TABLES IN SCHEMA "public" TO "mesa_mirror"' in statements
    assert statements[-1] == (
        'ALTER DEFAULT PRIVILEGES FOR ROLE "mesa_mirror_owner" IN SCHEMA "public" GRANT SELECT ON TABLES TO "mesa_mirror"'
    )
    # pg_read_all_data would read the catalogs too, pg_subscription's connection string (the venue's password) with them.
    text = " ".join(statements)
    assert "pg_read_all_data" not in text and "INSERT" not in text
    assert (
        statements[1]
        == 'ALTER ROLE "mesa_mirror" WITH LOGIN NOREPLICATION NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS'
    )


def test_the_statements_hold_no_password_and_a_role_is_made_only_if_missing():
    for statements in (
        roles.replication("r", "d", "s"),
        roles.subscriber("o", "d", "s", 160000),
        roles.app("a", "d", "s", "o"),
    ):
        assert "PASSWORD" not in " ".join(statements).upper()
        assert statements[0].startswith("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = ")


@pytest.mark.parametrize("name", ["Mesa", "mesa-replication", "x'; DROP ROLE postgres; --", "", "a" * 64])
def test_a_role_name_is_plain_letters_digits_and_underscores(name):
    assert not roles.NAME.fullmatch(name)


def test_the_command_refuses_a_name_it_would_have_to_quote():
    with pytest.raises(CommandError, match="lower-case letters, digits and _"):
        call_command("mirror_role", "app", "--name", "mesa; DROP ROLE postgres")
