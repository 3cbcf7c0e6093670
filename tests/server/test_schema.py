"""The API's OpenAPI 3 schema: every endpoint described, valid, no generator warning."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_spectacular_validates_the_schema_without_a_warning(tmp_path):
    target = tmp_path / "schema.json"
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "spectacular",
            "--validate",
            "--fail-on-warn",
            "--format",
            "openapi-json",
            "--file",
            str(target),
        ],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    schema = json.loads(target.read_text())
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) == {
        "/api/mesas/{mesa_id}/",
        "/api/mesas/{mesa_id}/claims/",
        "/api/mesas/{mesa_id}/signatures/",
        "/api/levante/",
        "/mesa/{mesa_id}/apelaciones/",
        "/mesa/{mesa_id}/vista-previa/",
    }


@pytest.mark.django_db
def test_the_schema_and_its_documentation_are_served_without_sign_in():
    client = Client()
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    assert schema.json()["paths"]["/api/mesas/{mesa_id}/claims/"]["post"]["operationId"] == "mesa_claims_log"
    docs = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in docs
    assert "https://" not in docs and "http://" not in docs
