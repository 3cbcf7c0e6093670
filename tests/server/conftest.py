"""The mesa and people of tests.support.one_mesa, for the server's tests."""

from tests.support.one_mesa import championship, mesa, people  # noqa: F401  (fixtures)
