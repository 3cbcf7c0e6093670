"""At start-up, say at once when the database or Redis does not answer.

The server still starts: requests get a 503 naming the service
(``config.errors``) until it answers, and no restart is needed then. The
check runs once per process, when the WSGI or ASGI application is built.
"""

import logging

from django.conf import settings
from django.db import connections

logger = logging.getLogger("config.startup")


def check_services():
    """Log an error for each service that does not answer; return their names."""
    down = []
    connection = connections["default"]
    try:
        connection.ensure_connection()
    except Exception as error:  # any driver error means the same: not answering
        logger.error("The database %s does not answer: %s. Requests get 503 until it does.", _where_db(), error)
        down.append("database")
    finally:
        connection.close()
    if settings.REDIS_URL:
        import redis

        try:
            redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2).ping()
        except redis.RedisError as error:
            logger.error("Redis at %s does not answer: %s. Requests get 503 until it does.", settings.REDIS_URL, error)
            down.append("redis")
    return down


def _where_db():
    db = settings.DATABASES["default"]
    if db.get("HOST"):
        return f"{db['NAME']} at {db['HOST']}:{db.get('PORT') or 'default port'}"
    return str(db["NAME"])
