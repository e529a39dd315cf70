#!/usr/bin/env bash
# The whole test pipeline: make sure PostgreSQL and Redis are reachable (use running
# ones, else start them, else install Debian's packages and start them), then check
# formatting and lints and run the whole suite against SQLite, PostgreSQL and Redis.
set -euo pipefail
# `mds serve` syncs daily from the real upstreams by default; the servers started here
# must not reach the network (docs/sync.md, "Scheduling").
export MDS_SYNC_INTERVAL=0
cd "$(dirname "$0")/.."

PGHOST_ADDR=127.0.0.1
PGPORT_NUM=5432
REDIS_PORT_NUM=6379
export MDS_TEST_POSTGRES_URL="${MDS_TEST_POSTGRES_URL:-postgres://postgres@${PGHOST_ADDR}:${PGPORT_NUM}/postgres}"
export MDS_TEST_REDIS_URL="${MDS_TEST_REDIS_URL:-redis://${PGHOST_ADDR}:${REDIS_PORT_NUM}}"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && exec 3>&- 3<&-; }

wait_port() {
  for _ in $(seq 1 60); do port_open "$1" "$2" && return 0; sleep 0.5; done
  return 1
}

ensure_postgres() {
  port_open "$PGHOST_ADDR" "$PGPORT_NUM" && return 0
  echo "PostgreSQL is not reachable; starting it"
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "PostgreSQL is not installed; installing Debian's package"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
  fi
  local version
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  # Trust local TCP connections, as the tests connect without a password.
  local hba="/etc/postgresql/$version/main/pg_hba.conf"
  if ! grep -q "^host all all 127.0.0.1/32 trust" "$hba"; then
    as_root sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
  fi
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_port "$PGHOST_ADDR" "$PGPORT_NUM" || { echo "PostgreSQL did not start" >&2; exit 1; }
}

ensure_redis() {
  port_open "$PGHOST_ADDR" "$REDIS_PORT_NUM" && return 0
  echo "Redis is not reachable; starting it"
  if ! command -v redis-server >/dev/null; then
    echo "Redis is not installed; installing Debian's package"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq redis-server >/dev/null
  fi
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT_NUM" --save "" --appendonly no
  wait_port "$PGHOST_ADDR" "$REDIS_PORT_NUM" || { echo "Redis did not start" >&2; exit 1; }
}

ensure_chromium() {
  command -v chromium >/dev/null && return 0
  echo "Chromium is not installed (the GraphiQL browser test needs it); installing Debian's package"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >/dev/null
}

ensure_python_requests() {
  python3 -c 'import requests' 2>/dev/null && return 0
  echo "Python's requests is not installed (the paginator test uses it); installing Debian's package"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq python3-requests >/dev/null
}

ensure_node() {
  command -v npx >/dev/null && return 0
  echo "Node.js is not installed (the generated-client check needs npx); installing Debian's packages"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq nodejs npm >/dev/null
}

ensure_postgres
ensure_redis
ensure_chromium
ensure_python_requests
ensure_node
# The limits tests start and kill a Redis of their own: redis-server must be on PATH.
command -v redis-server >/dev/null || { echo "redis-server is required by the tests" >&2; exit 1; }

# Property-based fuzzing of the running REST API against its own OpenAPI document
# (schemathesis from PyPI, in a virtualenv under target/): no 5xx, and every status, content
# type and body as documented. Bounded to 60 s of generation; the seed is fixed so a CI
# run is reproducible (`--seed` on the command line below).
run_schemathesis() {
  local venv=target/schemathesis
  if [ ! -x "$venv/bin/schemathesis" ]; then
    echo "Installing schemathesis into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==4.32.5"
  fi
  local dir port pid status=0
  dir=$(mktemp -d)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$dir" && exec env -u DATABASE_URL -u REDIS_URL MDS_FREE_LIMIT=1000000000 \
    "$OLDPWD/target/debug/mds" serve --bind "127.0.0.1:$port" >"$dir/server.log" 2>&1) &
  pid=$!
  wait_port 127.0.0.1 "$port" || { cat "$dir/server.log"; kill "$pid" 2>/dev/null; exit 1; }
  "$venv/bin/schemathesis" run "http://127.0.0.1:$port/api/v1/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-time 60 --workers 2 --seed 1 --max-response-time 2 --no-color || status=$?
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  return "$status"
}

# A generated client, type-checked: openapi-typescript (npm, pinned) turns the OpenAPI
# document into TypeScript types and `tsc --strict` compiles tests/client/check.ts against
# them, which only succeeds when always-present fields are required and nullable ones say so.
check_client() {
  local dir=target/client
  rm -rf "$dir" && mkdir -p "$dir"
  cp tests/client/check.ts tests/client/tsconfig.json "$dir/"
  target/debug/mds openapi >"$dir/openapi.json"
  (cd "$dir" &&
    npx --yes openapi-typescript@7.13.0 openapi.json -o schema.d.ts &&
    npx --yes -p typescript@5.9.3 tsc -p tsconfig.json)
  echo "generated TypeScript client type-checks"
}

