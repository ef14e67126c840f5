#!/usr/bin/env bash
# The shared ladder's scale on this machine: games per second, the CPU of the
# coordinator, of the workers (with their bots) and of PostgreSQL, and PostgreSQL's
# transactions per game, with 1, 2 and 4 worker processes (-j 1 each) playing built-in
# random bots against each other, so that the arena's own cost shows. Each row runs a
# fresh ladder on a throwaway cluster (.ci/postgres.sh): a warm-up, then SECONDS
# measured.
#
#   deploy/scale.sh [SECONDS]          default 30; WARM (10), DEPTH (8), WORKERS ("1 2 4"),
#                                      JOBS (1: each worker's -j; "1 2 4" for a row each),
#                                      IDLE (1; 0 skips the idle row), ARENA (a
#                                      built arena to measure instead of this tree's)
#
# Needs Go, PostgreSQL's server (as .ci/postgres.sh does) and psql. Other processes use
# the CPU too: the load average is printed with each row.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v psql >/dev/null || { echo "scale.sh: needs psql (Debian's postgresql-client)" >&2; exit 1; }
secs=${1:-30}
warm=${WARM:-10}
depth=${DEPTH:-8}
counts=${WORKERS:-1 2 4}
jobs=${JOBS:-1}
work=$(mktemp -d /tmp/arena-scale.XXXXXX)
pg=$(mktemp -d /tmp/arena-scale-pg.XXXXXX) # its own: the server may run as another user
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  .ci/postgres.sh stop "$pg" || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${ARENA:-}" ]; then cp "$ARENA" "$work/arena"; else go build -o "$work/arena" ./cmd/arena; fi
url=$(.ci/postgres.sh start "$pg")
tck=$(getconf CLK_TCK)

# ticks of CPU (user and system) of the pids; with children, also of their reaped
# children (a worker's bots).
ticks() {
  local fields=$1 t=0 p
  shift
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] || continue
    # The command name (field 2) may hold spaces: count fields after its ")".
    t=$((t + $(sed 's/.*) //' "/proc/$p/stat" | awk -v f="$fields" '{s = $12 + $13; if (f == "children") s += $14 + $15; print s}')))
  done
  echo "$t"
}
pg_pids() {
  local main
  main=$(head -1 "$pg/data/postmaster.pid")
  echo "$main" $(pgrep -P "$main" || true)
}
sql() { psql -qAt "$url" -c "$1"; }
xacts() { sql "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"; }

# The fixed cost: a coordinator and 4 workers with no bots to play (River's polling
# and upkeep, heartbeats, the coordinator's ticks).
if [ "${IDLE:-1}" != 0 ]; then
sql "CREATE SCHEMA idle"
"$work/arena" ladder serve --db "$url&search_path=idle" --game ivanhoe --addr 127.0.0.1:0 >"$work/idle.log" 2>&1 &
idle=($!)
for _ in 1 2 3 4; do
  "$work/arena" worker --db "$url&search_path=idle" -j 1 >>"$work/idle.log" 2>&1 &
  idle+=($!)
done
pids+=("${idle[@]}")
sleep "$warm"
x0=$(xacts)
sleep "$secs"
x1=$(xacts)
for p in "${idle[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
for p in "${idle[@]}"; do wait "$p" 2>/dev/null || true; done
awk -v x=$((x1 - x0)) -v s="$secs" 'BEGIN { printf "idle: %.1f transactions/s (a coordinator and 4 workers, nothing to play)\n", x / s }'
fi

printf '%-8s %4s %8s %8s %12s %12s %12s %9s %6s\n' workers -j games 'games/s' 'coord CPU' 'workers CPU' 'pg CPU' 'tx/game' load
for n in $counts; do
for j in $jobs; do
  schema=scale${n}_$j
  sql "CREATE SCHEMA $schema"
  db="$url&search_path=$schema"
  "$work/arena" bot add random --db "$db" >/dev/null
  "$work/arena" bot add random --name random2 --db "$db" >/dev/null
  "$work/arena" ladder serve --db "$db" --game ivanhoe --addr 127.0.0.1:0 --queue-depth "$depth" >"$work/coord-$n-$j.log" 2>&1 &
  coord=$!
  pids+=("$coord")
  workers=()
  for i in $(seq 1 "$n"); do
    "$work/arena" worker --db "$db" -j "$j" >"$work/worker-$n-$j-$i.log" 2>&1 &
    workers+=($!)
    pids+=($!)
  done
  sleep "$warm"
  g0=$(sql "SELECT COUNT(*) FROM $schema.matches"); x0=$(xacts)
  c0=$(ticks self "$coord"); w0=$(ticks children "${workers[@]}"); p0=$(ticks self $(pg_pids))
  sleep "$secs"
  g1=$(sql "SELECT COUNT(*) FROM $schema.matches"); x1=$(xacts)
  c1=$(ticks self "$coord"); w1=$(ticks children "${workers[@]}"); p1=$(ticks self $(pg_pids))
  load=$(cut -d' ' -f1 /proc/loadavg)
  games=$((g1 - g0))
  awk -v n="$n" -v j="$j" -v g="$games" -v s="$secs" -v c=$((c1 - c0)) -v w=$((w1 - w0)) -v p=$((p1 - p0)) -v x=$((x1 - x0)) -v t="$tck" -v l="$load" \
    'BEGIN { printf "%-8d %4d %8d %8.1f %11.1f%% %11.1f%% %11.1f%% %9.1f %6s\n", n, j, g, g / s, 100 * c / t / s, 100 * w / t / s, 100 * p / t / s, (g ? x / g : 0), l }'
  for p in "${workers[@]}" "$coord"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${workers[@]}" "$coord"; do wait "$p" 2>/dev/null || true; done
done
done
echo "CPU: % of one core over the measured ${secs} s; workers include their bots; pg is every server process of the cluster."
echo "tx/game: PostgreSQL transactions (committed and rolled back, every client) per game recorded."
