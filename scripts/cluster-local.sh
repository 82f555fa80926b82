#!/usr/bin/env bash
# A cluster-mode deployment on one machine, without Docker (issue 16): one redis-server (Debian's
# package, installed by scripts/ensure-redis.sh when absent) with AOF and noeviction, and three
# service nodes with STORE=redis behind no load balancer (call any of them).
#
#   scripts/cluster-local.sh [start] [--dir DIR] [--redis-port PORT]   start (again: starts the nodes that are not running)
#   scripts/cluster-local.sh status  [--dir DIR]                       pids and /readyz of each process
#   scripts/cluster-local.sh stop    [--dir DIR]                       SIGTERM the nodes, then shut Redis down
#
# DIR (default ./cluster-data at the repository root, mode 0700, gitignored) holds Redis's data and
# AOF (redis/), each node's DATA_DIR (node-N/: node 1 writes bootstrap.json there on the first start),
# the logs (logs/), the pid files, cluster.env (the ports and node count of the last start, which
# status, stop and a restart of missing nodes reuse while the cluster runs) and secrets.env:
# GOV_KEY_PEPPER and GOV_MASTER_KEY, generated once (mode 0600) and reused, since every node and the
# admin CLI must use the same two values.
#
# Nodes listen on 127.0.0.1:8081-8083 (API) and 127.0.0.1:9465-9467 (operators: /metrics, /healthz,
# /readyz); Redis on 127.0.0.1:6390 (never 6379, a system Redis's port) with REDIS_MAXMEMORY (default
# 1gb: at it Redis refuses writes instead of evicting). Other service variables
# (POOL_THREADS, LOG_LEVEL, CHUNK_LOCK_MS, REDIS_PREFIX, ...) are passed through from the caller's
# environment. dist/ is built when missing; after changing the sources run `npm run build` first.
#
# Environment (for a second cluster beside the first, or for tests on free ports; the options win):
#   CLUSTER_DIR         DIR (default ./cluster-data at the repository root)
#   CLUSTER_REDIS_PORT  Redis's port (default 6390)
#   CLUSTER_API_PORT    node 1's API port; node N listens on CLUSTER_API_PORT + N - 1 (default 8081)
#   CLUSTER_OPS_PORT    node 1's operators' port; node N on CLUSTER_OPS_PORT + N - 1 (default 9465)
#   CLUSTER_NODES       how many nodes, 1 to 9 (default 3)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NODES=${CLUSTER_NODES:-3}
API_PORT_BASE=${CLUSTER_API_PORT:-8081}
OPS_PORT_BASE=${CLUSTER_OPS_PORT:-9465}
READY_TIMEOUT_S=60
STOP_TIMEOUT_S=15
# Node 1 creates the demo organization on an empty Redis unless BOOTSTRAP_DEMO=false.
DEMO_ON_NODE_1=${BOOTSTRAP_DEMO:-true}

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
}

die() {
  echo "cluster-local: $*" >&2
  exit 1
}

