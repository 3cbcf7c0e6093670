"""``manage.py restore FILE``: a backup into an empty database (``backup.archive``)."""

from django.core.management.base import BaseCommand, CommandError

from backup.archive import BackupError, restore


class Command(BaseCommand):
    help = "Load the backup in FILE into an empty database (it is migrated first); refuses a database with data."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            count = restore(file)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{count} rows restored from {file}.")
