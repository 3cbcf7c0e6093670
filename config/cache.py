"""Django's Redis cache, with one Redis client per server kept for the process instead of one made per operation.

Django's ``RedisCache`` builds a new ``redis.Redis`` around its connection
pool for every get and set; building one fills its table of reply parsers
anew, which cost as much CPU as the round trip to Redis it served (a
session's read on every signed-in request: ``benchmarks/RESULTS.md``, "The
cost of a request"). A client holds no connection of its own (each command
borrows one from the pool and gives it back, broken ones dropped), so one
client serves every thread of the process.
"""

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class KeptClients(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            # Two threads may both build one at first; either serves, the other is dropped.
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class Cache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClients
