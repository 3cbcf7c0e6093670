"""``manage.py mirror_subscribe --venue DSN``, on the mirror: copy the venue's publication (idempotent).

It migrates the mirror's database (the same code as the venue's: logical
replication copies rows, not the schema), lets the columns the venue keeps
private stay empty, installs the triggers that tell the streams
(``mirror.notify``), then creates the subscription, or points the existing
one at ``--venue`` and picks up newly published tables. The first run
copies every published row; after that each commit at the venue follows,
and a connection lost (the venue's internet) is resumed by PostgreSQL from
where it stopped. Run it with MIRROR unset: the app's own connection is
read-only when MIRROR=true.
"""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from mirror import notify, publication


def _literal(value):
    return "'" + value.replace("'", "''") + "'"


class Command(BaseCommand):
    help = "Create or update the mirror's subscription to the venue's publication."

    def add_arguments(self, parser):
        parser.add_argument(
            "--venue",
            required=True,
            help="libpq connection string of the venue's PostgreSQL, as seen from here (through the tunnel)",
        )

    def handle(self, *args, venue, **options):
        if connection.vendor != "postgresql":
            raise CommandError("A mirror is a PostgreSQL subscriber: set DATABASE_URL to the mirror's PostgreSQL.")
        if not venue.strip() or len(venue) > 1000 or "\x00" in venue:
            raise CommandError("--venue must be a libpq connection string (host=... dbname=... user=...).")
        call_command("migrate", interactive=False, verbosity=0)
        name = publication.SUBSCRIPTION
        with connection.cursor() as cursor:
            for statement in publication.subscriber_sql() + notify.TRIGGER_SQL:
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
