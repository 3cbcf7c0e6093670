"""HTTPS mode: one variable, and `manage.py check --deploy` is clean with it; the streams' own server (STREAMS_URL)."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def check_deploy(**extra):
    # The suite's own DJANGO_ALLOW_ASYNC_UNSAFE (for Playwright) is no production setting.
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "mesa.example",
        **extra,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_check_deploy_is_clean_in_https_mode():
    done = check_deploy(HTTPS="true")
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


@pytest.mark.slow
def test_the_plain_http_lan_mode_is_what_check_deploy_warns_about():
    done = check_deploy(HTTPS="false")
    assert done.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in done.stderr


@pytest.mark.slow
def test_https_mode_sets_secure_cookies_hsts_redirect_and_the_proxy_header():
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
        "s.SECURE_PROXY_SSL_HEADER)"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "HTTPS": "true",
        "DEBUG": "false",
        "SECRET_KEY": "k" * 50,
    }
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["True", "True", "True", "31536000", "('HTTP_X_FORWARDED_PROTO',", "'https')"], (
        done.stderr
    )


def settings_in_a_new_process(**environment):
    """What ``config.settings`` makes of ``environment``: (exit code, stdout, stderr) of a process that loads it."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **environment}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.CONTENT_SECURITY_POLICY['DIRECTIVES']['connect-src'])",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return result.returncode, result.stdout, result.stderr


@pytest.mark.slow
def test_pages_may_connect_to_the_streams_server_and_to_nothing_else():
    code, out, err = settings_in_a_new_process(
        STREAMS_URL="http://192.168.1.10:8001/", REDIS_URL="redis://127.0.0.1:6379/15"
    )
    assert code == 0, err
    assert out.strip() == "[\"'self'\", 'http://192.168.1.10:8001']"
    code, out, err = settings_in_a_new_process(STREAMS_URL="", REDIS_URL="")
    assert (code, out.strip()) == (0, "[\"'self'\"]")


@pytest.mark.parametrize(
    "value, reason",
    [
        ("192.168.1.10:8001", "STREAMS_URL must be http(s)://host[:port] and nothing more"),
        ("ftp://192.168.1.10", "STREAMS_URL must be http(s)://host[:port] and nothing more"),
        ("http://192.168.1.10:8001/flujo", "STREAMS_URL must be http(s)://host[:port] and nothing more"),
        ("http://192.168.1.10:8001?x=1", "STREAMS_URL must be http(s)://host[:port] and nothing more"),
        ("http://192.168.1.10:80x1", "STREAMS_URL must be http(s)://host[:port] and nothing more"),
        ("http://192.168.1.10:8001#x", "STREAMS_URL must be http(s)://host[:port] and nothing more"),
        ("http://user@192.168.1.10:8001", "STREAMS_URL must be http(s)://host[:port] and nothing more"),
    ],
)
@pytest.mark.slow
def test_a_streams_url_that_is_not_one_stops_the_start_with_its_reason(value, reason):
    code, _, err = settings_in_a_new_process(STREAMS_URL=value, REDIS_URL="redis://127.0.0.1:6379/15")
    assert code != 0 and reason in err


def test_a_streams_server_without_redis_stops_the_start_with_its_reason():
    code, _, err = settings_in_a_new_process(STREAMS_URL="http://192.168.1.10:8001", REDIS_URL="")
    assert code != 0 and "STREAMS_URL needs REDIS_URL" in err
