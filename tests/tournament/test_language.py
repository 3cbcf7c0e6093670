"""The Django side picks the engine's texts in the request's language (tournament.language)."""

from django.utils import translation

from engines.rules.messages import kind_labels
from refereeing.juezscreen import views
from refereeing.planilla import labels
from tournament.language import language, speak


def test_speak_picks_the_requests_language():
    with translation.override("en"):
        assert language() == "en" and speak(("sí", "yes")) == "yes"
    with translation.override("es-ec"):
        assert language() == "es" and speak({"message": "sí", "message_en": "yes"}) == "sí"


def test_the_screens_and_the_planilla_label_kinds_from_the_engines_one_table():
    assert not hasattr(labels, "KIND_LABELS") and not hasattr(views, "PAIR_CLAIMS")
    with translation.override("en"):
        strings = views.catalogue()
        assert {k[5:]: v for k, v in strings.items() if k.startswith("kind.")} == kind_labels("en")
        assert labels.claim_label({"kind": "mal_repartidas"}) == "Misdeal"
