"""The mirror's live updates, said by the replicated rows themselves.

On the mirror no request changes a mesa: the rows arrive through the
subscription. A trigger on the replicated tables (``ENABLE ALWAYS``: the
replication's apply worker runs only those) sends the same message the
venue's app publishes (``live.broker``) on a PostgreSQL channel, and every
process serving streams LISTENs on it with one connection. So a claim at
the venue reaches the phones on the mirror without the venue serving them,
and without a Redis on the mirror: NOTIFY is delivered on commit, in
commit order, to every app server connected to the mirror's database.
"""

import asyncio
import json
import logging

from django.db import connections

from .publication import CHANNEL, quoted

logger = logging.getLogger(__name__)

FUNCTION = "mesa_de_control_mirror_notify"
WATCHED = ("tournament_mesa", "refereeing_appeal")


def trigger_sql(schema):
    """The function and triggers, every name qualified with ``schema`` (the mirror's tables').

    The replication's workers (the first copy's and the apply worker) run
    with an empty ``search_path``: an unqualified name is found by nobody
    there, and the error stops the whole subscription at the first row.
    Built-in functions need no schema: ``pg_catalog`` is always searched.
    """
    function = f"{quoted(schema)}.{FUNCTION}"
    mesa = f"{quoted(schema)}.tournament_mesa"
    return [
        f"""
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'tournament_mesa' THEN
    -- A new mesa is a new bracket (a draw): the pages read it whole.
    PERFORM pg_notify('{CHANNEL}', json_build_object(
      'c', NEW.championship_id,
      'm', CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE json_build_array(NEW.id) END,
      's', json_build_object(NEW.id::text, NEW.last_seq))::text);
  ELSE
    PERFORM pg_notify('{CHANNEL}', json_build_object(
      'c', (SELECT championship_id FROM {mesa} WHERE id = NEW.mesa_id),
      'm', json_build_array(NEW.mesa_id),
      's', json_build_object())::text);
  END IF;
  RETURN NULL;
END $$""",
        *(
            statement
            for table in WATCHED
            for statement in (
                f"CREATE OR REPLACE TRIGGER {FUNCTION} AFTER INSERT OR UPDATE ON {quoted(schema)}.{quoted(table)} "
                f"FOR EACH ROW EXECUTE FUNCTION {function}()",
                f"ALTER TABLE {quoted(schema)}.{quoted(table)} ENABLE ALWAYS TRIGGER {FUNCTION}",
            )
        ),
    ]


async def listen():
    """Yield each message the mirror's triggers send, as a dict; a lost connection is retried every second."""
    import psycopg

    params = connections["default"].get_connection_params()
    params.pop("pool", None)
    params.pop("cursor_factory", None)
    params.pop("server_side_binding", None)
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                async for notice in connection.notifies():
                    yield json.loads(notice.payload)
        except (OSError, psycopg.Error) as error:
            logger.error("Live updates: the mirror's LISTEN connection was lost (%s); retrying in 1 s.", error)
            await asyncio.sleep(1)
