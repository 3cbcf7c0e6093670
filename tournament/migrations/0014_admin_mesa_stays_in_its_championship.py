"""A mesa stays in the championship it was drawn in, whatever writes to it.

``Mesa.save`` refuses the move; this trigger refuses it to a bulk update
and to raw SQL as well, on both databases the project runs on. A refusal
is an integrity error, as a broken constraint is.
"""

from django.db import migrations

SQLITE_UP = """
CREATE TRIGGER tournament_mesa_stays_in_its_championship
BEFORE UPDATE OF championship_id ON tournament_mesa
FOR EACH ROW WHEN NEW.championship_id <> OLD.championship_id
BEGIN
    SELECT RAISE(ABORT, 'A mesa stays in the championship it was drawn in.');
END;
"""
SQLITE_DOWN = "DROP TRIGGER IF EXISTS tournament_mesa_stays_in_its_championship;"

POSTGRESQL_UP = """
CREATE FUNCTION tournament_mesa_stays_in_its_championship() RETURNS trigger AS $$
BEGIN
    IF NEW.championship_id <> OLD.championship_id THEN
        RAISE EXCEPTION 'A mesa stays in the championship it was drawn in.'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER tournament_mesa_stays_in_its_championship
BEFORE UPDATE OF championship_id ON tournament_mesa
FOR EACH ROW EXECUTE FUNCTION tournament_mesa_stays_in_its_championship();
"""
POSTGRESQL_DOWN = """
DROP TRIGGER IF EXISTS tournament_mesa_stays_in_its_championship ON tournament_mesa;
DROP FUNCTION IF EXISTS tournament_mesa_stays_in_its_championship();
"""


def up(apps, schema_editor):
    _run(schema_editor, SQLITE_UP if schema_editor.connection.vendor == "sqlite" else POSTGRESQL_UP)


def down(apps, schema_editor):
    _run(schema_editor, SQLITE_DOWN if schema_editor.connection.vendor == "sqlite" else POSTGRESQL_DOWN)


def _run(schema_editor, sql):
    if schema_editor.connection.vendor in ("sqlite", "postgresql"):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0013_pairs_name_key")]
    operations = [migrations.RunPython(up, down)]
