# The Makefile makes its own .venv: on a fresh clone, `make demo` and `make test` need nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lint typecheck pytest pytest-next venv-next demo bench man schemas clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "cwx needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

# Both venvs first, at once: pip waits on the package index about half of its time, so
# two overlap well on two cores (a clean checkout, as CI runs it, makes both).
test:
	@$(MAKE) --no-print-directory -j2 $(STAMP) venv-next
	@$(MAKE) --no-print-directory lint typecheck pytest pytest-next

lint: $(STAMP)
	$(BIN)/ruff check cwx tests scripts bench

typecheck: $(STAMP)
	$(BIN)/mypy

# Two workers on a machine of two cores: the suite's git and kill tests wait on processes.
# A worker that runs out of tests takes half of what the other still has queued
# (worksteal): with the longest tests first (tests/costs.txt), both end together, where
# xdist's default left one idle for the last 100 s of a run. Compiled first, and run with
# PYTHONDONTWRITEBYTECODE cleared: with it set, each of the hundreds of cwx processes the
# tests start would compile anew the modules it imports, and each pytest (the workers, a
# test's own) would rewrite the asserts of the tests and of Hypothesis again, 2 s each.
pytest: $(STAMP)
	@$(BIN)/python -m compileall -q cwx
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n auto --dist worksteal

# The newest Python pyproject.toml claims, where this machine has it (on the path, or
# installed by pyenv): the tests of what differs between Pythons run there again, in a
# venv of their own. The whole suite there would take make test past its 4 minutes.
NEXT := 3.13
PYTHON_NEXT ?= $(firstword $(foreach py,python$(NEXT) $(wildcard $(HOME)/.pyenv/versions/$(NEXT).*/bin/python$(NEXT)),$(shell $(py) -c '' 2>/dev/null && echo $(py))))
VENV_NEXT ?= .venv-next
# CPython's own modules cwx leans on (the digests, the Ctrl-C handler's _signal), the
# journal's lines as json writes them, plaintoml against tomllib, Typer's and Click's
# assumptions, start-up, and the entry point's streams and signals. The whole suite
# there: `.venv-next/bin/pip install -e '.[dev]'` (jsonschema, pre-commit, hatchling),
# then make pytest-next NEXT_TESTS=tests.
NEXT_TESTS := tests/test_journal.py tests/test_redo.py tests/test_digests.py \
	tests/test_plaintoml.py tests/test_toolkit.py tests/test_lazy.py tests/test_startup.py \
	tests/test_main.py

pytest-next:
	@if [ -z "$(PYTHON_NEXT)" ]; then echo "no Python $(NEXT) here: the tests ran on $(PYTHON) alone"; \
	else $(MAKE) --no-print-directory $(VENV_NEXT)/.installed PYTHON_NEXT=$(PYTHON_NEXT) && \
	$(VENV_NEXT)/bin/python -m compileall -q cwx && \
	PYTHONDONTWRITEBYTECODE= $(VENV_NEXT)/bin/pytest -n auto --dist worksteal -m "not network" $(NEXT_TESTS); fi

venv-next:
	@if [ -n "$(PYTHON_NEXT)" ]; then \
	$(MAKE) --no-print-directory $(VENV_NEXT)/.installed PYTHON_NEXT=$(PYTHON_NEXT); fi

$(VENV_NEXT)/.installed: pyproject.toml
	$(PYTHON_NEXT) -m venv $(VENV_NEXT)
	$(VENV_NEXT)/bin/python -m pip install --quiet -e '.[test]'
	@touch $@

demo: $(STAMP)
	@$(BIN)/python -m compileall -q cwx
	@PATH="$(CURDIR)/$(BIN):$$PATH" sh scripts/demo.sh

# Compiled once here: with PYTHONDONTWRITEBYTECODE set, every run would compile cwx anew.
# Then the random-play and kill tests at their full sizes (make test runs them smaller).
FULL_TESTS := tests/test_group.py tests/test_git.py tests/test_reliability.py tests/test_bypost.py tests/test_colorwheel.py tests/test_tomledit.py tests/test_bad_input.py tests/test_play.py tests/test_adversary.py
bench: $(STAMP)
	@$(BIN)/python -m compileall -q cwx
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/bypost.py
	CWX_TEST_FULL=1 PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n auto --dist worksteal $(FULL_TESTS)

# Man pages from the command line's own --help (tests/test_man.py keeps them in step).
man: $(STAMP)
	$(BIN)/python scripts/man.py docs/man

# The JSON Schemas of every command's --json, from the types of their results
# (tests/test_json_schemas.py keeps them in step).
schemas: $(STAMP)
	$(BIN)/python scripts/schemas.py docs/json

clean:
	rm -rf $(VENV) $(VENV_NEXT) .pytest_cache .mypy_cache .ruff_cache .hypothesis
