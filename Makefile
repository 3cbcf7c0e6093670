# Mesa de Control: `make run` serves the demo, `make serve` a real
# championship, `make test` runs every test. Each installs what it needs
# first (system packages, the virtualenv), and does nothing twice.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The proxy whose X-Forwarded-For is believed: none unless set (uvicorn's
# own default believes 127.0.0.1).
FORWARDED_ALLOW_IPS ?=
# What the app and its tests need from Debian: a venv, WeasyPrint's Pango
# and fonts, gettext for the translations, Chromium for the browser tests,
# poppler-utils to render PDFs to PNG, GNU time for make test-fast's CPU seconds.
APT_PACKAGES := python3-venv gettext libpango-1.0-0 libpangoft2-1.0-0 \
	libharfbuzz-subset0 fonts-dejavu-core fonts-liberation2 chromium \
	poppler-utils time

.PHONY: run serve test test-fast slow-tests lock lint pytest system venv messages db help mirror mirror-publish guide-screenshots

help:
	@echo "make run   set up and serve the demo championship on http://$(HOST):$(PORT)"
	@echo "make serve set up and serve in production (the README's Configuration in the environment);"
	@echo "           with TLS_DIR=tls, HTTPS with the venue's own certificate (README, HTTPS at the venue)"
	@echo "make test  set up, lint and run the whole test suite on SQLite (in parallel: PYTEST_WORKERS=$(PYTEST_WORKERS))"
	@echo "make test-fast  lint and the suite less its browser, fuzz, production-server and slow tests (under 2 min),"
	@echo "           its wall time and CPU seconds printed"
	@echo "make slow-tests  measure the suite and fail on a stale slow mark (PYTEST_ARGS=tests/... for some folders)"
	@echo "make lint  ruff, the import contracts, mypy and the migrations' check only"
	@echo "make lock  write requirements.lock again after a change of pin in pyproject.toml"
	@echo "make guide-screenshots  take the pictures of the guides (/ayuda/) again, in both languages, into static/help/"

system:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing system packages: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "Missing system packages; as root run: apt-get install $$missing"; exit 1; \
	  fi; \
	fi

# Exactly the versions of requirements.lock (what pyproject.toml pins, and
# all they pull in), then the project itself, whose dependencies those are.
$(VENV)/.installed: requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "Python 3.11 is needed (pyproject.toml); found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.lock
	$(PY) -m pip install -q -e . --no-deps
	@$(PY) -c 'import django; assert django.get_version() == "5.2.19", "pip installed Django " + django.get_version() + ", not the pinned 5.2.19"'
	touch $@

# After a change of pin in pyproject.toml: every package's version again,
# from the index pip is configured with (no network beyond it).
lock:
	$(VENV)/bin/pip-compile --quiet --extra test --strip-extras --no-emit-index-url --no-emit-find-links \
		-o requirements.lock pyproject.toml

venv: system $(VENV)/.installed

messages: venv
	$(PY) manage.py compilemessages --ignore "$(VENV)" -v 0

db: messages
	$(PY) manage.py migrate --no-input -v 0

run: db
	$(PY) manage.py demo --if-empty
	$(VENV)/bin/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-access-log \
		--forwarded-allow-ips "$(FORWARDED_ALLOW_IPS)"

# Production, with the settings of the README's Configuration section in the
# environment (DEBUG=false, SECRET_KEY, DATABASE_URL, ALLOWED_HOSTS...):
# the migrations, the translations (the *.mo files are not in git: without
# them the site speaks English to everyone), the static files under their
# hashed names, then gunicorn with config/gunicorn.py in place of make.
# With TLS_DIR set (e.g. TLS_DIR=tls), HTTPS on the venue's own network: the
# venue's certificate authority and this server's certificate for its LAN
# addresses are made there (once; the certificate again for a new address),
# and gunicorn serves HTTPS with them (README, "HTTPS at the venue").
serve: db
	$(PY) manage.py collectstatic --noinput -v 0
	@if [ -n "$$TLS_DIR" ]; then $(PY) manage.py venue_certificate; fi
	exec $(VENV)/bin/gunicorn -c config/gunicorn.py config.asgi

