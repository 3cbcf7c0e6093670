"""``manage.py mirror_publish``, at the venue: publish what the public mirror may copy (idempotent).

Run it after ``migrate`` (``make mirror-publish``); again after an upgrade
that adds a published column, and after a change of ``SECRET_KEY``: it
publishes every mesa's planilla code digests (``mirror.codes``), which the
acts keep current after that. The replication roles that read the
published columns (``mirror_role replication``) are granted them again as
they are now: a newly published column or table is readable by them, and
nothing else. It needs PostgreSQL with
``wal_level = logical`` and says how to get it when it is not.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from mirror import codes, publication, roles
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
            replicators = self._replication_roles(cursor)
        mesas = list(Mesa.objects.order_by("pk").values_list("pk", flat=True))
        codes.refresh(mesas, every=True)
        self.stdout.write(
            f"Publication {publication.PUBLICATION} {'updated' if exists else 'created'}: "
            + ", ".join(publication.tables())
            + f"; the planilla codes of {len(mesas)} mesas"
            + "".join(f"; the published columns granted to {role}" for role in replicators)
            + "."
        )

    def _replication_roles(self, cursor):
        """Grant the published columns, as they are now, to every replication role that reads some of them."""
        cursor.execute(
            "SELECT DISTINCT r.rolname, current_schema() FROM pg_roles r "
            "JOIN information_schema.column_privileges p ON p.grantee = r.rolname "
            "WHERE r.rolreplication AND NOT r.rolsuper AND p.privilege_type = 'SELECT' "
            "AND p.table_schema = current_schema() AND p.table_name = ANY(%s) ORDER BY 1",
            [list(publication.tables())],
        )
        found = cursor.fetchall()
        for role, schema in found:
            for statement in roles.column_grants(role, schema):
                cursor.execute(statement)
        return [role for role, _schema in found]
