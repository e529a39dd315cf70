#!/usr/bin/env bash
# Throughput, latency and memory of the release binary serving the embedded dataset.
# Usage: scripts/bench.sh [seconds per endpoint, default 10]
# Uses SQLite in a temporary directory and in-process limits set high enough not to interfere.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-10}"

if ! command -v wrk >/dev/null; then
  echo "wrk is not installed; installing Debian's package"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq wrk >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq wrk >/dev/null; fi
fi

cargo build --release --locked --bin mds
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DATABASE_URL="sqlite://$WORK/bench.db?mode=rwc" MDS_FREE_LIMIT=1000000000 RUST_LOG=warn \
  ./target/release/mds serve --bind "127.0.0.1:$PORT" >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

BASE="http://127.0.0.1:$PORT"
echo "RSS after start: $(grep VmRSS /proc/$PID/status | awk '{print $2, $3}')"
for path in \
  "/api/v1/models?limit=20" \
  "/api/v1/models?limit=100&sort=price" \
  "/api/v1/models/gpt-4o" \
  "/api/v1/models/search?q=claude" \
  "/api/v1/compare?models=gpt-4o,claude-3-5-sonnet,gemini-2.5-pro" \
  "/graphql?query=%7Bmodels(first:50)%7Bnodes%7Bslug%20creator%7Bname%7D%20offerings%7BinputPrice%7D%7D%7D%7D"; do
  echo "== GET $path"
  wrk -t2 -c16 -d"${DURATION}s" --latency "$BASE$path" | grep -E "Requests/sec|Latency |50%|99%"
done
echo "Peak RSS: $(grep VmHWM /proc/$PID/status | awk '{print $2, $3}')"