# Python clients, run against a live service: openapi-python-client (PyPI, pinned) generates
# a client from the OpenAPI document and tests/client/check.py calls the service through it,
# with the names a generator gives (list_models, get_model, Cheapest); then gql (PyPI,
# pinned), the Python GraphQL client, runs tests/client/check_gql.py as a frontend would:
# introspection, cursor paging, POSTs answered from the cache, errors.
check_python_clients() {
  local venv=target/pyclient-venv dir="$PWD/target/pyclient"
  if [ ! -x "$venv/bin/openapi-python-client" ] || ! "$venv/bin/python" -c 'import gql' 2>/dev/null; then
    echo "Installing openapi-python-client and gql into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "openapi-python-client==0.29.1" \
      "gql[requests]==4.4.0"
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  target/debug/mds openapi >"$dir/openapi.json"
  (cd "$dir" && "$OLDPWD/$venv/bin/openapi-python-client" generate --path openapi.json \
    --meta none --output-path mds_client >generate.log 2>&1) || { cat "$dir/generate.log"; exit 1; }
  local port pid status=0
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$dir" && exec env -u DATABASE_URL -u REDIS_URL MDS_FREE_LIMIT=1000000000 \
    "$OLDPWD/target/debug/mds" serve --bind "127.0.0.1:$port" >"$dir/server.log" 2>&1) &
  pid=$!
  wait_port 127.0.0.1 "$port" || { cat "$dir/server.log"; kill "$pid" 2>/dev/null; exit 1; }
  (cd "$dir" && PYTHONPATH=. "$OLDPWD/$venv/bin/python" "$OLDPWD/tests/client/check.py" \
    "http://127.0.0.1:$port") || status=$?
  "$venv/bin/python" tests/client/check_gql.py "http://127.0.0.1:$port" || status=$?
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  return "$status"
}

# Every curl example of the README and docs/, run as pasted against a live service (the
# documented address replaced by the test server's), each answering 200; `$MDS_KEY` is a
# key made for the run.
check_examples() {
  local dir port pid key status=0
  dir=$(mktemp -d)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  key=$(cd "$dir" && env -u DATABASE_URL "$OLDPWD/target/debug/mds" keys create --name examples | tail -n 1)
  (cd "$dir" && exec env -u DATABASE_URL -u REDIS_URL MDS_FREE_LIMIT=1000000000 \
    "$OLDPWD/target/debug/mds" serve --bind "127.0.0.1:$port" >"$dir/server.log" 2>&1) &
  pid=$!
  wait_port 127.0.0.1 "$port" || { cat "$dir/server.log"; kill "$pid" 2>/dev/null; exit 1; }
  python3 scripts/check_examples.py "http://127.0.0.1:$port" "$key" || status=$?
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  return "$status"
}

# The MCP face as agents' clients meet it (docs/mcp.md): the official Python MCP SDK (`mcp`
# from PyPI, pinned, with jsonschema) runs tests/client/check_mcp.py over streamable HTTP and
# over stdio (`mds mcp`): every tool listed, called and its structuredContent valid against its
# outputSchema, errors with REST's codes, a repeated call from the cache; and, against a server
# with a small hourly limit, a call over it answered as REST's 429.
check_mcp_client() {
  local venv=target/mcp-venv bin="$PWD/${CARGO_TARGET_DIR:-target}/debug/mds"
  case "${CARGO_TARGET_DIR:-}" in /*) bin="$CARGO_TARGET_DIR/debug/mds" ;; esac
  if ! "$venv/bin/python" -c 'import mcp, jsonschema' 2>/dev/null; then
    echo "Installing the MCP Python SDK into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "mcp==2.3.0" "jsonschema==4.25.1"
  fi
  local dir port limited pids=() status=0
  dir=$(mktemp -d)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  limited=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$dir" && exec env -u DATABASE_URL -u REDIS_URL MDS_FREE_LIMIT=1000000000 \
    "$bin" serve --bind "127.0.0.1:$port" >"$dir/server.log" 2>&1) &
  pids+=($!)
  wait_port 127.0.0.1 "$port" || { cat "$dir/server.log"; kill "${pids[@]}" 2>/dev/null; exit 1; }
  mkdir -p "$dir/limited"
  (cd "$dir/limited" && exec env -u DATABASE_URL -u REDIS_URL MDS_FREE_LIMIT=3 \
    "$bin" serve --bind "127.0.0.1:$limited" >"$dir/limited.log" 2>&1) &
  pids+=($!)
  wait_port 127.0.0.1 "$limited" || { cat "$dir/limited.log"; kill "${pids[@]}" 2>/dev/null; exit 1; }
  # stdio runs in the first server's directory, on its database (already filled).
  (cd "$dir" && env -u DATABASE_URL -u REDIS_URL "$OLDPWD/$venv/bin/python" \
    "$OLDPWD/tests/client/check_mcp.py" "http://127.0.0.1:$port" \
    --limited "http://127.0.0.1:$limited" --stdio "$bin") || status=$?
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  rm -rf "$dir"
  return "$status"
}

cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
# Tests that read the raw public datasets are #[ignore]d (cargo counts them as not run);
# they run wherever ../shared/data/raw exists, as it always does in CI.
if [ -d ../shared/data/raw ]; then
  cargo test --locked --all-targets -- --include-ignored
else
  echo "../shared/data/raw is absent: the tests that read it are reported as ignored"
  cargo test --locked --all-targets
fi
check_examples
check_client
check_python_clients
check_mcp_client
run_schemathesis
