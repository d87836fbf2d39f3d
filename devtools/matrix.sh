#!/usr/bin/env bash
# The dependency matrix: the test suite against one set of versions that pyproject.toml's ranges
# admit (docs/development.md, "Dependency matrix"). Each set gets its own venv under .matrix/.
#
#   bash devtools/matrix.sh lowest  [pytest args]   # the lowest version of every direct dependency
#   bash devtools/matrix.sh newest  [pytest args]   # the newest installable version of each
#   bash devtools/matrix.sh locked  [pytest args]   # requirements-dev.lock (what `make test` runs)
#   bash devtools/matrix.sh pg-3.1.0 [pytest args]  # the lock with langgraph-checkpoint-postgres 3.1.0
#
# uv resolves and installs (pip cannot pick the lowest versions); it is installed from PyPI into
# .matrix/uv on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:?usage: devtools/matrix.sh lowest|newest|locked|pg-3.1.0 [pytest args]}
shift
venv=.matrix/$which
if [ ! -x .matrix/uv/bin/uv ]; then
    python3 -m venv .matrix/uv
    .matrix/uv/bin/python -m pip install -q --disable-pip-version-check uv
fi
# UV_COMPILE_BYTECODE: uv compiles the installed modules as pip does (where PYTHONDONTWRITEBYTECODE
# is set, as on CI, each process would compile every module it imports again)
uv() { VIRTUAL_ENV=$venv UV_COMPILE_BYTECODE=1 .matrix/uv/bin/uv "$@"; }
rm -rf "$venv"
.matrix/uv/bin/uv venv -q -p python3 "$venv"
case $which in
    lowest) uv pip install -q --resolution lowest-direct -e '.[dev]' ;;
    newest) uv pip install -q --resolution highest -e '.[dev]' ;;
    locked) uv pip install -q -r requirements-dev.lock && uv pip install -q --no-deps -e . ;;
    pg-3.1.0) uv pip install -q -r requirements-dev.lock "langgraph-checkpoint-postgres==3.1.0" &&
        uv pip install -q --no-deps -e . ;;
    *) echo "unknown set: $which" >&2; exit 2 ;;
esac
echo "== $which:" $(uv pip list 2>/dev/null | awk '/^(langgraph|langchain|langchain-core|langchain-openai|langgraph-checkpoint|langgraph-checkpoint-sqlite|langgraph-checkpoint-postgres|pydantic|psycopg) / {printf "%s==%s ", $1, $2}')
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
