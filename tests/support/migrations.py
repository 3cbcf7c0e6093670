"""Migrating the test database to a point of its history, for the tests of a data migration."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """The database migrated to ``targets`` (``[(app, migration)]``); the apps' models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    """Every app's last migration: where a test leaves the database."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
