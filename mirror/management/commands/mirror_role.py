"""``manage.py mirror_role KIND``: make one of the mirror's PostgreSQL roles with its grants (``mirror.roles``).

``replication`` at the venue; ``subscriber`` and ``app`` on the mirror, the
subscriber first (the app reads the tables it creates). Run it as
PostgreSQL's superuser (``DATABASE_URL`` of that database as ``postgres``),
or print the statements for the DBA with ``--sql``. It is idempotent: run
``replication`` again after an upgrade that publishes a new column
(``mirror_publish`` grants the new columns to it by itself).

The role's password is taken from ``MIRROR_ROLE_PASSWORD`` when set, and sent
hashed; it is never printed. Without it the role keeps its password, or has
none: set one with psql's ``\\password NAME``.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction

from mirror import roles
from mirror.publication import quoted


class Command(BaseCommand):
    help = "Make one of the mirror's PostgreSQL roles with its grants, or print its SQL (--sql)."

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=sorted(roles.DEFAULT_NAMES))
        parser.add_argument(
            "--name", help="the role's name (default: mesa_replication, mesa_mirror_owner, mesa_mirror)"
        )
        parser.add_argument(
            "--owner",
            default=roles.DEFAULT_NAMES["subscriber"],
            help="app only: the subscriber's role, whose tables the app reads (default: %(default)s)",
        )
        parser.add_argument("--sql", action="store_true", help="print the statements for the DBA instead")

    def handle(self, *args, kind, name, owner, sql, **options):
        name = name or roles.DEFAULT_NAMES[kind]
        for value in (name, owner):
            if not roles.NAME.fullmatch(value):
                raise CommandError(f"{value!r}: a role's name here is lower-case letters, digits and _.")
        if connection.vendor != "postgresql":
            raise CommandError("The mirror's roles are PostgreSQL's: set DATABASE_URL to the PostgreSQL database.")
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_database(), current_schema()")
            database, schema = cursor.fetchone()
        if kind == "replication":
            statements = roles.replication(name, database, schema)
        elif kind == "subscriber":
            statements = roles.subscriber(name, database, schema, connection.pg_version)
        else:
            statements = roles.app(name, database, schema, owner)
        if sql:
            self.stdout.write("\n".join(f"{statement};" for statement in statements))
            self.stdout.write(f"-- Its password, typed in psql (never in a file): \\password {name}")
            return
        password = settings.MIRROR_ROLE_PASSWORD
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                for statement in statements:
                    cursor.execute(statement)
                if password:
                    hashed = roles.hashed_password(connection, name, password)
                    cursor.execute(f"ALTER ROLE {quoted(name)} PASSWORD %s", [hashed])
        except DatabaseError as error:
            raise CommandError(
                f"{error}\nMake the role as PostgreSQL's superuser (DATABASE_URL as postgres), "
                "or print its SQL with --sql for the DBA."
            ) from None
        self.stdout.write(
            f"Role {name} ({kind}) made with its grants in {database}; "
            + ("its password set." if password else f"its password unchanged (set it with psql's \\password {name}).")
        )
