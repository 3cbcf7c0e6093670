"""The Redis cache (``config.cache``): one client per server for the process, as good as a new one per operation."""

import threading

import pytest
from django.conf import settings
from django.core.cache import caches

from config.cache import Cache

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis cache serves only with REDIS_URL")


@pytest.fixture
def cache():
    cache = Cache(settings.REDIS_URL, {"KEY_PREFIX": "test-config-cache"})
    yield cache
    # Only this test's keys: clear() empties the whole Redis database, under the other workers' sessions and tests.
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(match="test-config-cache:*"):
        client.delete(key)


def test_the_client_is_built_once_and_kept(cache):
    first = cache._cache.get_client(write=True)
    assert cache._cache.get_client() is first
    assert cache._cache.get_client(write=True) is first


def test_the_kept_client_serves_every_thread(cache):
    def work(n):
        for i in range(20):
            cache.set(f"k{n}-{i}", {"n": n, "i": i})
            got[n, i] = cache.get(f"k{n}-{i}")

    got = {}
    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == {(n, i): {"n": n, "i": i} for n in range(4) for i in range(20)}


def test_a_connection_broken_under_the_kept_client_is_replaced(cache):
    cache.set("before", 1)
    client = cache._cache.get_client()
    client.client_kill_filter(_id=client.client_id())  # Redis drops the connection the pool holds
    assert cache.get("before") == 1  # the pool reconnects: the request after it is served


def test_the_site_uses_it():
    assert isinstance(caches["default"], Cache)