command_name="start"
if [[ $# -gt 0 && "$1" != --* ]]; then
  command_name=$1
  shift
fi
dir=${CLUSTER_DIR:-"$ROOT/cluster-data"}
redis_port=${CLUSTER_REDIS_PORT:-6390}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir)
      [[ $# -ge 2 ]] || die "--dir needs a directory"
      dir=$2
      shift 2
      ;;
    --redis-port)
      [[ $# -ge 2 ]] || die "--redis-port needs a port"
      redis_port=$2
      shift 2
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
# A TCP port: a number from 1 to 65535.
valid_port() { [[ "$1" =~ ^[1-9][0-9]{0,4}$ ]] && (($1 <= 65535)); }
valid_port "$redis_port" || die "the Redis port (--redis-port or CLUSTER_REDIS_PORT) must be a number from 1 to 65535, not '$redis_port'"
[[ "$redis_port" != 6379 ]] || die "port 6379 is a system Redis's port: choose another (default 6390)"
[[ "$NODES" =~ ^[1-9]$ ]] || die "CLUSTER_NODES must be a number from 1 to 9, not '$NODES'"
valid_port "$API_PORT_BASE" && valid_port $((API_PORT_BASE + NODES - 1)) ||
  die "CLUSTER_API_PORT must be a port from 1 to $((65536 - NODES)), not '$API_PORT_BASE'"
valid_port "$OPS_PORT_BASE" && valid_port $((OPS_PORT_BASE + NODES - 1)) ||
  die "CLUSTER_OPS_PORT must be a port from 1 to $((65536 - NODES)), not '$OPS_PORT_BASE'"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# The ports and node count of a running cluster win over the options and the environment
# (stop/status need neither; a restart of missing nodes reuses them).
if [[ -f "$dir/cluster.env" ]] && compgen -G "$dir/*.pid" >/dev/null; then
  saved() { sed -n "s/^$1=//p" "$dir/cluster.env"; }
  redis_port=$(saved REDIS_PORT)
  API_PORT_BASE=$(saved API_PORT)
  OPS_PORT_BASE=$(saved OPS_PORT)
  NODES=$(saved NODES)
  # A cluster.env written before these were saved holds only REDIS_PORT: the defaults then.
  : "${redis_port:=6390}" "${API_PORT_BASE:=8081}" "${OPS_PORT_BASE:=9465}" "${NODES:=3}"
fi

api_port() { echo $((API_PORT_BASE + $1 - 1)); }
ops_port() { echo $((OPS_PORT_BASE + $1 - 1)); }

# The pid in a pid file when that process is alive and runs `what` (guards against a reused pid), else empty.
live_pid() {
  local file=$1 what=$2 pid
  [[ -f "$file" ]] || return 0
  pid=$(<"$file")
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  if kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$what"; then
    echo "$pid"
  fi
}

node_pid() { live_pid "$dir/node-$1.pid" "dist/src/server/main.js"; }
redis_pid() { live_pid "$dir/redis.pid" "redis-server"; }

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

http_status() {
  curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true
}

# Waits until `url` answers 200 and the log `log`, past its first `offset` bytes, has the service's
# start line, while process `pid` lives. /readyz answers as soon as the listener is up, while a first
# start may still be making the demo organization; the start line comes after it (and bootstrap.json).
# @returns 1 on time-out or exit.
wait_ready() {
  local url=$1 pid=$2 log=$3 offset=$4 deadline=$((SECONDS + READY_TIMEOUT_S))
  while ((SECONDS < deadline)); do
    if [[ "$(http_status "$url")" == 200 ]] && tail -c +$((offset + 1)) "$log" | grep -q '^Governance Evaluation Service '; then
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

# SIGTERM, then SIGKILL after STOP_TIMEOUT_S (the service exits within SHUTDOWN_DEADLINE_MS, 10 s by default).
stop_pid() {
  local pid=$1 name=$2 deadline=$((SECONDS + STOP_TIMEOUT_S))
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      echo "  $name (pid $pid) did not exit after ${STOP_TIMEOUT_S}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.2
  done
  echo "  stopped $name (pid $pid)"
}

stop_nodes() {
  local file i pid
  # Every node with a pid file, whatever CLUSTER_NODES says now.
  for file in "$dir"/node-*.pid; do
    [[ -e "$file" ]] || continue
    i=${file##*/node-}
    i=${i%.pid}
    pid=$(node_pid "$i")
    # Nodes stop in parallel: each drains its own work within its deadline.
    if [[ -n "$pid" ]]; then stop_pid "$pid" "node $i" & fi
  done
  wait
  rm -f "$dir"/node-*.pid
}

stop_redis() {
  local pid
  pid=$(redis_pid)
  if [[ -n "$pid" ]]; then
    # SHUTDOWN writes and fsyncs the AOF before exiting; SIGTERM does the same if the command fails.
    redis-cli -h 127.0.0.1 -p "$redis_port" shutdown >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + STOP_TIMEOUT_S))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    echo "  stopped redis-server (pid $pid)"
  fi
  rm -f "$dir/redis.pid"
}

cmd_stop() {
  echo "Stopping the local cluster in $dir"
  stop_nodes
  stop_redis
}

cmd_status() {
  local i pid any=0
  pid=$(redis_pid)
  if [[ -n "$pid" ]]; then
    any=1
    echo "redis-server  pid $pid  127.0.0.1:$redis_port  $(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null || echo unreachable)"
  else
    echo "redis-server  not running"
  fi
  for ((i = 1; i <= NODES; i++)); do
    pid=$(node_pid "$i")
    if [[ -n "$pid" ]]; then
      any=1
      echo "node $i        pid $pid  http://127.0.0.1:$(api_port "$i")  /readyz $(http_status "http://127.0.0.1:$(ops_port "$i")/readyz")"
    else
      echo "node $i        not running"
    fi
  done
  [[ $any == 1 ]] || return 3
}

# Writes secrets.env once (mode 0600); later starts reuse it.
ensure_secrets() {
  local file="$dir/secrets.env"
  if [[ -f "$file" ]]; then
    chmod 600 "$file"
    return
  fi
  command -v openssl >/dev/null 2>&1 || die "openssl is needed to generate the secrets"
  (
    umask 077
    {
      echo "# Server secrets of the local cluster (64 hex each): the same on every node and for the admin CLI."
      echo "# Generated by scripts/cluster-local.sh; never commit them. Losing them invalidates every API key."
      echo "GOV_KEY_PEPPER=$(openssl rand -hex 32)"
      echo "GOV_MASTER_KEY=$(openssl rand -hex 32)"
    } >"$file"
  )
  echo "Generated $file (mode 0600)"
}

start_redis() {
  local pid
  pid=$(redis_pid)
  if [[ -n "$pid" ]]; then
    echo "redis-server already running (pid $pid, port $redis_port)"
    return
  fi
  port_in_use "$redis_port" && die "port $redis_port is in use by another process: choose another with --redis-port or CLUSTER_REDIS_PORT"
  mkdir -p "$dir/redis"
  chmod 700 "$dir/redis"
  # AOF with an fsync every second and no eviction: the service refuses a Redis without them.
  redis-server --port "$redis_port" --bind 127.0.0.1 --protected-mode yes \
    --dir "$dir/redis" --appendonly yes --appendfsync everysec --save "" \
    --maxmemory-policy noeviction --maxmemory "${REDIS_MAXMEMORY:-1gb}" \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/logs/redis.log"
  local deadline=$((SECONDS + 20))
  until [[ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" == PONG ]]; do
    ((SECONDS < deadline)) || die "redis-server did not answer PING on port $redis_port (see $dir/logs/redis.log)"
    sleep 0.1
  done
  echo "redis-server started on 127.0.0.1:$redis_port (pid $(redis_pid), AOF in $dir/redis)"
}

# Per node, the size of its log when this run started it (wait_node reads only what follows).
log_offset=()

start_node() {
  local i=$1 bootstrap=$2 api ops
  api=$(api_port "$i")
  ops=$(ops_port "$i")
  mkdir -p "$dir/node-$i"
  chmod 700 "$dir/node-$i"
  # Where this start's lines begin in the log, which keeps the lines of earlier starts.
  touch "$dir/logs/node-$i.log"
  log_offset[i]=$(wc -c <"$dir/logs/node-$i.log" | tr -d ' ')
  (
    cd "$ROOT"
    set -a
    # shellcheck source=/dev/null
    . "$dir/secrets.env"
    set +a
    export STORE=redis REDIS_URL="redis://127.0.0.1:$redis_port" HOST=127.0.0.1 PORT="$api" \
      METRICS_HOST=127.0.0.1 METRICS_PORT="$ops" DATA_DIR="$dir/node-$i" BOOTSTRAP_DEMO="$bootstrap"
    # Its own session: a Ctrl-C in this terminal later does not reach the nodes.
    exec setsid node dist/src/server/main.js </dev/null >>"$dir/logs/node-$i.log" 2>&1
  ) &
  echo $! >"$dir/node-$i.pid"
}

# Waits for node i's /readyz; shows the end of its log and fails when it does not become ready.
wait_node() {
  local i=$1 pid
  pid=$(<"$dir/node-$i.pid")
  if ! wait_ready "http://127.0.0.1:$(ops_port "$i")/readyz" "$pid" "$dir/logs/node-$i.log" "${log_offset[i]}"; then
    echo "node $i did not become ready within ${READY_TIMEOUT_S}s; last lines of $dir/logs/node-$i.log:" >&2
    tail -n 20 "$dir/logs/node-$i.log" >&2 || true
    exit 1
  fi
  echo "node $i ready (pid $pid, http://127.0.0.1:$(api_port "$i"))"
}

# Stops what this start launched when it fails halfway (a node that exits, a time-out).
started_here=0
on_exit() {
  local status=$?
  if [[ $status != 0 && $started_here == 1 ]]; then
    echo "Start failed: stopping what was started" >&2
    cmd_stop >&2 || true
  fi
}

cmd_start() {
  local i missing=()
  for ((i = 1; i <= NODES; i++)); do [[ -n "$(node_pid "$i")" ]] || missing+=("$i"); done
  if ((${#missing[@]} == 0)); then
    echo "The local cluster is already running:"
    cmd_status
    return
  fi
  for i in "${missing[@]}"; do
    if port_in_use "$(api_port "$i")" || port_in_use "$(ops_port "$i")"; then
      die "port $(api_port "$i") or $(ops_port "$i") is in use by another process: choose others with CLUSTER_API_PORT and CLUSTER_OPS_PORT"
    fi
  done

  bash "$ROOT/scripts/ensure-redis.sh" >/dev/null || die "redis-server is not available (scripts/ensure-redis.sh failed)"
  command -v curl >/dev/null 2>&1 || die "curl is needed to wait for the nodes"
  chmod 700 "$dir"
  mkdir -p "$dir/logs"
  printf 'REDIS_PORT=%s\nAPI_PORT=%s\nOPS_PORT=%s\nNODES=%s\n' "$redis_port" "$API_PORT_BASE" "$OPS_PORT_BASE" "$NODES" \
    >"$dir/cluster.env"
  ensure_secrets
  if [[ ! -f "$ROOT/dist/src/server/main.js" ]]; then
    echo "Building (dist/ is missing): npm run build"
    (cd "$ROOT" && npm run build --silent)
  fi

  # A failed first start stops everything; restarting missing nodes of a running cluster stops nothing else.
  ((${#missing[@]} < NODES)) || started_here=1
  trap on_exit EXIT
  start_redis
  # Node 1 starts alone: on an empty Redis it creates the demo organization (BOOTSTRAP_DEMO); the
  # others start after it, with BOOTSTRAP_DEMO=false, so that only one demo organization is made.
  # A missing node of a running cluster (stopped or crashed) is started again alone.
  local waves=("${missing[@]}")
  if [[ "${missing[0]}" == 1 ]]; then
    start_node 1 "$DEMO_ON_NODE_1"
    waves=("${missing[@]:1}")
    wait_node 1
  fi
  for i in "${waves[@]}"; do start_node "$i" false; done
  for i in "${waves[@]}"; do wait_node "$i"; done
  started_here=0

  cat <<EOF

Local cluster running (data in $dir):
  Redis      redis://127.0.0.1:$redis_port   (AOF, noeviction; log $dir/logs/redis.log)
EOF
  for ((i = 1; i <= NODES; i++)); do
    echo "  node $i     http://127.0.0.1:$(api_port "$i")/api/public/v1   ops http://127.0.0.1:$(ops_port "$i")/metrics  (log $dir/logs/node-$i.log)"
  done
  if [[ -f "$dir/node-1/bootstrap.json" ]]; then
    echo "  demo credentials: $dir/node-1/bootstrap.json  (try: DATA_DIR=$dir/node-1 GOV_URL=http://127.0.0.1:$(api_port "$NODES") npm run demo)"
  fi
  cat <<EOF

Admin CLI on this cluster (the same secrets as the nodes; DATA_DIR must exist):
  set -a; . $dir/secrets.env; set +a
  DATA_DIR=$dir/node-1 npm run -s admin -- --store redis --redis-url redis://127.0.0.1:$redis_port orgs list
Stop:   $0 stop$([[ "$dir" == "$ROOT/cluster-data" ]] || echo " --dir $dir")
EOF
}

case "$command_name" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  help) usage ;;
  *) die "unknown command: $command_name (start, stop, status)" ;;
esac
