#!/usr/bin/env bash
# Agent Chat UI (langchain-ai/agent-chat-ui) on the Supervisor served by `langgraph dev`, driven by
# headless Chromium: the refund request typed in the chat box, the approval widget, approve, the
# answer; screenshots into docs/images/. A manual check, not part of `make test`.
#
#   devtools/chat_ui.sh [UI_DIR]
#
# UI_DIR: a checkout of agent-chat-ui (default: cloned into a temp dir at the commit the spec
# read, fdc87e6). Nothing of the UI is kept in this project. Needs: node 20 + npm (pnpm is
# installed with npm when missing), Chromium (Debian: apt-get install -y chromium), `make venv`.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d -t chat-ui-XXXXXX)
UI=${1:-$WORK/agent-chat-ui}
UI_COMMIT=fdc87e6
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -- -"$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }
wait_for() { for _ in $(seq 1 "$2"); do curl --noproxy '*' -fs -o /dev/null "$1" && return 0; sleep 1; done; echo "no answer from $1" >&2; return 1; }

if [ $# -eq 0 ]; then
  git clone -q https://github.com/langchain-ai/agent-chat-ui "$UI"
  git -C "$UI" checkout -q "$UI_COMMIT"
fi
command -v pnpm >/dev/null || npm install -g pnpm@9
(cd "$UI" && pnpm install --frozen-lockfile)

API_PORT=$(free_port)
UI_PORT=$(free_port)
# the Supervisor records its refunds in a ledger of this run's own
AGENT_PATTERNS_LEDGER="$WORK/ledger.sqlite" LANGGRAPH_CLI_NO_ANALYTICS=1 LANGGRAPH_NO_VERSION_CHECK=true \
  setsid "$ROOT/.venv/bin/langgraph" dev --no-browser --no-reload --host 127.0.0.1 --port "$API_PORT" \
  --config "$ROOT/langgraph.json" >"$WORK/langgraph-dev.log" 2>&1 &
PIDS+=($!)
printf 'NEXT_PUBLIC_API_URL=http://127.0.0.1:%s\nNEXT_PUBLIC_ASSISTANT_ID=supervisor\n' "$API_PORT" >"$UI/.env"
# `next dev`: `next build` fetches the UI's fonts from Google, which an offline machine cannot
NEXT_TELEMETRY_DISABLED=1 setsid sh -c 'cd "$1" && exec pnpm dev --hostname 127.0.0.1 --port "$2"' _ "$UI" "$UI_PORT" \
  >"$WORK/ui.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$API_PORT/ok" 90
wait_for "http://127.0.0.1:$UI_PORT/" 90

(cd "$WORK" && npm init -y >/dev/null && npm install -s playwright-core@1 >/dev/null)
PLAYWRIGHT_CORE="$WORK/package.json" node "$ROOT/devtools/chat_ui_check.mjs" \
  "http://127.0.0.1:$UI_PORT" "$ROOT/docs/images/agent-chat-ui-refund.png"
"$ROOT/.venv/bin/python" - "$WORK/ledger.sqlite" <<'EOF'
import sys

from nodes.store import LedgerOnUse

refunds = LedgerOnUse(sys.argv[1]).entries("refund")
assert len(refunds) == 1, refunds
print(f"chat-ui: the ledger holds one refund: {next(iter(refunds.values()))}")
EOF
