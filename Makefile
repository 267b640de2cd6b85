# Schafkopf-Turnier: `make run` serves the app, `make test` runs the whole suite, `make test-fast`
# all but its browser, hall, multi-process and long tests.
# Both start with `make install`, which sets up everything a fresh machine needs.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# Debian packages: WeasyPrint's Pango, HarfBuzz (its font subsetting) and a font, gettext for
# the German catalogue; Chromium and its driver for the browser tests; a Redis server for the
# tests of the Redis cache (they start their own; the app needs none unless REDIS_URL says so);
# Caddy, the proxy make hall puts in front of gunicorn. `make install SERVER=1` on a server
# (README "Running it for a whole cup"): without the test tools and their browser.
RUNTIME_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 libfontconfig1 fonts-dejavu-core gettext caddy
TEST_PACKAGES := chromium chromium-driver redis-server
SYSTEM_PACKAGES := $(RUNTIME_PACKAGES) $(if $(SERVER),,$(TEST_PACKAGES))
EXTRAS := $(if $(SERVER),,[test])

.PHONY: install system-deps run hall test test-fast bench lint screenshots clean

install: system-deps $(VENV)/.installed
	@$(BIN)/python manage.py compilemessages --ignore='$(VENV)/*' -v 0

system-deps:
	@bash .ci/system-deps $(SYSTEM_PACKAGES)

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.$(EXTRAS)'
	@touch $@

run: install
	$(BIN)/python manage.py migrate --noinput
	@# The demo tournament comes with the exchange-format issue; loaded into an empty database only.
	@if [ -f fixtures/demo.json ]; then $(BIN)/python manage.py load_demo; fi
	@# The job worker beside the development server; Ctrl+C stops both.
	$(BIN)/python manage.py run_jobs -v 0 & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT; \
	  $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The hall's server: Caddy on every interface in front of gunicorn (on 127.0.0.1), the job
# worker, DEBUG off, the secret key from .secret_key (made on first start). Prints the address
# phones use, with its QR code. HTTPS with HALL_DOMAIN, TLS_CERT_FILE/TLS_KEY_FILE or HALL_TLS=internal
# (README "HTTPS in the hall and online"); the port only where given (80 is the default online).
hall: install
	$(BIN)/python manage.py hall $(if $(filter command line environment,$(origin PORT)),--port $(PORT))

test: install
	$(BIN)/ruff check scoring tournament tests
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -p no:cacheprovider -q

# The quick loop while working: the checks and every test but those that drive Chromium, start
# make hall's server or app processes of their own, or take minutes (markers in pyproject.toml).
FAST := not browser and not hall and not processes and not long
test-fast: install
	$(BIN)/ruff check scoring tournament tests
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -p no:cacheprovider -q -m "$(FAST)"

lint: install
	$(BIN)/ruff check scoring tournament tests
	$(BIN)/mypy
	$(BIN)/lint-imports

# The performance targets on a throwaway SQLite file; PART names one part. PART=cluster (two app
# servers, Caddy, Redis: issue 29.4) makes and drops a PostgreSQL database of its own (on the
# server of a postgres DATABASE_URL, else CLUSTER_POSTGRES, else 127.0.0.1:5432).
bench: install
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	  export DATABASE_URL="sqlite:///$$dir/bench.sqlite3" && \
	  $(BIN)/python manage.py migrate --noinput -v 0 && \
	  $(BIN)/python manage.py bench $(PART)

# The handbook's pictures (issue 31): Chromium takes them from the demo tournament into
# static/handbook/img/; commit the changed ones.
screenshots: install
	HANDBOOK_SCREENSHOTS=1 $(BIN)/python -m pytest -p no:cacheprovider -q tests/tournament/handbook/test_screenshots.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .hypothesis
