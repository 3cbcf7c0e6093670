"""``manage.py restore FILE``: a backup into an empty database (``backup.archive``)."""

from django.core.management.base import BaseCommand, CommandError

from backup.archive import MAX_BYTES, BackupError, restore

MEGABYTE = 1024 * 1024


class Command(BaseCommand):
    help = "Load the backup in FILE into an empty database (it is migrated first); refuses a database with data."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--max-mb",
            type=int,
            default=MAX_BYTES // MEGABYTE,
            help="Refuse a backup larger than this once decompressed (default %(default)s MB).",
        )

    def handle(self, *args, file, max_mb, **options):
        if max_mb < 1:
            raise CommandError("--max-mb is at least 1.")
        try:
            count = restore(file, max_bytes=max_mb * MEGABYTE)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{count} rows restored from {file}.")
