#!/usr/bin/env bash
# Throughput, latency and memory of the release binary, as ratios to a static-bytes baseline
# measured in the same run on the same machine (examples/static_bytes.rs: the same bytes as
# the cached list, no other work; and the same plus one Redis INCR per request).
#
# Usage: scripts/bench.sh [seconds per measurement, default 10]
# Needs wrk (installed from Debian's packages when missing) and, for the Redis rows, a Redis
# at $MDS_BENCH_REDIS_URL (default redis://127.0.0.1:6379).
set -euo pipefail
# `mds serve` syncs daily from the real upstreams by default; the servers started here
# must not reach the network (docs/sync.md, "Scheduling").
export MDS_SYNC_INTERVAL=0
cd "$(dirname "$0")/.."
DURATION="${1:-10}"
REDIS="${MDS_BENCH_REDIS_URL:-redis://127.0.0.1:6379}"
CONNECTIONS=32

if ! command -v wrk >/dev/null; then
  echo "wrk is not installed; installing Debian's package"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq wrk >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq wrk >/dev/null; fi
fi

cargo build --release --locked --bin mds --example static_bytes
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$1$2" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "port $1 did not answer" >&2; exit 1; }

# One mds: name, then extra environment.
start_mds() {
  local name=$1; shift
  local port; port=$(free_port)
  mkdir -p "$WORK/$name"
  (cd "$WORK/$name" && exec env -u DATABASE_URL -u REDIS_URL "$@" MDS_FREE_LIMIT=1000000000 RUST_LOG=warn \
    "$OLDPWD/target/release/mds" serve --bind "127.0.0.1:$port" >"$WORK/$name/log" 2>&1) &
  PIDS+=($!)
  eval "PID_$name=$!"
  eval "PORT_$name=$port"
  wait_up "$port" /healthz
}

start_mds cached
start_mds uncached MDS_CACHE_SIZE_MB=0
start_mds redis REDIS_URL="$REDIS" MDS_REDIS_PREFIX="mds-bench:$$"

LIST="/api/v1/models?limit=20"
curl -fs "http://127.0.0.1:$PORT_cached$LIST" >"$WORK/body.json"
PORT_static=$(free_port); PORT_static_redis=$(free_port); PORT_static_page=$(free_port)
./target/release/examples/static_bytes "$WORK/body.json" "127.0.0.1:$PORT_static" & PIDS+=($!)
./target/release/examples/static_bytes "$WORK/body.json" "127.0.0.1:$PORT_static_redis" "$REDIS" & PIDS+=($!)
wait_up "$PORT_static" /; wait_up "$PORT_static_redis" /

GRAPHQL="/graphql?query=%7Bmodels(first:50)%7Bnodes%7Bslug%20name%20creator%7Bname%7D%20offerings%7BinputPrice%20provider%7Bname%7D%7D%20scores%7Bscore%20benchmark%7Bname%7D%7D%7D%7D%7D"
DETAIL="/api/v1/models/gpt-4o-2024-11-20"
COMPARE="/api/v1/compare?models=gpt-4o,claude-3-5-sonnet,gemini-2.5-pro"
SEARCH="/api/v1/models/search?q=claude"

# The GraphQL page's own bytes, served statically: what sending a body of that size costs
# here with no work at all, the ceiling of any GraphQL-page row.
curl -fs "http://127.0.0.1:$PORT_cached$GRAPHQL" >"$WORK/page.json"
./target/release/examples/static_bytes "$WORK/page.json" "127.0.0.1:$PORT_static_page" & PIDS+=($!)
wait_up "$PORT_static_page" /

# The same GraphQL page sent as a POST, as Apollo Client and most GraphQL clients send it.
cat >"$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"query":"{models(first:50){nodes{slug name creator{name} offerings{inputPrice provider{name}} scores{score benchmark{name}}}}}"}'
LUA

# MCP tool calls (docs/mcp.md) as a streamable-HTTP client posts them: the cached model list
# (the same data as the cached REST list above) and an uncached recommendation.
mcp_script() { # file, tool, arguments (JSON)
  cat >"$1" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-06-18"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"$2","arguments":$3}}'
LUA
}
mcp_script "$WORK/mcp_list.lua" find_models '{"limit":20}'
mcp_script "$WORK/mcp_recommend.lua" recommend_models '{"tool_call":true,"input_tokens":2000,"output_tokens":500,"requests":1000}'

