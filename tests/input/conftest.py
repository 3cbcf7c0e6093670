"""The fixtures of tests.support.one_mesa (a championship, a ready mesa and its people), for the input tests."""

import json

from tests.support.one_mesa import (  # noqa: F401  (fixtures)
    championship,
    english,
    mesa,
    other_mesa,
    people,
    played,
)


def post_raw(client, url, body, **headers):
    """POST ``body`` as ASCII JSON, so that a lone surrogate travels as ``\\ud800``
    (DRF's test client would fail to encode it) with the CSRF token, as the tablet does."""
    if "csrftoken" not in client.cookies:
        client.get("/cuenta/entrar/")
    return client.post(
        url,
        body if isinstance(body, (str, bytes)) else json.dumps(body),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
        **headers,
    )
