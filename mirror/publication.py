"""What the venue publishes: the tables the public pages read, each with its public columns only.

Rules
-----
- Published models are listed here with the columns they keep private:
  a column is published unless it is named. ``tests/mirror`` pins every
  published model's columns, so a new column is a decision (public, or
  added to ``PRIVATE``), never a leak by default.
- Never published: sessions, the audit trail, PIN failures, the drawn
  signatures (who signed and when is public), sign-in attempts, accounts' passwords and usernames, pairs' private
  tokens, players' and persons' cédulas and phones, tables' PINs, the jueces' days, the
  tablets' addresses, the planillas' verification codes (their digests
  are published, ``codes``), the identities left to the desk and the
  Comité's merges and splits of persons.
- On the mirror, a column the venue keeps private arrives empty: its
  NOT NULL is dropped there (``subscriber_sql``) so that the row applies.
"""

from django.apps import apps

PUBLICATION = "mesa_de_control_public"
SUBSCRIPTION = "mesa_de_control_mirror"
CHANNEL = "mesa_de_control_live"

PRIVATE = {
    "auth.User": {
        "password",
        "last_login",
        "is_superuser",
        "username",
        "email",
        "is_staff",
        "is_active",
        "date_joined",
    },
    "tournament.Sede": set(),
    "tournament.Table": {"pin", "pin_issued_at", "pin_issued_by_id"},
    "tournament.Championship": set(),
    "tournament.Pair": {"token"},
    "tournament.Player": {"id_number", "phone"},
    # Names and clubs only: the cédula stays at the venue.
    "tournament.Person": {"id_number"},
    "tournament.Rating": set(),
    "tournament.RatingChange": set(),
    "tournament.Mesa": set(),
    "refereeing.ClaimEntry": {"address", "client_id"},
    "refereeing.Appeal": {
        "client_id",
        "reason",
        "name",
        "signature",
        "ruled_by_id",
        "acknowledged_at",
        "acknowledged_by_id",
    },
    "resolutions.Resolution": set(),
    # The planilla's verification page (``codes``): who signed and when, never the drawing.
    "refereeing.Signature": {"image"},
    "mirror.PlanillaCode": set(),
}


def columns(label):
    """The columns of model ``label`` that leave the venue, in the table's order."""
    model = apps.get_model(label)
    return [f.column for f in model._meta.concrete_fields if f.column not in PRIVATE[label]]


def private_columns(label):
    model = apps.get_model(label)
    return [f.column for f in model._meta.concrete_fields if f.column in PRIVATE[label]]


def tables():
    return {apps.get_model(label)._meta.db_table: label for label in PRIVATE}


def quoted(name):
    """``name`` as a PostgreSQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def table_list():
    """``"table" ("col", ...), ...`` for CREATE/ALTER PUBLICATION."""
    return ", ".join(
        f"{quoted(table)} ({', '.join(quoted(c) for c in columns(label))})" for table, label in tables().items()
    )


def publisher_sql(exists):
    """The statement that makes the publication what this code says, whether it exists or not (idempotent)."""
    if exists:
        return f"ALTER PUBLICATION {PUBLICATION} SET TABLE {table_list()}"
    return f"CREATE PUBLICATION {PUBLICATION} FOR TABLE {table_list()}"


def subscriber_sql(schema):
    """What the mirror's tables (in ``schema``) need before rows arrive: the private columns may stay empty."""
    statements = []
    for table, label in tables().items():
        model = apps.get_model(label)
        for field in model._meta.concrete_fields:
            if field.column in PRIVATE[label] and not field.null:
                statements.append(
                    f"ALTER TABLE {quoted(schema)}.{quoted(table)} ALTER COLUMN {quoted(field.column)} DROP NOT NULL"
                )
    return statements
