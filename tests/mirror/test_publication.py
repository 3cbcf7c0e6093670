"""What leaves the venue for the public mirror (#27): every published column is a decision, pinned here."""

from django.apps import apps

from mirror import publication

# A new column of a published model fails this test until it is decided:
# public (added here) or private (added to publication.PRIVATE).
PUBLISHED = {
    "auth.User": {"id", "first_name", "last_name"},
    "tournament.Sede": {"id", "name", "plan"},
    "tournament.Table": {"id", "sede_id", "number"},
    "tournament.Championship": {
        "id", "name", "edition", "sede_id", "start_date", "end_date", "director_id", "ruleset_profile",
        "ruleset_overrides", "players_per_pair", "bracket_format", "third_place", "group_size", "advance_per_group",
        "draw_seed", "draw_order", "champion_id", "appeal_window_minutes", "self_check_in", "auto_seating",
        "start_mode", "created_at",
    },
    "tournament.Pair": {"id", "championship_id", "name", "club", "seed", "arrival", "name_key", "link_version"},
    "tournament.Player": {"id", "pair_id", "number", "full_name", "is_representative", "person_id"},
    "tournament.Person": {"id", "full_name", "club", "name_key", "club_key", "merged_into_id", "created_at"},
    "tournament.Rating": {"person_id", "mu", "sigma", "strength", "mesas", "last_at", "last_mesa"},
    "tournament.RatingChange": {"id", "person_id", "mesa_id", "at", "mu", "sigma", "won"},
    "tournament.Mesa": {
        "id", "championship_id", "bracket", "round", "position", "group", "pair_a_id", "pair_b_id", "winner_to_id",
        "winner_to_slot", "loser_to_id", "loser_to_slot", "table_number", "juez_id", "inspector_id", "first_dealer",
        "header", "status", "chicas_a", "chicas_b", "winner_id", "zapateria", "state", "last_seq", "seated_at",
        "started_at", "finished_at",
    },
    "refereeing.ClaimEntry": {"id", "mesa_id", "seq", "kind", "claim", "decision", "accepted", "juez_id", "created_at"},
    "refereeing.Appeal": {"id", "mesa_id", "pair", "seq", "filed_at", "status", "suspended_mesa", "admitted_at",
                          "ruling", "ruled_at"},
    "refereeing.Signature": {"id", "mesa_id", "role", "name", "signed_at"},
    "mirror.PlanillaCode": {"mesa_id", "digests"},
    "resolutions.Resolution": {
        "id", "championship_id", "number", "situation", "ruling", "articles", "ajuste_mesa_id", "ajuste_pair",
        "ajuste_points", "ajuste_seq", "director_id", "decided_at", "precedent_from", "precedent_mesas",
        "precedent_number",
    },
}  # fmt: skip


def test_every_published_column_is_one_decided_public():
    assert {label: set(publication.columns(label)) for label in publication.PRIVATE} == PUBLISHED


def test_every_private_column_exists_so_none_is_kept_private_by_a_stale_name():
    for label, private in publication.PRIVATE.items():
        columns = {f.column for f in apps.get_model(label)._meta.concrete_fields}
        assert private <= columns, label


def test_the_secrets_never_leave_the_venue():
    published = {(label, column) for label, columns in PUBLISHED.items() for column in columns}
    for secret in [
        ("auth.User", "password"),
        ("auth.User", "username"),
        ("auth.User", "email"),
        ("tournament.Pair", "token"),
        ("tournament.Player", "id_number"),
        ("tournament.Player", "phone"),
        ("tournament.Person", "id_number"),
        ("tournament.Table", "pin"),
        ("refereeing.ClaimEntry", "address"),
        ("refereeing.Appeal", "signature"),
        ("refereeing.Signature", "image"),
    ]:
        assert secret not in published
    tables = set(publication.tables())
    for never in (
        "django_session",
        "audit_auditentry",
        "refereeing_pinfailure",
        "mirror_mark",
        "tournament_juezday",
        "tournament_doubt",
        "tournament_personchange",
    ):
        assert never not in tables


def test_the_publication_names_each_table_with_its_columns():
    sql = publication.publisher_sql(exists=False)
    assert sql.startswith("CREATE PUBLICATION mesa_de_control_public FOR TABLE ")
    assert '"tournament_player" ("id", "pair_id", "number", "full_name", "is_representative", "person_id")' in sql
    assert publication.publisher_sql(exists=True).startswith("ALTER PUBLICATION mesa_de_control_public SET TABLE ")
