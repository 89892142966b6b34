#!/usr/bin/env bash
# Loads release `bouton serve` instances on a fresh database with many
# concurrent games (every move durably stored before it is acknowledged),
# then measures the same servers' static-file throughput as the reference.
# Usage: bench/serve-load.sh [CLIENTS] [SECONDS] [INSTANCES] [sqlite|postgres]   (default 64 10 1 sqlite)
# With INSTANCES > 1 (PostgreSQL only: instances share its database) the
# clients are spread over the instances, and a probe measures how long a
# move posted to the first takes to reach a watcher of the second.
# PostgreSQL is a throw-away server from Debian's packages (durable
# settings: fsync and synchronous_commit on), run as the postgres user
# when run as root.
# Binaries come from CARGO_TARGET_DIR (default target/). SERVER=PATH
# measures another `bouton` binary (say, an older commit's build) with the
# same client, for runs back to back; SKIP_BUILD=1 builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-64}
seconds=${2:-10}
instances=${3:-1}
backend=${4:-sqlite}
if [ "$instances" -gt 1 ] && [ "$backend" != postgres ]; then
    echo "serve-load: several instances share a PostgreSQL database: add 'postgres'" >&2
    exit 2
fi
target=${CARGO_TARGET_DIR:-target}
if [ -z "${SKIP_BUILD:-}" ]; then
    cargo build --release --quiet -p bouton --bin bouton -p bouton-web --example load
fi
binary=${SERVER:-$target/release/bouton}
dir=$(mktemp -d)
chmod 755 "$dir"
servers=()
pg_stop=:
cleanup() {
    for server in "${servers[@]}"; do kill "$server" 2>/dev/null || true; done
    $pg_stop
    rm -rf "$dir"
}
trap cleanup EXIT
if [ "$backend" = postgres ]; then
    pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    as_pg=()
    if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); fi
    mkdir "$dir/pg"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/pg"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${as_pg[@]}" "$pgbin/initdb" -D "$dir/pg/data" -A trust -U postgres -E UTF8 --locale C >/dev/null
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w \
        -o "-p $port -k $dir/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
    pg_stop="${as_pg[*]} $pgbin/pg_ctl -D $dir/pg/data -m fast stop"
    "${as_pg[@]}" "$pgbin/createdb" -h 127.0.0.1 -p "$port" -U postgres bench
    db="postgres://postgres@127.0.0.1:$port/bench"
else
    db="$dir/load.sqlite3"
fi
urls=()
for i in $(seq "$instances"); do
    # One client address makes every game here: no per-client rate limits.
    RUST_LOG=warn "$binary" serve --addr 127.0.0.1:0 --db "$db" --rate-limit off > "$dir/out$i" &
    servers+=($!)
    for _ in $(seq 100); do grep -q http "$dir/out$i" 2>/dev/null && break; sleep 0.1; done
    urls+=("$(grep -o 'http://[0-9.:]*' "$dir/out$i")")
done
# The processes whose CPU the moves cost: the servers, and PostgreSQL's
# (the postmaster and its children, connections included).
db_pids=""
if [ "$backend" = postgres ]; then
    postmaster=$(head -1 "$dir/pg/data/postmaster.pid")
    db_pids="$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"
fi
BENCH_PIDS="${servers[*]}" BENCH_DB_PIDS="$db_pids" "$target/release/examples/load" "$(IFS=,; echo "${urls[*]}")" "$clients" "$seconds"
