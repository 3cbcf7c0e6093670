"""The Django admin for the championship's data (the refereeing models are
in ``refereeing/admin.py``): shown, never changed.

A championship's settings, its pairs and their players change on the
organisers' pages, and a mesa's pairs, status and result only through
the draw, the claim log, the result form and the Director's override
(``tournament.results.results``), each with its audit entry; the admin's forms would
go around them (``audit.readonly``).
"""

from django.contrib import admin

from audit.readonly import ReadOnly, ReadOnlyAdmin

from .models import Championship, Mesa, Pair, Player


class PlayerInline(ReadOnly, admin.TabularInline):
    model = Player
    extra = 0
    max_num = 2


@admin.register(Championship)
class ChampionshipAdmin(ReadOnlyAdmin):
    list_display = ["name", "edition", "start_date", "sede", "bracket_format", "ruleset_profile", "director"]
    list_filter = ["bracket_format", "ruleset_profile"]
    search_fields = ["name", "edition", "sede__name"]


@admin.register(Pair)
class PairAdmin(ReadOnlyAdmin):
    list_display = ["name", "championship", "club", "seed", "arrival"]
    list_filter = ["championship", "arrival"]
    search_fields = ["name", "club", "players__full_name", "players__id_number"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ["full_name", "pair", "number", "is_representative", "id_number", "phone"]
    search_fields = ["full_name", "id_number", "pair__name"]
    list_select_related = ["pair"]


@admin.register(Mesa)
class MesaAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "championship", "pair_a", "pair_b", "status", "table_number", "juez", "winner"]
    list_filter = ["championship", "bracket", "status"]
    list_select_related = ["championship", "pair_a", "pair_b", "juez", "winner"]
    search_fields = ["pair_a__name", "pair_b__name"]
