"""The README is a newcomer's page: it starts with make run and make test, stays short, and names every setting."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Where the code reads the environment: config.environment's readers (environment.text("X"...), ...), and any
# os.environ or getenv left elsewhere (test_only_config_environment_reads_the_environment refuses those).
READ = re.compile(r"""(?:environ\.get|environ\[|getenv|environment\.[a-z_]+)\(?\s*["']([A-Z][A-Z0-9_]*)["']""")
# Set by the entry points for Django itself, or by the tests: not settings anyone configures.
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def product_sources():
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] not in {".venv", "tests", "benchmarks"} and "migrations" not in parts:
            yield path


def variables_read():
    found = set()
    for path in product_sources():
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


def test_only_config_environment_reads_the_environment():
    """One reader (config/environment.py): a setting read twice was parsed two ways (MIRROR, issue #36)."""
    readers = {
        str(path.relative_to(ROOT))
        for path in product_sources()
        if re.search(r"environ\.get|environ\[|getenv", path.read_text(encoding="utf-8"))
    }
    assert readers == {"config/environment.py", "config/gunicorn.py"}
    # gunicorn's file only tells Django that it serves HTTPS; it reads nothing.
    gunicorn = (ROOT / "config" / "gunicorn.py").read_text(encoding="utf-8")
    assert re.findall(r"environ\.get|environ\[[^]]*\]|getenv", gunicorn) == ['environ["HTTPS"]']
