#!/usr/bin/env bash
# What one `arena worker` costs per game, in figures that a loaded machine moves less
# than games per second: PostgreSQL's statements (pg_stat_statements) and their time,
# PostgreSQL's CPU, the worker's own CPU and the worker's with its bots. Each run is a
# fresh ladder of two built-in random bots in a schema of a throwaway cluster
# (.ci/postgres.sh, with pg_stat_statements loaded), `arena ladder serve` and one
# worker, stopped once it recorded GAMES games; the statistics start once blocks wait.
# The builds given run in turn, ROUNDS times at each -j of JOBS, so that they share the
# machine's moods.
#
#   deploy/workercost.sh DIR...        each DIR holds a built arena (go build -buildvcs=true
#                                      -o DIR/ ./cmd/arena ./cmd/arena-sandbox ./cmd/bots/...);
#                                      GAMES (600), JOBS ("1 2"), ROUNDS (4), SERVE (more
#                                      flags of ladder serve, e.g. "--blocks-per-job 1"),
#                                      and BREAKDOWN=1 to list the statements of each run
#
# Needs PostgreSQL's server (as .ci/postgres.sh does), psql and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: deploy/workercost.sh DIR..." >&2; exit 2; }
command -v psql >/dev/null || { echo "workercost.sh: needs psql (Debian's postgresql-client)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "workercost.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }
games=${GAMES:-600}
rounds=${ROUNDS:-4}
export PGOPTIONS="-c client_min_messages=warning"
pg=$(mktemp -d /tmp/arena-workercost-pg.XXXXXX)
work=$(mktemp -d /tmp/arena-workercost.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  .ci/postgres.sh stop "$pg" >/dev/null 2>&1 || true
  rm -rf "$pg" "$work"
}
trap cleanup EXIT
url=$(.ci/postgres.sh start "$pg")
psql -qAt "$url" -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'"
.ci/postgres.sh restart "$pg" >/dev/null
psql -qAt "$url" -c "CREATE EXTENSION pg_stat_statements"
tck=$(getconf CLK_TCK)

# ticks PID...: CPU ticks of the processes (utime + stime; with CHILDREN=1 also
# those of their reaped children).
ticks() {
  local t=0 f
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] || continue
    read -r -a f < <(sed 's/.*) //' "/proc/$p/stat")
    t=$((t + f[11] + f[12]))
    [ -n "${CHILDREN:-}" ] && t=$((t + f[13] + f[14]))
  done
  echo "$t"
}
postmaster=$(head -1 "$pg/data/postmaster.pid")
# The cluster's CPU: the postmaster with its reaped processes, and those alive.
pgticks() { echo $(($(CHILDREN=1 ticks "$postmaster") + $(ticks $(ps -o pid= --ppid "$postmaster")))); }
count() { psql -qAt "$url" -c "SELECT COUNT(*) FROM $1.$2"; }

run() { # run DIR JOBS N
  local arena=$1/arena j=$2 schema=wc_$3
  psql -qAt "$url" -c "CREATE SCHEMA $schema"
  local db="$url&search_path=$schema"
  "$arena" bot add random --db "$db" >/dev/null
  "$arena" bot add random --name random2 --db "$db" >/dev/null
  # shellcheck disable=SC2086 # SERVE is flags, split on purpose
  "$arena" ladder serve --db "$db" --game ivanhoe --addr 127.0.0.1:0 ${SERVE:-} >"$work/serve.log" 2>&1 &
  local co=$!
  pids+=("$co")
  until [ "$(psql -qAt "$url" -c "SELECT COUNT(*) FROM $schema.river_job WHERE state = 'available'" 2>/dev/null || echo 0)" -gt 0 ]; do sleep 0.05; done
  psql -qAt "$url" -c "SELECT pg_stat_statements_reset()" >/dev/null
  local p0 w worker
  p0=$(pgticks)
  /usr/bin/time -f "%U %S" -o "$work/time" "$arena" worker --db "$db" -j "$j" >"$work/worker.log" 2>&1 &
  w=$!
  pids+=("$w")
  until worker=$(ps -o pid= --ppid "$w" | head -1 | tr -d ' ') && [ -n "$worker" ]; do sleep 0.01; done
  until [ "$(count "$schema" matches)" -ge "$games" ]; do sleep 0.05; done
  local own n0
  own=$(ticks "$worker")
  n0=$(count "$schema" matches)
  kill -TERM "$worker"
  wait "$w" || true
  kill -TERM "$co"
  wait "$co" || true
  sleep 0.3 # the server's processes of the closed connections are reaped
  local p1 n stmts
  p1=$(pgticks)
  n=$(count "$schema" matches)
  stmts=$(psql -qAt "$url" -c "SELECT SUM(calls), SUM(total_exec_time) FROM pg_stat_statements
    WHERE query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE 'SELECT COUNT(*) FROM wc\_%'")
  read -r u s <"$work/time"
  awk -v dir="$1" -v j="$j" -v n="$n" -v n0="$n0" -v own="$own" -v u="$u" -v s="$s" -v pg=$((p1 - p0)) -v tck="$tck" -v st="$stmts" 'BEGIN {
    split(st, a, "|")
    printf "%s -j %d: %d games, worker %.2f ms/game, worker and bots %.2f ms/game, PostgreSQL %.2f ms/game, %.2f statements/game, %.3f ms statement time/game\n",
      dir, j, n, own * 1000 / tck / n0, (u + s) * 1000 / n, pg * 1000 / tck / n, a[1] / n, a[2] / n }'
  if [ -n "${BREAKDOWN:-}" ]; then
    psql -qAt "$url" -c "SELECT calls, round(total_exec_time::numeric, 1), left(regexp_replace(query, '\s+', ' ', 'g'), 90)
      FROM pg_stat_statements WHERE calls > 20 ORDER BY calls DESC"
  fi
  psql -qAt "$url" -c "DROP SCHEMA $schema CASCADE"
}

n=0
for _ in $(seq 1 "$rounds"); do
  for j in ${JOBS:-1 2}; do
    for dir in "$@"; do
      n=$((n + 1))
      run "$dir" "$j" "$n"
    done
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
