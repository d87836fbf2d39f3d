# Two entry points for a newcomer: `make demo` and `make test`. Both build the venv from nothing.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PATTERN ?= reflection

.PHONY: venv demo test lint types unit clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

demo: venv
	$(BIN)/agent-patterns run $(PATTERN)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: venv
	$(BIN)/mypy graphs nodes policies

unit: venv
	$(BIN)/python -m pytest -q

test: lint types unit

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
