#!/usr/bin/env bash
# Resting memory of a serving instance across many syncs (docs/sync.md, "Memory over many
# syncs"): one `mds serve` on a fresh SQLite database, a loopback mirror of the raw sources,
# and N syncs (default 50) run as the schedule runs them. Every tenth sync observes a new
# LiteLLM copy (one price moved), so it imports and every instance reloads; the others
# observe nothing new. Prints the server's RSS after each sync and the spread over the run.
#
# Usage: scripts/sync_memory.sh [syncs, default 50] [raw sources, default ../shared/data/raw]
# MDS_BIN picks the binary (default target/release/mds, built when missing).
set -euo pipefail
export MDS_SYNC_INTERVAL=0
cd "$(dirname "$0")/.."
SYNCS="${1:-50}"
RAW="$(cd "${2:-../shared/data/raw}" && pwd)"
BIN="${MDS_BIN:-target/release/mds}"
[ -x "$BIN" ] || cargo build --release --locked --bin mds
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"

WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

cp -r "$RAW" "$WORK/mirror"
MIRROR_PORT=$(free_port)
(cd "$WORK/mirror" && exec python3 -m http.server "$MIRROR_PORT" --bind 127.0.0.1 >/dev/null 2>&1) &
PIDS+=($!)
PORT=$(free_port)
export DATABASE_URL="sqlite://$WORK/mds.db?mode=rwc" RUST_LOG=warn
(cd "$WORK" && exec "$BIN" serve --bind "127.0.0.1:$PORT" --reload-interval-ms 200 >"$WORK/serve.log" 2>&1) &
SERVER=$!
PIDS+=($SERVER)
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fs "http://127.0.0.1:$PORT/api/v1/models?limit=20" >/dev/null

# A new LiteLLM copy: one model's input price moved by `step` per cent.
bump_litellm() {
  python3 - "$WORK/mirror/litellm/model_prices_and_context_window.json" "$1" <<'EOF'
import json, sys
path, step = sys.argv[1], int(sys.argv[2])
data = json.load(open(path))
entry = data["gpt-4o"]
entry["input_cost_per_token"] = round(entry["input_cost_per_token"] * (1 + step / 100), 12)
json.dump(data, open(path, "w"), indent=4)
EOF
}

FIRST="" LOW="" HIGH=""
for i in $(seq 1 "$SYNCS"); do
  [ $((i % 10)) -eq 0 ] && bump_litellm "$i"
  "$BIN" sync --mirror "http://127.0.0.1:$MIRROR_PORT" --data-dir "$WORK/data" >"$WORK/sync.log" 2>&1 \
    || { echo "sync $i failed:"; cat "$WORK/sync.log"; exit 1; }
  sleep 1   # the server reloads within its 200 ms interval
  curl -fs "http://127.0.0.1:$PORT/api/v1/models?limit=20" >/dev/null
  now=$(rss_mb "$SERVER")
  [ -z "$FIRST" ] && FIRST=$now LOW=$now HIGH=$now
  [ "$now" -lt "$LOW" ] && LOW=$now
  [ "$now" -gt "$HIGH" ] && HIGH=$now
  echo "sync $i: $(tail -n 1 "$WORK/sync.log" | cut -c1-90) | server RSS $now MB"
done
echo "server RSS over $SYNCS syncs: first $FIRST MB, lowest $LOW MB, highest $HIGH MB, last $now MB"
python3 -c "import sys; f,h=float(sys.argv[1]),float(sys.argv[2]); print(f'highest is {100*(h-f)/f:.1f} % above the first')" "$FIRST" "$HIGH"
