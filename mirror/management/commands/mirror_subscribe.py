"""``manage.py mirror_subscribe``, on the mirror: copy the venue's publication (idempotent).

Run as the subscription's owner (``mirror_role subscriber``; ``make mirror``
runs it with ``SUBSCRIPTION_OWNER_URL``), with ``VENUE_DSN`` in the
environment (or ``--venue``): the libpq connection string of the venue's
replication role, password included, which is never printed. It migrates
the mirror's database (the same code as the venue's: logical replication
copies rows, not the schema), lets the columns the venue keeps private
stay empty, installs the triggers that tell the streams
(``mirror.notify``), then creates the subscription, or points the existing
one at the venue again and picks up newly published tables. The first run
copies every published row; after that each commit at the venue follows,
and a connection lost (the venue's internet) is resumed by PostgreSQL from
where it stopped. Run it with MIRROR unset: the app's own connection is
read-only when MIRROR=true.
"""

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from mirror import notify, publication, roles


def _literal(value):
    return "'" + value.replace("'", "''") + "'"


class Command(BaseCommand):
    help = "Create or update the mirror's subscription to the venue's publication."

    def add_arguments(self, parser):
        parser.add_argument(
            "--venue",
            default=settings.VENUE_DSN,
            help="libpq connection string of the venue's PostgreSQL, as seen from here (through the tunnel); "
            "VENUE_DSN by default, which keeps its password off the command line",
        )

    def handle(self, *args, venue, **options):
        if connection.vendor != "postgresql":
            raise CommandError("A mirror is a PostgreSQL subscriber: set DATABASE_URL to the mirror's PostgreSQL.")
        if not venue.strip() or len(venue) > 1000 or "\x00" in venue:
            raise CommandError("Set VENUE_DSN to a libpq connection string (host=... dbname=... user=...).")
        self._check_owner()
        call_command("migrate", interactive=False, verbosity=0)
        name = publication.SUBSCRIPTION
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_schema()")
            (schema,) = cursor.fetchone()
            for statement in publication.subscriber_sql(schema) + notify.trigger_sql(schema):
                cursor.execute(statement)
            cursor.execute("SELECT 1 FROM pg_subscription WHERE subname = %s", [name])
            if cursor.fetchone() is None:
                # Not in a transaction: creating the venue's replication slot cannot be.
                cursor.execute(
                    f"CREATE SUBSCRIPTION {name} CONNECTION {_literal(venue)} PUBLICATION {publication.PUBLICATION}"
                )
                self.stdout.write(f"Subscription {name} created: the first copy of the venue's rows is under way.")
                return
            cursor.execute(f"ALTER SUBSCRIPTION {name} CONNECTION {_literal(venue)}")
            cursor.execute(f"ALTER SUBSCRIPTION {name} ENABLE")
            cursor.execute(f"ALTER SUBSCRIPTION {name} REFRESH PUBLICATION")
        self.stdout.write(f"Subscription {name} updated.")

    def _check_owner(self):
        """Refuse early, and say why, a role that may not create the subscription."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT rolsuper, pg_has_role(current_user, 'pg_create_subscription', 'USAGE') "
                "FROM pg_roles WHERE rolname = current_user"
                if connection.pg_version >= roles.PG_CREATE_SUBSCRIPTION
                else "SELECT rolsuper, false FROM pg_roles WHERE rolname = current_user"
            )
            superuser, may = cursor.fetchone()
        if superuser or may:
            return
        needs = "a superuser" if connection.pg_version < roles.PG_CREATE_SUBSCRIPTION else "pg_create_subscription"
        raise CommandError(
            f"Creating the subscription needs {needs} on this PostgreSQL: run this step as the role "
            "`manage.py mirror_role subscriber` makes (SUBSCRIPTION_OWNER_URL for make mirror), never the app's."
        )
