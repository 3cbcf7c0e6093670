"""``manage.py mirror_publish``, at the venue: publish what the public mirror may copy (idempotent).

Run it after ``migrate`` (``make mirror-publish``); again after an upgrade
that adds a published column, and after a change of ``SECRET_KEY``: it
publishes every mesa's planilla code digests (``mirror.codes``), which the
acts keep current after that. It needs PostgreSQL with
``wal_level = logical`` and says how to get it when it is not.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from mirror import codes, publication
from tournament.models import Mesa


class Command(BaseCommand):
    help = "Create or update the PostgreSQL publication the public mirror subscribes to."

    def handle(self, *args, **options):
        if connection.vendor != "postgresql":
            raise CommandError("The mirror replicates PostgreSQL: set DATABASE_URL to the venue's PostgreSQL.")
        with connection.cursor() as cursor:
            cursor.execute("SHOW wal_level")
            (level,) = cursor.fetchone()
            if level != "logical":
                raise CommandError(
                    f"wal_level is {level!r}; logical replication needs 'logical'. As a superuser run "
                    "ALTER SYSTEM SET wal_level = logical; then restart PostgreSQL, and run this again."
                )
            cursor.execute("SELECT 1 FROM pg_publication WHERE pubname = %s", [publication.PUBLICATION])
            exists = cursor.fetchone() is not None
            cursor.execute(publication.publisher_sql(exists))
        mesas = list(Mesa.objects.order_by("pk").values_list("pk", flat=True))
        codes.refresh(mesas, every=True)
        self.stdout.write(
            f"Publication {publication.PUBLICATION} {'updated' if exists else 'created'}: "
            + ", ".join(publication.tables())
            + f"; the planilla codes of {len(mesas)} mesas."
        )
