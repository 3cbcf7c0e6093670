"""The README is a newcomer's page: it starts with make run and make test, stays short, and names every setting."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Where the code reads the environment: os.environ.get("X"...), os.environ["X"], settings' _flag("X"...).
READ = re.compile(r"""(?:environ\.get|environ\[|getenv|_flag)\(?\s*["']([A-Z][A-Z0-9_]*)["']""")
# Set by the entry points for Django itself, or by the tests: not settings anyone configures.
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def variables_read():
    found = set()
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in {".venv", "tests", "benchmarks"} or "migrations" in parts:
            continue
        found |= set(READ.findall(path.read_text(encoding="utf-8")))
    # dj_database_url.config() reads DATABASE_URL without naming it.
    if "dj_database_url.config(" in (ROOT / "config" / "settings.py").read_text(encoding="utf-8"):
        found.add("DATABASE_URL")
    return found - NOT_SETTINGS


def configuration_table():
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", section, re.M))


def test_the_readme_starts_with_make_run_and_make_test_and_stays_short():
    lines = README.splitlines()
    assert len(lines) < 200
    body = [line for line in lines[1:] if line.strip()]
    assert body[0] == "```sh"
    assert body[1].startswith("make run ") and body[2].startswith("make test ")


def test_every_environment_variable_the_code_reads_is_in_the_configuration_table():
    read = variables_read()
    assert {"SECRET_KEY", "DATABASE_URL", "STREAMS_PER_WORKER", "BIND", "PLANILLA_SITE_URL"} <= read
    assert sorted(read - configuration_table()) == []


def test_every_file_the_readme_links_exists():
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README):
        assert (ROOT / target).is_file(), target