# Prints "req/s p50 p99" for one URL (and a wrk script, for a POST).
measure() {
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency ${2:+-s "$2"} "$1" >"$WORK/wrk.txt"
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
  p50=$(awk '$1 == "50%" {print $2}' "$WORK/wrk.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")
  echo "$rps $p50 $p99"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

mean() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a + b) / 2 }'; }

# The baselines are measured first and again last, and their means are what the ratios
# divide by, so a machine that speeds up or slows down during the run skews no row.
read -r BASE1 BP50 BP99 < <(measure "http://127.0.0.1:$PORT_static/")
read -r FLOOR1 FP50 FP99 < <(measure "http://127.0.0.1:$PORT_static_redis/")
ROWS=()
row() { # label, counters, port, path[, wrk script]
  local rps p50 p99
  read -r rps p50 p99 < <(measure "http://127.0.0.1:$3$4" "${5:-}")
  ROWS+=("$1|$2|$rps|$p50|$p99")
}
row "list, cached" in-process "$PORT_cached" "$LIST"
row "list, cached" Redis "$PORT_redis" "$LIST"
row "list, cache off" in-process "$PORT_uncached" "$LIST"
row "model detail, cache off" in-process "$PORT_uncached" "$DETAIL"
row "compare 3, cache off" in-process "$PORT_uncached" "$COMPARE"
row "search q=claude, cache off" in-process "$PORT_uncached" "$SEARCH"
row "search q=claude, cached" in-process "$PORT_cached" "$SEARCH"
row "static body of the GraphQL page's size ($(wc -c <"$WORK/page.json") bytes)" none "$PORT_static_page" /
row "GraphQL 50 models + relations, cache off" in-process "$PORT_uncached" "$GRAPHQL"
row "GraphQL 50 models + relations, cached" in-process "$PORT_cached" "$GRAPHQL"
row "GraphQL 50 models + relations, POST, cached" in-process "$PORT_cached" /graphql "$WORK/post.lua"
row "GraphQL 50 models + relations, POST, cache off" in-process "$PORT_uncached" /graphql "$WORK/post.lua"
row "MCP find_models limit=20 (the list's data), cached" in-process "$PORT_cached" /mcp "$WORK/mcp_list.lua"
row "MCP recommend_models, cache off" in-process "$PORT_uncached" /mcp "$WORK/mcp_recommend.lua"
read -r FLOOR2 _ _ < <(measure "http://127.0.0.1:$PORT_static_redis/")
read -r BASE2 _ _ < <(measure "http://127.0.0.1:$PORT_static/")
BASE_RPS=$(mean "$BASE1" "$BASE2")
FLOOR_RPS=$(mean "$FLOOR1" "$FLOOR2")

printf "wrk -t2 -c%s, %ss each, %s cores\n\n" "$CONNECTIONS" "$DURATION" "$(nproc)"
printf "| request | counters | req/s | p50 | p99 | ratio to static |\n|---|---|---|---|---|---|\n"
printf "| static body (%s bytes; first / last run) | none | %s (%s / %s) | %s | %s | 1 |\n" \
  "$(wc -c <"$WORK/body.json")" "$BASE_RPS" "$BASE1" "$BASE2" "$BP50" "$BP99"
printf "| static body + Redis INCR (first / last run) | Redis | %s (%s / %s) | %s | %s | %s |\n" \
  "$FLOOR_RPS" "$FLOOR1" "$FLOOR2" "$FP50" "$FP99" "$(ratio "$FLOOR_RPS" "$BASE_RPS")"
for r in "${ROWS[@]}"; do
  IFS='|' read -r label counters rps p50 p99 <<<"$r"
  extra=""
  if [ "$counters" = Redis ]; then extra=" ($(ratio "$rps" "$FLOOR_RPS") of the INCR floor)"; fi
  printf "| %s | %s | %s | %s | %s | %s%s |\n" "$label" "$counters" "$rps" "$p50" "$p99" "$(ratio "$rps" "$BASE_RPS")" "$extra"
done
echo
for name in cached uncached redis; do
  pid_var="PID_$name"
  echo "RSS after the run ($name): $(grep VmRSS "/proc/${!pid_var}/status" | awk '{print $2, $3}')"
done
