#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, on loopback, owned by an unprivileged
# user, everything (data, socket, log) in one directory that `stop` removes.
#
#   .ci/postgres.sh start DIR   initdb into DIR, start on a free port, print the URL
#   .ci/postgres.sh stop DIR    stop the cluster and remove DIR
#   .ci/postgres.sh restart DIR stop the server at once (as a crash would) and start it
#                               again on the same port and data (the queue's fault test)
#
#   url=$(.ci/postgres.sh start "$(mktemp -d)") && ARENA_TEST_POSTGRES=$url go test ./ladder/store/
#
# Run as root it runs the server as the `postgres` user (Debian's package creates it);
# run as anyone else it runs as that user. Several clusters can run at once: each gets
# its own directory and port.
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "postgres.sh: no PostgreSQL server found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

cmd=${1:-}
dir=${2:-}
if [ -z "$dir" ] || { [ "$cmd" != start ] && [ "$cmd" != stop ] && [ "$cmd" != restart ]; }; then
  echo "usage: $0 start|stop|restart DIR" >&2
  exit 2
fi

case "$cmd" in
start)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  chmod 700 "$dir"
  as_owner "$bindir/initdb" -D "$dir/data" -U arena --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  # No fixed port: try random ones in the dynamic range until the server starts (a
  # port taken by someone else makes it fail at once).
  for _ in $(seq 1 20); do
    port=$((20000 + RANDOM % 40000))
    if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
      -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off -c max_connections=200" >/dev/null 2>&1; then
      echo "$port" >"$dir/port"
      echo "postgres://arena@127.0.0.1:$port/postgres?sslmode=disable"
      exit 0
    fi
  done
  echo "postgres.sh: the server did not start; its log:" >&2
  cat "$dir/server.log" >&2 || true
  exit 1
  ;;
restart)
  port=$(cat "$dir/port")
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off -c max_connections=200" >/dev/null
  ;;
stop)
  if [ -d "$dir/data" ]; then
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
esac
