"""Django's PostgreSQL backend, whose pool gets over a restart or an outage of the database at once.

A restart of PostgreSQL kills every connection the pool holds. psycopg_pool's
own check (``CONN_HEALTH_CHECKS``) drops one dead connection per loan and then
waits a second or more before trying the next, so each request after a
restart met a dead connection or that wait: 15 of 100 failed, for minutes.
Here the first dead connection found has the pool test all the others it
holds at once, and the request takes a new connection without waiting.

After an outage the pool's attempts to reconnect are seconds apart (they
back off, doubling), so the database was back long before the site was. A
request that finds no connection within the pool's timeout leaves that pool
behind and asks a new one, which connects at once; a database still away
then fails the request (503) after twice the pool's timeout.
"""

from django.db.backends.postgresql import base
from psycopg import Error
from psycopg_pool import ConnectionPool, PoolTimeout


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        for attempt in range(2):
            try:
                connection = super().get_new_connection(conn_params)
                break
            except PoolTimeout:
                self.leave_pool()
                if attempt:
                    raise
        if self.pool is None:
            return connection
        try:
            ConnectionPool.check_connection(connection)
        except Error:
            self.pool.putconn(connection)  # broken: the pool closes it and opens another
            self.pool.check()  # the others died with it
            connection = super().get_new_connection(conn_params)
        return connection

    def leave_pool(self):
        """Drop this process's pool (connections lent from it close when given back) without waiting for its
        background attempts to connect."""
        pool = self._connection_pools.pop(self.alias, None)
        if pool is not None:
            pool.close(timeout=0)
