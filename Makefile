# beastodds: `make` sets up .venv and regenerates the odds tables and figures;
# `make test` runs the fast tier of the tests (everything not marked slow),
# `make test-all` the whole suite (CI), `make lint` ruff and the type check.  `make help` lists every target.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.DEFAULT_GOAL := all
.PHONY: all venv tables figures booklet test test-all test-slow lint docs bench notebooks lab help clean

all: tables figures ## (default) create .venv if missing, install, regenerate odds tables and figures

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP) ## create .venv and install the project with its dev extras

tables: $(STAMP) ## regenerate the odds tables (CSV and Markdown) under figures/tables/
	$(PY) -m analysis.cli.build tables

figures: $(STAMP) ## regenerate the figures under figures/ (headless, one module per figure)
	$(PY) -m analysis.cli.build figures

booklet: $(STAMP) ## write figures/booklet.html: every table and figure on one self-contained page
	$(PY) -m analysis.cli.build booklet

test: $(STAMP) ## the fast tier: every test not marked slow, on two workers
	$(PY) -m pytest -m "not slow" -n 2

test-all: $(STAMP) ## the whole suite: the fast tier, then the slow one
	$(PY) -m pytest

test-slow: $(STAMP) ## the slow tier alone, on two workers: notebooks, booklet and page in Chromium, big references (CI runs it after make test)
	$(PY) -m pytest -m slow -n 2

lint: $(STAMP) ## ruff (lint and format check) over analysis/, kernels/ and tests/, then mypy (strict for the engines)
	$(PY) -m ruff check analysis kernels tests
	$(PY) -m ruff format --check analysis kernels tests
	$(PY) -m mypy

docs: $(STAMP) ## build the documentation site into site/ (MkDocs, strict: a broken link or an unreadable docstring fails)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

bench: $(STAMP) ## benchmarks: our kernels against icepool and a pure-Python count, in one run
	$(PY) -m tests.benchmarks

notebooks: $(STAMP) ## re-pair notebooks/*.ipynb from their jupytext .py files (outputs stay out)
	$(VENV)/bin/jupytext --sync notebooks/*.py

lab: $(STAMP) ## open JupyterLab on notebooks/
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## /  make \1\t/' | expand -t 20

clean: ## remove .venv and caches (generated tables and figures stay)
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache site
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
