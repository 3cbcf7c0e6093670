"""How the engine speaks: both languages at once, one table of kind labels, anchors of articles.

The rules document is docs/REGLAS.md; its anchors are tested against the
page in tests/refereeing/rulebook/test_rules_page.py.
"""

import pytest

from engines.rules import KINDS
from engines.rules.messages import KIND_LABELS, anchor, kind_labels, pick
from engines.rules.rules import RuleSetError, build_ruleset

from .logs import last, play


def test_every_claim_kind_has_one_label_in_spanish_and_english():
    assert set(KIND_LABELS) == set(KINDS)
    assert kind_labels("es")["cuatro_caidas"] == "Cuatro caídas"
    assert kind_labels("en-us")["cuatro_caidas"] == "Four caídas"


def test_pick_reads_every_shape_the_engine_speaks_in():
    decision = last(play("mano", "conteo 20 20"))
    assert pick(decision, "en") == decision.message_en and pick(decision, "es-ec") == decision.message
    assert pick(decision.as_dict(), "en") == decision.message_en
    assert pick(("uno", "one"), "en") == "one" and pick(("uno", "one"), "es") == "uno"
    with pytest.raises(RuleSetError) as caught:
        build_ruleset("quito")
    assert pick(caught.value, "es") == "Perfil desconocido «quito»; use uno de: riobamba, pichincha, a_todo_rigor."
    assert pick(caught.value, "en") == "Unknown profile 'quito'; use one of: riobamba, pichincha, a_todo_rigor."


def test_a_decisions_message_uses_the_one_table_of_labels():
    decision = last(play("mano", "mal_repartidas"))
    assert decision.message == "Mal repartidas: +10 para B."
    assert decision.message_en == "Misdeal: +10 to B."


@pytest.mark.parametrize(
    "article, expected",
    [
        ("Art. 10", "art-10"),
        ("Art. 3g.6", "art-3"),
        ("Art. 10, 15", "art-10"),
        ("002 Art. 15B", "s002-art-15"),
        ("Art. 8; 002 Art. 15A", "art-8"),
        ("seed 003", "s003"),
        ("ruling anulaciones", "ruling-anulaciones"),
        (None, None),
        ("", None),
        ("nothing", None),
    ],
)
def test_each_citation_has_its_anchor_in_docs_reglas(article, expected):
    assert anchor(article) == expected
