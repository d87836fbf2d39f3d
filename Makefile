# Two entry points for a newcomer: `make demo` and `make test`. Both build the venv from nothing.
# `make bench` runs the benchmark suite (not part of `make test`); BENCH_ARGS=--quick for a short run.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PATTERN ?= reflection

.PHONY: venv demo test lint types unit bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

$(BIN)/.bench-installed: $(BIN)/.installed
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[bench]'
	touch $@

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

BENCH_ARGS ?=
bench: $(BIN)/.bench-installed
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
