"""What the tests of the organisers' pages share: the English words (a test module opts in with
``pytest.mark.usefixtures("english")``), a client asking for English, and a signed-in organiser."""

import pytest
from django.utils import translation

from tests.support.factories import organiser


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def english_client(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def org_client(english_client):
    english_client.force_login(organiser())
    return english_client
