# Two entry points for a newcomer: `make demo` and `make test`. Both build the venv from nothing.
# `make bench` runs the benchmark suite (not part of `make test`); BENCH_ARGS=--quick for a short run.
# `make serve` serves the graphs from an Agent Protocol server on PostgreSQL (docs/server.md); the
# server has its own venv (.venv-server, `make server-venv`), which the server tests use too.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SERVER_VENV ?= .venv-server
SERVER_BIN := $(SERVER_VENV)/bin
PATTERN ?= reflection

.PHONY: venv server-venv demo serve test lint types unit bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

$(SERVER_BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(SERVER_VENV)
	$(SERVER_BIN)/python -m pip install -q --disable-pip-version-check -e '.[server]'
	$(SERVER_BIN)/python -m pip check
	touch $@

server-venv: $(SERVER_BIN)/.installed

$(BIN)/.bench-installed: $(BIN)/.installed
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[bench]'
	touch $@

demo: venv
	$(BIN)/agent-patterns run $(PATTERN)

serve: server-venv
	$(SERVER_BIN)/python -m devtools.serve

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: venv
	$(BIN)/mypy graphs nodes policies

unit: venv server-venv
	$(BIN)/python -m pytest -q

test: lint types unit

BENCH_ARGS ?=
bench: $(BIN)/.bench-installed
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(SERVER_VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