# The public mirror (docs/mirror.md). At the venue, once its PostgreSQL has
# wal_level = logical: publish what the mirror may copy (again after an upgrade).
mirror-publish: db
	$(PY) manage.py mirror_publish

# On the mirror's machine, with the production settings, DATABASE_URL as the
# app's read-only role, SUBSCRIPTION_OWNER_URL as the subscription's owner
# (the subscribe step alone uses it) and VENUE_DSN="host=... port=... dbname=...
# user=... password=..." (the venue's replication role through its tunnel):
# subscribe (or update the subscription), then serve the public pages. The
# secrets stay in the environment: make echoes the variables' names only.
mirror: messages
	@test -n "$$VENUE_DSN" || { echo "Set VENUE_DSN to the venue's PostgreSQL as seen from here (docs/mirror.md)."; exit 2; }
	@test -n "$$SUBSCRIPTION_OWNER_URL" || { echo "Set SUBSCRIPTION_OWNER_URL to the mirror's database as its subscription owner (docs/mirror.md)."; exit 2; }
	DATABASE_URL="$$SUBSCRIPTION_OWNER_URL" MIRROR=false $(PY) manage.py mirror_subscribe
	MIRROR=false $(PY) manage.py collectstatic --noinput -v 0
	MIRROR=true exec $(VENV)/bin/gunicorn -c config/gunicorn.py config.asgi

# pytest-xdist's workers; --dist loadgroup hands them the tests one by one, so that no long file keeps one
# worker busy at the end while the others wait (file by file, the SQLite pass took 12 min 32 s on an idle
# machine; benchmarks/RESULTS.md). The files whose tests must stay together on one worker (a module-scoped
# server, the mirror's PostgreSQL clusters) are marked xdist_group by tests/conftest.py, which finds them.
# Four workers on two cores: the browser and production-server tests spend most of their time waiting.
PYTEST_WORKERS ?= 4
# The inner loop, under 2 minutes on an idle 2-core machine: it leaves out the browser tests (Chromium), the
# fuzz tests (Hypothesis, schemathesis), the production-server tests (gunicorn, PostgreSQL clusters of their
# own) and the slow tests (half a second or more, marked where they are written; `make slow-tests` checks the
# marks): all of them run in `make test`. Two workers, not four: what is left is CPU-bound, and each worker
# pays Django's start and its database. It prints its wall time and CPU seconds: on a shared machine the wall
# time says little, and the CPU seconds over the two cores are what it would take idle.
FAST := -m "not browser and not fuzz and not production_server and not slow"
FAST_WORKERS ?= 2

# pytest's exit code 5 (no test collected) is a failure here: a suite that
# runs nothing proves nothing.
pytest:
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc = 5 ]; then echo "pytest collected no test"; exit 1; fi; exit $$rc

# ruff's lint rules and formatting, the import contracts of ARCHITECTURE.md,
# mypy's strict types of the engines and of every domain module of both apps
# (all configured in pyproject.toml), and no model change without its
# migration; they take seconds, so they run first.
lint: venv
	$(VENV)/bin/ruff check --no-cache .
	$(VENV)/bin/ruff format --check --no-cache .
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/mypy
	$(PY) manage.py makemigrations --check --dry-run -v 0

test: lint messages
	$(MAKE) --no-print-directory pytest

test-fast: system
	@/usr/bin/time -f "make test-fast: %e s wall time, %U s user and %S s system CPU" \
		$(MAKE) --no-print-directory lint messages pytest PYTEST_WORKERS=$(FAST_WORKERS) PYTEST_ARGS='$(FAST) $(PYTEST_ARGS)'

# The slow marks checked: the fast selection measured with the slow tests in, failing on a test marked
# ``slow`` that measures fast or an unmarked one that measures slow (tests/support/slow_tests.py; PYTEST_ARGS
# narrows it to some folders).
slow-tests: messages
	$(PY) -m tests.support.slow_tests -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# The pictures of the guides at /ayuda/ (static/help/es/ and static/help/en/, committed), taken
# again from the demo championship in Chromium by the test that checks them.
guide-screenshots: messages
	GUIDE_SCREENSHOTS=1 $(PY) -m pytest -q tests/guides/test_screenshots.py
