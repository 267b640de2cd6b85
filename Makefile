# Schafkopf-Turnier: `make run` serves the app, `make test` runs the whole suite.
# Both start with `make install`, which sets up everything a fresh machine needs.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# Debian packages: WeasyPrint's Pango, HarfBuzz (its font subsetting) and a font, gettext for
# the German catalogue; Chromium and its driver for the browser tests.
SYSTEM_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 libfontconfig1 fonts-dejavu-core gettext chromium chromium-driver

.PHONY: install system-deps run hall test bench lint clean

install: system-deps $(VENV)/.installed
	@$(BIN)/python manage.py compilemessages --ignore='$(VENV)/*' -v 0

system-deps:
	@bash .ci/system-deps $(SYSTEM_PACKAGES)

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

run: install
	$(BIN)/python manage.py migrate --noinput
	@# The demo tournament comes with the exchange-format issue; loaded into an empty database only.
	@if [ -f fixtures/demo.json ]; then $(BIN)/python manage.py load_demo; fi
	@# The job worker beside the development server; Ctrl+C stops both.
	$(BIN)/python manage.py run_jobs -v 0 & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT; \
	  $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The hall's server: gunicorn on every interface with the job worker, DEBUG off, the secret key
# from .secret_key (made on first start). Prints the address phones use, with its QR code.
hall: install
	$(BIN)/python manage.py hall --port $(PORT)

test: install
	$(BIN)/ruff check scoring tournament tests
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -p no:cacheprovider -q

lint: install
	$(BIN)/ruff check scoring tournament tests
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: install
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	  export DATABASE_URL="sqlite:///$$dir/bench.sqlite3" && \
	  $(BIN)/python manage.py migrate --noinput -v 0 && \
	  $(BIN)/python manage.py bench $(PART)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .hypothesis
