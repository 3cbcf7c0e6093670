"""HTTPS mode: one variable, and `manage.py check --deploy` is clean with it."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

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


def test_check_deploy_is_clean_in_https_mode():
    done = check_deploy(HTTPS="true")
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_the_plain_http_lan_mode_is_what_check_deploy_warns_about():
    done = check_deploy(HTTPS="false")
    assert done.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in done.stderr


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
