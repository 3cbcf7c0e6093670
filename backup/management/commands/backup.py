"""``manage.py backup FILE``: the whole database to one file (``backup.archive``)."""

from django.core.management.base import BaseCommand, CommandError

from backup.archive import BackupError, write


class Command(BaseCommand):
    help = "Write the whole database to FILE (gzip-compressed when FILE ends in .gz)."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            count = write(file)
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{count} rows written to {file}.")
