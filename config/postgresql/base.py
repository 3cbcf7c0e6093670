"""Django's PostgreSQL backend, whose pool gets over a restart or an outage of the database at once.

A restart of PostgreSQL kills every connection the pool holds, and the
server says so on each: it writes a last message and closes the socket. psycopg_pool's
own check (``CONN_HEALTH_CHECKS``) drops one dead connection per loan and then
waits a second or more before trying the next, so each request after a
restart met a dead connection or that wait: 15 of 100 failed, for minutes.
Here each connection lent is looked at first (``closed_by_server``: no
round trip), the first dead one found has the pool test all the others it
holds at once, and the request takes a new connection without waiting.

After an outage the pool's attempts to reconnect are seconds apart (they
back off, doubling), so the database was back long before the site was. A
request that finds no connection within the pool's timeout leaves that pool
behind and asks a new one, which connects at once; a database still away
then fails the request (503) after twice the pool's timeout. The requests
that were waiting on the pool left behind are failed by it ("the pool is
closed"): they take the new pool instead, and that does not count as a wait.
"""

import select
import threading

from django.db.backends.postgresql import base
from psycopg import pq
from psycopg_pool import PoolClosed, PoolTimeout

# A pool is asked for, and left, by every thread of the process: without one
# lock a thread could leave the pool another has just made, or look a pool
# up between another's check and removal of it (a KeyError in Django's own
# property).
_pools_lock = threading.RLock()

# A request gives up after this many pools left behind in its own wait (a
# database still away), and after this many attempts in all (others leaving
# pools under it: each of theirs took a whole wait).
TIMEOUTS = 2
ATTEMPTS = 2 * TIMEOUTS


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        with _pools_lock:
            return super().pool

    def get_new_connection(self, conn_params):
        timeouts = 0
        for attempt in range(1, ATTEMPTS + 1):
            pool = self.pool
            try:
                connection = super().get_new_connection(conn_params)
                break
            except PoolClosed:
                if attempt == ATTEMPTS or self.pool is pool:
                    raise  # closed by Django itself (close_pool), not left for a new one
            except PoolTimeout:
                self.leave_pool(pool)
                timeouts += 1
                if timeouts == TIMEOUTS or attempt == ATTEMPTS:
                    raise
        if self.pool is None:
            return connection
        if closed_by_server(connection):
            pool.putconn(connection)  # broken: the pool closes it and opens another
            pool.check()  # the others died with it
            connection = super().get_new_connection(conn_params)
        return connection

    def leave_pool(self, pool):
        """Drop this process's pool (connections lent from it close when given back) without waiting for its
        background attempts to connect, unless another thread has already put a new one in its place."""
        with _pools_lock:
            if self._connection_pools.get(self.alias) is pool:
                del self._connection_pools[self.alias]
        pool.close(timeout=0)


def closed_by_server(connection):
    """Whether the server has ended an idle connection (a restart, an administrator, a timeout of its own), without
    a round trip: an idle connection has nothing to read until it sends a query, so anything readable on its socket
    is the server's last word, or the end of the socket. The empty query that tested each loan instead was a round
    trip per request, 7% of a worker's samples under the claim benchmark (``benchmarks/RESULTS.md``, "The cost of a
    request"). Anything else readable (a notice the server sent unasked) costs only the pool's check of its idle
    connections. A host that stopped answering without closing is found by the next query's timeouts, as before."""
    if connection.closed or connection.pgconn.status != pq.ConnStatus.OK:
        return True
    try:
        poller = select.poll()  # not select(): a worker's sockets number in the thousands, past select's 1024
        poller.register(connection.pgconn.socket, select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError):
        return True
