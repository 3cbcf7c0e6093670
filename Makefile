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
# poppler-utils to render PDFs to PNG.
APT_PACKAGES := python3-venv gettext libpango-1.0-0 libpangoft2-1.0-0 \
	libharfbuzz-subset0 fonts-dejavu-core fonts-liberation2 chromium \
	poppler-utils

.PHONY: run serve test lint pytest system venv messages db help

help:
	@echo "make run   set up and serve the demo championship on http://$(HOST):$(PORT)"
	@echo "make serve set up and serve in production (the README's Configuration in the environment)"
	@echo "make test  set up, lint and run the whole test suite"
	@echo "make lint  ruff and the import contracts only"

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

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if (3, 10) <= sys.version_info[:2] else "Python 3.10 or newer is needed (Django 5.2); found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	@$(PY) -c 'import django; assert django.get_version() == "5.2.19", "pip installed Django " + django.get_version() + ", not the pinned 5.2.19"'
	touch $@

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
serve: db
	$(PY) manage.py collectstatic --noinput -v 0
	exec $(VENV)/bin/gunicorn -c config/gunicorn.py config.asgi

# pytest's exit code 5 (no test collected) is a failure here: a suite that
# runs nothing proves nothing.
pytest:
	$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc = 5 ]; then echo "pytest collected no test"; exit 1; fi; exit $$rc

# ruff's lint rules and formatting, and the import contracts of ARCHITECTURE.md (all
# configured in pyproject.toml); they take seconds, so they run first.
lint: venv
	$(VENV)/bin/ruff check --no-cache .
	$(VENV)/bin/ruff format --check --no-cache .
	$(VENV)/bin/lint-imports --no-cache

test: lint messages
	$(MAKE) --no-print-directory pytest
