"""The claim log's mesa and people, and the production set-up's static files, for the server's tests."""

import pytest

from tests.claimlog.conftest import championship, mesa, people  # noqa: F401  (fixtures)


@pytest.fixture(scope="session")
def production_static(tmp_path_factory):
    """collectstatic's output as production has it (hashed names, gzip and Brotli), made once."""
    from .production import collect_static

    return collect_static(tmp_path_factory.mktemp("staticfiles"))
