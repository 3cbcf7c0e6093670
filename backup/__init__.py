"""Backups of the whole database that restore without losing anything (see ``backup.archive``)."""
