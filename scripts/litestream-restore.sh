#!/usr/bin/env bash
# Litestream restore drill (by hand; not part of make test). Needs a built
# brandpack (BIN), a litestream binary (LITESTREAM), chromium, python3, curl.
#
#  1. brandpack serve writes: a user, a key, fresh extractions of fixture
#     sites served on 127.0.0.1 (packs, logos, usage), a key made by the CLI
#     while it runs;
#  2. litestream replicates the database to a file replica (a local folder)
#     the whole time;
#  3. litestream restore writes a new database from the replica alone;
#  4. a second brandpack serve starts on the restored file (no --resolve: it
#     can extract nothing) and must serve the packs as cached with the
#     original key, and show the same usage.
#
# Usage: scripts/litestream-restore.sh [SITE_DIR...]  (default: three of testdata/sites)
set -euo pipefail

BIN=${BIN:-bin/brandpack}
LITESTREAM=${LITESTREAM:-litestream}
BASE_PORT=${BASE_PORT:-18400}
sites=("$@")
[ ${#sites[@]} -gt 0 ] || sites=(testdata/sites/brindlecote.org testdata/sites/halyard-records.com testdata/sites/quillfeather.net)

work=$(mktemp -d /tmp/brandpack-litestream-XXXXXX)
data=$work/data; replica=$work/replica; restored=$work/restored
mkdir -p "$data" "$restored"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
say() { printf '\n== %s\n' "$*"; }
wait_http() { for _ in $(seq 1 150); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.2; done; echo "no answer from $1" >&2; return 1; }

"$LITESTREAM" version
say "1. a user and a key"
"$BIN" users create --email ops@example.com --data "$data"
key=$("$BIN" keys create --email ops@example.com --data "$data" | tr -d '[:space:]')

cat > "$work/litestream.yml" <<YML
dbs:
  - path: $data/brandpack.db
    replica:
      type: file
      path: $replica
      sync-interval: 1s
YML
cat "$work/litestream.yml"
say "2. litestream replicate (file replica $replica)"
"$LITESTREAM" replicate -config "$work/litestream.yml" > "$work/litestream.log" 2>&1 &
pids+=($!)

resolve=(); hosts=(); port=$((BASE_PORT + 1))
for dir in "${sites[@]}"; do
	host=$(basename "$dir")
	python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dir" > /dev/null 2>&1 &
	pids+=($!)
	wait_http "http://127.0.0.1:$port/"
	resolve+=(--resolve "$host=127.0.0.1:$port"); hosts+=("$host")
	port=$((port + 1))
done

say "3. brandpack serve writes (fresh extractions)"
"$BIN" serve --data "$data" --addr "127.0.0.1:$BASE_PORT" --browsers 1 "${resolve[@]}" > "$work/serve.log" 2>&1 &
serve_pid=$!; pids+=($serve_pid)
wait_http "http://127.0.0.1:$BASE_PORT/healthz"
for host in "${hosts[@]}"; do
	code=$(curl -sS -o "$work/$host.json" -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$BASE_PORT/api/v1/pack/$host")
	echo "GET /api/v1/pack/$host -> $code, brand $(grep -o '"brand":"[^"]*"' "$work/$host.json" | head -1)"
	[ "$code" = 200 ]
done
"$BIN" keys create --email ops@example.com --data "$data" > /dev/null   # another process writes too
"$BIN" users list --data "$data" | tee "$work/users.before"

say "4. wait until the replica has the last write, then stop litestream"
# The WAL is shipped every second; a checkpoint by serve also ends up there.
sleep 5
kill "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true
cat "$work/litestream.log"
find "$replica" -type f | sort | head -20

say "5. litestream restore into a new path (serve still running on the original)"
"$LITESTREAM" restore -config "$work/litestream.yml" -o "$restored/brandpack.db" "$data/brandpack.db"
ls -l "$restored"
"$BIN" migrate --data "$restored"
"$BIN" users list --data "$restored" | tee "$work/users.after"
diff <(sed 's/  */ /g' "$work/users.before") <(sed 's/  */ /g' "$work/users.after") && echo "users and usage: identical"

say "6. brandpack on the restored file: the old key, packs served from cache"
"$BIN" serve --data "$restored" --addr "127.0.0.1:$((BASE_PORT + 99))" --browsers 1 > "$work/serve-restored.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$((BASE_PORT + 99))/healthz"
for host in "${hosts[@]}"; do
	body=$(curl -sS -H "Authorization: Bearer $key" "http://127.0.0.1:$((BASE_PORT + 99))/api/v1/pack/$host")
	echo "$host: $(echo "$body" | grep -o '"brand":"[^"]*"' | head -1) $(echo "$body" | grep -o '"cached":[a-z]*')"
	echo "$body" | grep -q '"cached":true'
	logo=$(echo "$body" | grep -o '"url":"[^"]*/api/v1/assets/logos/[^"]*"' | head -1 | sed 's/"url":"//; s/"$//')
	if [ -n "$logo" ]; then
		path=${logo#*://*/}
		echo "  logo /$path -> $(curl -sS -o /dev/null -w '%{http_code} %{size_download} bytes' "http://127.0.0.1:$((BASE_PORT + 99))/$path")"
	fi
done
"$BIN" users list --data "$restored"
say "restore drill passed ($work)"
