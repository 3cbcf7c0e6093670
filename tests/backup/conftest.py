"""The championship, mesa and people of tests.support.one_mesa, for the backups' tests."""

from tests.support.one_mesa import *  # noqa: F403  (the fixtures)
