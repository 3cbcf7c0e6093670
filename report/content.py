"""The championship's report for the Comité: what the PDF says, gathered from every part.

It reads and decides nothing of its own: the champion and who is out come
from the bracket engine's adapter (``tournament.draws.advancement``, written on
the championship), the standings and the bracket's layout from
``tournament.results.standings``, each mesa's verification code from the planilla
(``refereeing.planilla.sheet``), the appeals from their model and the
Director's resolutions from ``resolutions``. Plain functions over the
models; the view renders the result.
"""

from dataclasses import dataclass

from django.utils import timezone

from refereeing.models import Appeal
from refereeing.planilla import sheet as planilla
from refereeing.planilla import verification
from tournament.draws import advancement
from tournament.results import standings
from tournament.seating.seating import bracket_order


@dataclass
class Report:
    championship: object
    champion: object
    tables: list
    absent: list
    sections: list
    mesas: list
    appeals: list
    resolutions: list
    printed_at: object
    language: str


def build(championship, language: str) -> Report:
    mesas = sorted(planilla.mesas_for_print().filter(championship=championship), key=bracket_order)
    pairs = list(championship.pairs.order_by("name"))
    void = advancement.void_ids(mesas)
    tables = standings.table(championship, pairs, mesas)
    ranked = {row["pair"].pk for t in tables for row in t["rows"]}
    for mesa in mesas:
        mesa.code = verification.verification_code(mesa) if mesa.status in mesa.DECIDED else ""
        mesa.void = mesa.pk in void
    return Report(
        championship=championship,
        champion=championship.champion,
        tables=tables,
        # The pairs that played no part (not checked in, or not drawn): listed, not left out.
        absent=[p for p in pairs if p.pk not in ranked],
        sections=standings.bracket_sections(mesas),
        mesas=mesas,
        appeals=list(
            Appeal.objects.filter(mesa__championship=championship).select_related("mesa").order_by("filed_at", "pk")
        ),
        resolutions=list(championship.resolutions.order_by("number")),
        printed_at=timezone.now(),
        language=language,
    )
