"""Schemathesis fuzzes the API over its own OpenAPI schema, signed in as the juez of a mesa in play.

Every operation gets a bounded number of generated requests (valid and
invalid bodies, query strings and headers), sent with the juez's session
cookie and CSRF token to that mesa. No answer may be a server error (5xx)
and every answer must match the schema: its status listed, its body shaped
as documented (each feature's ``api_schema.py``).
"""

import uuid

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from refereeing.claimlog.log import record_claim

EXAMPLES = 25

schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def api_schema(transactional_db):
    # Django's own WSGI handler, not config.wsgi: no start-up check in the test process.
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture
def juez_on_a_mesa_in_play(people, mesa):
    record_claim(mesa, {"kind": "mano"}, uuid.uuid4(), user=people["juez"])
    client = Client()
    client.force_login(people["juez"])
    client.get("/cuenta/entrar/")  # sets the CSRF cookie
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    return mesa, cookies


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_as_its_schema_says_and_never_with_a_server_error(case, juez_on_a_mesa_in_play):
    mesa, cookies = juez_on_a_mesa_in_play
    if case.path_parameters and "mesa_id" in case.path_parameters:
        case.path_parameters["mesa_id"] = mesa.pk
    case.call_and_validate(
        headers={"X-CSRFToken": cookies["csrftoken"]},
        cookies=cookies,
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance],
    )
