"""The claim log's championship, mesa and people, for the audit trail, the resolutions and the backups."""

from tests.claimlog.conftest import championship, english, mesa, other_mesa, people, played  # noqa: F401
