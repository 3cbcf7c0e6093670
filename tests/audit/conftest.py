"""The championship, mesa and people of tests.support.one_mesa, for the audit trail's tests."""

from tests.support.one_mesa import championship, english, mesa, other_mesa, people, played, table  # noqa: F401
