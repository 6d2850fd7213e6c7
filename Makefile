# Development tasks. Needs only GNU make, git and python3 >= 3.11: no database, no broker
# (SQLite file ./db.sqlite3 and in-process Celery tasks are the defaults).
#
#   make run     install, migrate, load the demo tournament, serve http://127.0.0.1:8000
#   make test    run the test suite on every core (extra pytest arguments: make test PYTEST_ARGS="-k foo -x";
#                one process: make test TEST_WORKERS=0)
#   make lint    ruff check + mypy
#   make bench   run every bench/*.py (those marked "needs PostgreSQL" only with DATABASE_URL=postgres://...)
#   make bench-event  the 1,000-player event through nginx (needs DATABASE_URL=postgres://..., Redis, nginx)
#   make lock    regenerate requirements.lock (runtime) and requirements-dev.lock from pyproject.toml
#   make rules-docs  refresh docs/rules/ (SPEC, PROTOCOL, vectors) from the upstream ../shared/rules/
#   make messages    update and compile the 简体中文 catalogue (needs GNU gettext)
#   make clean   remove caches, collected static files and build leftovers
#   make distclean   clean, and also remove .venv and the SQLite database

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Reinstall only when a lock file changes (or the venv is recreated).
STAMP := $(VENV)/.requirements-dev.lock.installed
RUN_ADDR ?= 127.0.0.1:8000
RUN_URL = http://127.0.0.1:$(lastword $(subst :, ,$(RUN_ADDR)))
PYTEST_ARGS ?=
# Test processes (pytest-xdist): the suite is spread over the machine's cores, a test file to a
# process (some files start servers on fixed ports); TEST_WORKERS=0 runs it in this process
# (for --pdb). Measured on this 2-core machine: the SQLite pass 31 min alone, 12 min with 2.
TEST_WORKERS ?= auto
# The upstream rules documents and where the repository keeps its byte-identical copies.
RULES_UPSTREAM ?= ../shared/rules
RULES_COPY ?= docs/rules

LOCK_HEADER_1 := \# Runtime dependencies, fully pinned (one name==version per line): what the production image
LOCK_HEADER_2 := \# installs. Development tools are pinned in requirements-dev.lock. Regenerate both: make lock
DEV_LOCK_HEADER_1 := \# Development and test tools, fully pinned (one name==version per line), on top of the runtime
DEV_LOCK_HEADER_2 := \# pins of requirements.lock; `make install` installs this file. Regenerate both: make lock

.PHONY: help install run test lint bench bench-event lock rules-docs messages clean distclean

help:
	@sed -n 's/^#   //p' $(MAKEFILE_LIST)

install: $(STAMP)

