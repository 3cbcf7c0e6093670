"""Where a tablet's session lives: the database, and a shared Redis in front when ``REDIS_URL`` is set.

CI runs the suite both ways: on SQLite without Redis (the embedded
default) and on PostgreSQL with Redis (a real championship).
"""

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.sessions.backends.cached_db import KEY_PREFIX
from django.contrib.sessions.models import Session
from django.core.cache import cache

from tests.support.claims import CAIDA_A, MANO, api_client, claim_body, post_json

pytestmark = pytest.mark.django_db


def test_a_signed_in_tablet_keeps_its_session_in_the_database(people, mesa):
    juez = api_client(people["juez"])
    key = juez.session.session_key
    assert Session.objects.filter(session_key=key).exists()
    assert post_json(juez, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO)).status_code == 201


@pytest.mark.skipif(not settings.REDIS_URL, reason="REDIS_URL is not set: sessions are in the database alone")
def test_with_redis_the_session_is_read_from_the_shared_cache(people, mesa, django_assert_num_queries):
    juez = api_client(people["juez"])
    key = juez.session.session_key
    assert cache.get(KEY_PREFIX + key) is not None
    post_json(juez, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO))
    # The session from Redis, so the claim's queries are the user, the
    # locked mesa, its log, the entry, the mesa's guard (Mesa.save reads the
    # saved row's status and pairs), the mesa's update, BEGIN and COMMIT.
    with django_assert_num_queries(8, exact=False):
        assert post_json(juez, f"/api/mesas/{mesa.pk}/claims/", claim_body(CAIDA_A)).status_code == 201
    juez.logout()
    assert cache.get(KEY_PREFIX + key) is None
    assert not Session.objects.filter(session_key=key).exists()


def test_sessions_follow_redis_url():
    if settings.REDIS_URL:
        assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
        assert settings.CACHES["default"]["LOCATION"] == settings.REDIS_URL
    else:
        assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


@pytest.mark.slow
def test_a_redis_url_that_is_not_one_stops_the_start_with_its_reason():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "REDIS_URL": "localhost:6379"}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "REDIS_URL must be redis://, rediss:// or unix://, not 'localhost:6379'." in result.stderr
