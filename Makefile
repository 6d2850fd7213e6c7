# Development tasks. Needs only GNU make, git and python3 >= 3.11: no database, no broker
# (SQLite file ./db.sqlite3 and in-process Celery tasks are the defaults).
#
#   make run     install, migrate, load the demo tournament, serve http://127.0.0.1:8000
#   make test    run the test suite (extra pytest arguments: make test PYTEST_ARGS="-k foo -x")
#   make lint    ruff check + mypy
#   make bench   run every bench/*.py
#   make lock    regenerate requirements.lock from pyproject.toml
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
# Reinstall only when requirements.lock changes (or the venv is recreated).
STAMP := $(VENV)/.requirements.lock.installed
RUN_ADDR ?= 127.0.0.1:8000
PYTEST_ARGS ?=
# The upstream rules documents and where the repository keeps its byte-identical copies.
RULES_UPSTREAM ?= ../shared/rules
RULES_COPY ?= docs/rules

LOCK_HEADER_1 := \# Fully pinned versions of every runtime and development dependency (install with
LOCK_HEADER_2 := \# `pip install -r requirements.lock`). Regenerate from pyproject.toml: make lock

.PHONY: help install run test lint bench lock rules-docs messages clean distclean

help:
	@sed -n 's/^#   //p' $(MAKEFILE_LIST)

install: $(STAMP)

$(STAMP): requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required, found " + sys.version.split()[0] + " ($(PYTHON)); run make PYTHON=python3.11 ...")'
	@test -x $(BIN)/python || { echo "Creating $(VENV) with $(PYTHON)"; $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements.lock
	@touch $@

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@echo "Serving on http://127.0.0.1:$(lastword $(subst :, ,$(RUN_ADDR)))/ (Ctrl-C to stop)"
	$(BIN)/python manage.py runserver $(RUN_ADDR)

# pytest exits 5 when it collects no tests; make treats that as a failure, on purpose.
test: install
	$(BIN)/pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy

# Every bench/*.py except helper modules whose names start with an underscore.
bench: install
	@shopt -s nullglob; scripts=(); \
	for f in bench/*.py; do case "$${f##*/}" in _*) ;; *) scripts+=("$$f");; esac; done; \
	if [ $${#scripts[@]} -eq 0 ]; then echo "bench: no bench/*.py scripts found" >&2; exit 1; fi; \
	for f in "$${scripts[@]}"; do \
		echo "==> $(BIN)/python $$f"; \
		PYTHONPATH=.$${PYTHONPATH:+:$$PYTHONPATH} $(BIN)/python "$$f"; \
	done

# Resolve pyproject.toml's dependencies (with the dev extra) in a throwaway venv and freeze them.
# Only pyproject.toml and README.md are copied there, so the working tree stays untouched.
lock:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	mkdir "$$tmp/src"; cp pyproject.toml README.md "$$tmp/src/"; \
	echo "Resolving dependencies in a throwaway venv ($$tmp)"; \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install --disable-pip-version-check --quiet "$$tmp/src[dev]"; \
	project=$$("$$tmp/venv/bin/python" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["name"])'); \
	{ printf '%s\n' '$(LOCK_HEADER_1)' '$(LOCK_HEADER_2)'; \
	  "$$tmp/venv/bin/python" -m pip freeze --disable-pip-version-check --exclude "$$project"; \
	} > "$$tmp/requirements.lock"; \
	if grep -v '^#' "$$tmp/requirements.lock" | grep -qv '=='; then \
		echo "lock: unexpected unpinned line in pip freeze output:" >&2; grep -v '^#' "$$tmp/requirements.lock" | grep -v '==' >&2; exit 1; \
	fi; \
	cp "$$tmp/requirements.lock" requirements.lock; \
	echo "Wrote requirements.lock ($$(grep -vc '^#' requirements.lock) packages)"

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