$(STAMP): requirements.lock requirements-dev.lock
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required, found " + sys.version.split()[0] + " ($(PYTHON)); run make PYTHON=python3.11 ...")'
	@test -x $(BIN)/python || { echo "Creating $(VENV) with $(PYTHON)"; $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements-dev.lock
	@touch $@

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py load_demo --demo-logins
	@echo "Serving on $(RUN_URL)/ (Ctrl-C to stop)"
	@echo "  referee console $(RUN_URL)/referee/  director $(RUN_URL)/director/  API docs $(RUN_URL)/api/docs/"
	$(BIN)/python manage.py runserver $(RUN_ADDR)

# pytest exits 5 when it collects no tests; make treats that as a failure, on purpose.
test: install
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy

# Every bench/*.py except helper modules whose names start with an underscore. A script with
# the line "# bench: needs PostgreSQL" measures the service as in production: it runs only
# when DATABASE_URL names a PostgreSQL server (make bench DATABASE_URL=postgres://...) and is
# listed as skipped otherwise; run alone without it, such a script says so and exits 2.
bench: install
	@shopt -s nullglob; scripts=(); \
	for f in bench/*.py; do case "$${f##*/}" in _*) ;; *) scripts+=("$$f");; esac; done; \
	if [ $${#scripts[@]} -eq 0 ]; then echo "bench: no bench/*.py scripts found" >&2; exit 1; fi; \
	for f in "$${scripts[@]}"; do \
		if grep -q '^# bench: needs PostgreSQL' "$$f" && [[ "$${DATABASE_URL:-}" != postgres* ]]; then \
			echo "==> $$f skipped: needs PostgreSQL (make bench DATABASE_URL=postgres://...)"; continue; \
		fi; \
		echo "==> $(BIN)/python $$f"; \
		PYTHONPATH=.$${PYTHONPATH:+:$$PYTHONPATH} $(BIN)/python "$$f"; \
	done

# bench/event_load.py as deployed: 334 tables (1,002 players), 2,000 spectators, through the OS
# nginx running config/nginx.conf.template (rendered as compose renders it), the shared cache in
# Redis, each kind of request's CPU. More options: make bench-event BENCH_EVENT_ARGS="--nodes 2"
BENCH_EVENT_ARGS ?=
BENCH_EVENT_CACHE ?= redis://127.0.0.1:6379/11
bench-event: install
	@if [[ "$${DATABASE_URL:-}" != postgres* ]]; then \
		echo "bench-event: needs PostgreSQL (make bench-event DATABASE_URL=postgres://...)" >&2; exit 2; fi
	PYTHONPATH=.$${PYTHONPATH:+:$$PYTHONPATH} $(BIN)/python bench/event_load.py \
		--tables 334 --spectators 2000 --costs --cache $(BENCH_EVENT_CACHE) $(BENCH_EVENT_ARGS)

# Resolve pyproject.toml's dependencies with the dev extra in a throwaway venv and freeze them
# (setuptools too: the dev extra asks for it); then install the runtime dependencies alone, held
# to those versions, in a second venv: its freeze is requirements.lock, and requirements-dev.lock
# is the rest. Only pyproject.toml and README.md are copied, so the working tree stays untouched.
lock:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	mkdir "$$tmp/src"; cp pyproject.toml README.md "$$tmp/src/"; \
	echo "Resolving dependencies in throwaway venvs ($$tmp)"; \
	project=$$($(PYTHON) -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["name"])'); \
	$(PYTHON) -m venv "$$tmp/all"; \
	"$$tmp/all/bin/python" -m pip install --disable-pip-version-check --quiet "$$tmp/src[dev,fast]"; \
	"$$tmp/all/bin/python" -m pip freeze --all --disable-pip-version-check --exclude pip --exclude "$$project" > "$$tmp/all.txt"; \
	$(PYTHON) -m venv "$$tmp/runtime"; \
	"$$tmp/runtime/bin/python" -m pip install --disable-pip-version-check --quiet -c "$$tmp/all.txt" "$$tmp/src[fast]"; \
	"$$tmp/runtime/bin/python" -m pip freeze --disable-pip-version-check --exclude "$$project" > "$$tmp/runtime.txt"; \
	if cat "$$tmp/all.txt" "$$tmp/runtime.txt" | grep -v '^#' | grep -qv '=='; then \
		echo "lock: unexpected unpinned line in pip freeze output:" >&2; cat "$$tmp/all.txt" "$$tmp/runtime.txt" | grep -v '^#' | grep -v '==' >&2; exit 1; \
	fi; \
	{ printf '%s\n' '$(LOCK_HEADER_1)' '$(LOCK_HEADER_2)'; cat "$$tmp/runtime.txt"; } > "$$tmp/requirements.lock"; \
	{ printf '%s\n' '$(DEV_LOCK_HEADER_1)' '$(DEV_LOCK_HEADER_2)' '-r requirements.lock'; \
	  grep -vixF -f "$$tmp/runtime.txt" "$$tmp/all.txt"; } > "$$tmp/requirements-dev.lock"; \
	cp "$$tmp/requirements.lock" requirements.lock; cp "$$tmp/requirements-dev.lock" requirements-dev.lock; \
	echo "Wrote requirements.lock ($$(grep -vc '^#' requirements.lock) packages) and requirements-dev.lock ($$(grep -v '^#' requirements-dev.lock | grep -vc '^-r') more)"

# Replace the copies with the upstream files (tests/rules/test_rule_documents.py compares them
# byte for byte whenever the upstream exists). Upstream files are read-only; the copies are not.
rules-docs:
	@test -d "$(RULES_UPSTREAM)" || { echo "rules-docs: no upstream directory $(RULES_UPSTREAM) (set RULES_UPSTREAM=...)" >&2; exit 1; }
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp -R "$(RULES_UPSTREAM)/." "$$tmp/"; chmod -R u+w "$$tmp"; \
	rm -rf "$(RULES_COPY)"; mkdir -p "$(RULES_COPY)"; cp -R "$$tmp/." "$(RULES_COPY)/"; \
	echo "Copied $$(find "$(RULES_COPY)" -type f | wc -l) files from $(RULES_UPSTREAM) to $(RULES_COPY)"

# The compiled catalogue (django.mo) is committed, so `make run` needs no gettext.
messages: install
	$(BIN)/python manage.py makemessages -l zh_Hans --no-obsolete \
		--ignore 'referee/rules/*' --ignore 'bench/*' --ignore 'tests/*'
	$(BIN)/python manage.py compilemessages -l zh_Hans --ignore '.venv'

clean:
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles build *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) db.sqlite3
