#!/usr/bin/env bash
# make image-smoke: run the image as a user would and check it end to end,
# with Docker or Podman (ENGINE), no registry needed once the image is built:
#   - the container runs as uid 10001 under tini, --cap-drop=ALL,
#     no-new-privileges, on a non-default port (BRANDPACK_ADDR) so the
#     health check's port derivation is exercised;
#   - the health check reports healthy;
#   - a user and a key are made with `exec brandpack …`;
#   - the pack of a local fixture site (served on the host, reached through
#     --resolve over the host network) is fetched;
#   - `stop` drains and the process exits 0.
set -euo pipefail
ENGINE=${ENGINE:-docker}
IMAGE=${IMAGE:-brandpack:dev}
PORT=${SMOKE_PORT:-18180}
SITE_PORT=${SMOKE_SITE_PORT:-18181}
SITE=${SMOKE_SITE:-brindlecote.org}
name=brandpack-smoke-$$
base=http://127.0.0.1:$PORT

say() { printf 'image-smoke: %s\n' "$*"; }
fail() { say "FAIL: $*"; "$ENGINE" logs "$name" 2>&1 | tail -40 || true; exit 1; }
site_pid=
cleanup() {
	"$ENGINE" rm -f "$name" >/dev/null 2>&1 || true
	"$ENGINE" volume rm -f "$name-data" >/dev/null 2>&1 || true
	[ -n "$site_pid" ] && kill "$site_pid" 2>/dev/null || true
}
trap cleanup EXIT

# poll CMD... until it succeeds or SECS pass.
poll() {
	local secs=$1; shift
	local end=$((SECONDS + secs))
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.5
	done
}

"${GO:-go}" build -o "${TMPDIR:-/tmp}/brandpack-smokesite" ./scripts/smokesite
"${TMPDIR:-/tmp}/brandpack-smokesite" -addr "127.0.0.1:$SITE_PORT" -dir "testdata/sites/$SITE" &
site_pid=$!
poll 10 curl -fsS -o /dev/null "http://127.0.0.1:$SITE_PORT/" || fail "fixture site did not start"

say "starting $IMAGE with $ENGINE on $base"
"$ENGINE" run -d --name "$name" --network host \
	--cap-drop=ALL --security-opt=no-new-privileges \
	--stop-timeout 40 --health-interval 2s \
	-v "$name-data:/data" \
	-e "BRANDPACK_ADDR=127.0.0.1:$PORT" -e "BRANDPACK_PUBLIC_URL=$base" \
	-e "BRANDPACK_RESOLVE=$SITE=127.0.0.1:$SITE_PORT" \
	"$IMAGE" >/dev/null

poll 60 curl -fsS -o /dev/null "$base/healthz" || fail "/healthz did not answer"
[ "$("$ENGINE" exec "$name" id -u)" = 10001 ] || fail "not running as uid 10001"

healthy() {
	if [ "$ENGINE" = podman ]; then
		podman healthcheck run "$name" # no systemd timers needed
	else
		[ "$(docker inspect --format '{{.State.Health.Status}}' "$name")" = healthy ]
	fi
}
poll 60 healthy || fail "the health check never reported healthy (port from BRANDPACK_ADDR)"
say "healthy"

"$ENGINE" exec "$name" brandpack users create --email smoke@example.com >/dev/null
key=$("$ENGINE" exec "$name" brandpack keys create --email smoke@example.com)
case "$key" in bd_*) ;; *) fail "keys create printed $key" ;; esac

pack=$(curl -fsS --max-time 120 -H "Authorization: Bearer $key" "$base/api/v1/pack/$SITE") || fail "pack request failed"
case "$pack" in *'"brand"'*'"colors"'*) ;; *) fail "not a pack: $pack" ;; esac
say "pack of $SITE: ${pack:0:120}…"

"$ENGINE" stop -t 40 "$name" >/dev/null
code=$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$name")
[ "$code" = 0 ] || fail "exit code $code after stop, want 0"
"$ENGINE" logs "$name" 2>&1 | grep -q 'shutting down' || fail "no graceful shutdown in the log"
say "stopped gracefully (exit 0)"
say "ok"
