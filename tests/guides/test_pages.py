"""The guides at /ayuda/: every page in Spanish and in English, every sentence translated, every picture there."""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation.template import templatize

from guides.views import GUIDES

TEMPLATES = Path(settings.BASE_DIR) / "templates" / "guides"
HELP = Path(settings.BASE_DIR) / "static" / "help"
PAGES = [reverse("guides:index")] + [reverse("guides:guide", args=[slug]) for slug in GUIDES]
# A gettext call in a template as Django's makemessages sees it.
CALL = re.compile(r"""\b(?:gettext|_)\(u?('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\)""")


def msgids():
    """Every msgid of the guides: their templates' and their titles'."""
    with translation.override(None):  # no language: the lazy titles give their msgids
        found = {str(title) for about in GUIDES.values() for title in about}
    for template in TEMPLATES.glob("*.html"):
        source = templatize(template.read_text(encoding="utf-8"), origin=str(template))
        found |= {ast.literal_eval(literal) for literal in CALL.findall(source)}
    return found


def text(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.mark.parametrize("path", PAGES)
def test_every_guide_answers_in_spanish_and_in_english(client, path):
    spanish = client.get(path, headers={"accept-language": "es-EC"})
    english = client.get(path, headers={"accept-language": "en"})
    assert spanish.status_code == english.status_code == 200
    assert '<html lang="es' in spanish.content.decode() and '<html lang="en"' in english.content.decode()
    with translation.override("es"):
        title = translation.gettext(str(GUIDES.get(path.strip("/").split("/")[-1], ("Help",))[0]))
    assert title in text(spanish) and title not in text(english)


@pytest.mark.django_db
def test_the_guides_are_linked_from_the_bar_and_the_index(client):
    home = client.get("/").content.decode()
    assert f'href="{reverse("guides:index")}"' in home
    index = client.get(reverse("guides:index")).content.decode()
    for slug in GUIDES:
        assert f'href="{reverse("guides:guide", args=[slug])}"' in index
    assert client.get("/ayuda/no-such-guide/").status_code == 404


def test_every_sentence_of_the_guides_has_its_spanish(client):
    ids = msgids()
    assert len(ids) > 90 and "Without network" in ids
    # The compiled catalogue is what the pages speak: a msgid missing from it would show in English.
    catalogue = translation.trans_real.translation("es")._catalog
    assert sorted(m for m in ids if not catalogue.get(m)) == []
    spanish = text(client.get(reverse("guides:guide", args=["juez"]), headers={"accept-language": "es"}))
    english = text(client.get(reverse("guides:guide", args=["juez"]), headers={"accept-language": "en"}))
    assert "Siga tocando: las jugadas se guardan en la tablet" in spanish and "Keep tapping" not in spanish
    assert "Keep tapping: the claims are kept on the tablet" in english and "Siga tocando" not in english


@pytest.mark.parametrize("language, folder", [("es-EC", "es"), ("en", "en")])
def test_every_picture_the_guides_show_is_in_static_help_in_the_pages_language(client, language, folder):
    shown = set()
    for path in PAGES:
        page = client.get(path, headers={"accept-language": language}).content.decode()
        shown |= set(re.findall(r'src="/static/help/([^"]+)"', page))
    assert len(shown) >= 12
    assert {name.split("/", 1)[0] for name in shown} == {folder}  # the pictures of the page's language only
    for name in shown:
        assert (HELP / name).is_file(), name
    assert {f"{folder}/{p.name}" for p in (HELP / folder).glob("*.png")} == shown
    assert sorted(HELP.glob("*.png")) == []  # none left from before the pictures had a language


def test_each_guide_shows_pictures_with_their_words(client):
    for slug in GUIDES:
        page = client.get(reverse("guides:guide", args=[slug]), headers={"accept-language": "es"}).content.decode()
        figures = re.findall(r'<img [^>]*src="/static/help/[^"]+" alt="([^"]+)"', page)
        assert figures and all(alt.strip() for alt in figures), slug


def test_one_make_target_takes_the_pictures_again_into_static_help():
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text(encoding="utf-8")
    target = makefile.split("\nguide-screenshots:", 1)[1].split("\n\n", 1)[0]
    assert "GUIDE_SCREENSHOTS=1" in target and "tests/guides/test_screenshots.py" in target
