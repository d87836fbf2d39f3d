# Two entry points for a newcomer: `make demo` and `make test`. Both build the venv from nothing,
# from the lock file (requirements-dev.lock: the tested versions of every dependency).
# `make bench` runs the benchmark suite (not part of `make test`); BENCH_ARGS=--quick for a short run.
# `make lock` re-resolves the lock files (requirements-dev.lock, requirements-server.lock) from
# pyproject.toml's ranges; `make matrix` runs the suite
# against the lowest and the newest versions those ranges admit (docs/development.md).
# `make serve` serves the graphs from an Agent Protocol server on PostgreSQL (docs/server.md); the
# server has its own venv (.venv-server, `make server-venv`), which the server tests use too.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SERVER_VENV ?= .venv-server
SERVER_BIN := $(SERVER_VENV)/bin
PATTERN ?= reflection
PIP := $(BIN)/python -m pip install -q --disable-pip-version-check
# UV=path/to/uv installs the locked sets with uv instead of pip (the same versions, in parallel:
# .ci/run uses it to keep CI short); unset, pip does it, as a newcomer's machine has pip.
UV ?=
# (--compile-bytecode: pip compiles at install, uv does not; where PYTHONDONTWRITEBYTECODE is set,
# as on CI, every process would compile every module it imports again.)
INSTALL = $(if $(UV),$(UV) pip install -q --compile-bytecode --python $(1)/python,$(1)/python -m pip install -q --disable-pip-version-check)

.PHONY: venv server-venv demo serve test lint types unit bench lock matrix clean

# pip runs quietly (-q), so each step says what it does and how long it takes the first time.
$(BIN)/.installed: pyproject.toml setup.py requirements-dev.lock
	@echo "make: building $(VENV) from requirements-dev.lock: about 3 minutes from an empty pip cache"
	$(PYTHON) -m venv $(VENV)
	@echo "make: installing the locked dependencies into $(VENV) (the long step; pip is quiet until it ends)..."
	$(call INSTALL,$(BIN)) -r requirements-dev.lock
	$(call INSTALL,$(BIN)) --no-deps -e .
	touch $@
	@echo "make: $(VENV) is ready"

venv: $(BIN)/.installed

$(SERVER_BIN)/.installed: pyproject.toml setup.py requirements-server.lock
	@echo "make: building $(SERVER_VENV) from requirements-server.lock: a few minutes the first time (pip is quiet until it ends)..."
	$(PYTHON) -m venv $(SERVER_VENV)
	$(call INSTALL,$(SERVER_BIN)) -r requirements-server.lock
	$(call INSTALL,$(SERVER_BIN)) --no-deps -e .
	$(SERVER_BIN)/python -m pip check
	touch $@

server-venv: $(SERVER_BIN)/.installed

# The bench extra (pyinstrument, langchain) within the lock's versions of what the lock pins, so
# the benchmark measures the tested stack (langchain is bench-only: the lock does not pin it).
$(BIN)/.bench-installed: $(BIN)/.installed
	$(PIP) -c requirements-dev.lock -e '.[bench]'
	touch $@

demo: venv
	$(BIN)/agent-patterns run $(PATTERN)
	@echo "(agent-patterns is in $(BIN)/: 'source $(BIN)/activate' puts it on your PATH)"

serve: server-venv
	$(SERVER_BIN)/python -m devtools.serve

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: venv
	$(BIN)/mypy graphs nodes policies apps governed_agent_patterns

# The suite runs on every core (pytest-xdist), half as many workers again as cores: a third of the
# suite waits on processes it starts (servers, PostgreSQL, killed runs), so two workers on two cores
# left a core idle a third of the time. PYTEST_WORKERS=0 runs it in one process. Idle workers steal
# queued tests from busy ones (--dist worksteal): the suite's long tests (the bench's smoke, the
# wheel) no longer leave one worker finishing alone (15:49 against 16:46 on 2 cores, one machine).
PYTEST_WORKERS ?= $(shell python3 -c "import os; print(max(2, (os.cpu_count() or 2) * 3 // 2))")
#
# The suite writes bytecode where PYTHONDONTWRITEBYTECODE is set (as on CI): the hundreds of
# processes it starts would each compile the project's modules again, and each worker rewrite every
# test module's asserts again. Its pytest plugins are named rather than auto-loaded: pytest rewrites
# the asserts of every module of an auto-loaded plugin's package (langsmith's and anyio's, which
# the project imports), in every worker (collection 31 → 26 s, 13 s with the bytecode written).
PYTEST_PLUGINS := --disable-plugin-autoload -p xdist.plugin -p _hypothesis_pytestplugin
unit: venv server-venv
	PYTHONDONTWRITEBYTECODE= $(if $(UV),AGENT_PATTERNS_UV=$(abspath $(UV)) )$(BIN)/python -m pytest -q $(PYTEST_PLUGINS) -n $(PYTEST_WORKERS) $(if $(filter 0,$(PYTEST_WORKERS)),,--dist worksteal)

# mypy (about 45 s on 2 cores) runs beside the suite rather than before it: its output follows the
# suite's, and either failing fails `make test`.
test: lint server-venv
	@$(MAKE) --no-print-directory types > $(VENV)/types.log 2>&1 & types=$$!; \
	$(MAKE) --no-print-directory unit; unit=$$?; \
	wait $$types; typed=$$?; cat $(VENV)/types.log; \
	if [ $$unit -ne 0 ] || [ $$typed -ne 0 ]; then exit 1; fi

BENCH_ARGS ?=
bench: $(BIN)/.bench-installed
	$(BIN)/python -m bench $(BENCH_ARGS)

lock: venv
	$(PIP) uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --extra mcp --extra cedar --python-version 3.11 --no-header \
		--annotation-style line -q -o requirements-dev.lock
	$(BIN)/uv pip compile pyproject.toml --extra server --python-version 3.11 --no-header \
		--annotation-style line -q -o requirements-server.lock

MATRIX_ARGS ?=
matrix:
	bash devtools/matrix.sh lowest $(MATRIX_ARGS)
	bash devtools/matrix.sh newest $(MATRIX_ARGS)

clean:
	rm -rf $(VENV) $(SERVER_VENV) .matrix .pytest_cache .mypy_cache .ruff_cache *.egg-info
