# The Makefile makes its own .venv: on a fresh clone, `make demo` and `make test` need nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lint typecheck pytest demo bench man clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "cwx needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check cwx tests scripts bench

typecheck: $(STAMP)
	$(BIN)/mypy

# Two workers on a machine of two cores: the suite's git and kill tests wait on processes.
pytest: $(STAMP)
	$(BIN)/pytest -n auto

demo: $(STAMP)
	@$(BIN)/python -m compileall -q cwx
	@PATH="$(CURDIR)/$(BIN):$$PATH" sh scripts/demo.sh

# Compiled once here: with PYTHONDONTWRITEBYTECODE set, every run would compile cwx anew.
bench: $(STAMP)
	@$(BIN)/python -m compileall -q cwx
	$(BIN)/python bench/bench.py

# Man pages from the command line's own --help (tests/test_man.py keeps them in step).
man: $(STAMP)
	$(BIN)/python scripts/man.py docs/man

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
