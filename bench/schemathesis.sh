#!/usr/bin/env bash
# Checks the API against its document: schemathesis, with every check (see
# bench/schemathesis.toml), against /api/openapi.json of a real release-built
# server on a free loopback port with a temporary database, stateful runs
# included (the seat token flows from POST /api/games to the moves through
# the document's links).
#
#   bench/schemathesis.sh [MAX_EXAMPLES] [SCHEMATHESIS OPTIONS...]
#
# MAX_EXAMPLES (default 100) bounds the cases per operation and phase; the
# seed is fixed (SEED, default 1), and the whole run is cut at TIME_LIMIT
# seconds (default 600). Exits 0 when schemathesis finds nothing; the server
# is stopped and the database removed whatever happens. Needs schemathesis in
# python3 (pip install schemathesis==4.32.5, the version the document was
# checked with) and builds the release binary unless BOUTON names one.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

max_examples=${1:-100}
shift || true
seed=${SEED:-1}
time_limit=${TIME_LIMIT:-600}

if [[ -z ${BOUTON:-} ]]; then
    cargo build --release --quiet --bin bouton
    BOUTON=$repo/target/release/bouton
fi
schemathesis=(python3 -m schemathesis.cli)
"${schemathesis[@]}" --version

work=$(mktemp -d)
server=
cleanup() {
    if [[ -n $server ]]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# Rate limits far above what the run asks, so nothing is throttled (429 is
# documented all the same, and tested in crates/web/tests/openapi.rs).
"$BOUTON" serve --addr 127.0.0.1:0 --db "$work/bouton.sqlite3" \
    --rate-limit games=1000/s,analyses=1000/s >"$work/server.log" 2>&1 &
server=$!
base=
for _ in $(seq 100); do
    base=$(sed -n 's|.*serving the game at \(http://[^/]*\)/.*|\1|p' "$work/server.log")
    [[ -n $base ]] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done
[[ -n $base ]] || { echo "the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
echo "server: $base (database in $work)"

# Run from the temporary directory: schemathesis writes nothing into the
# repository.
status=0
(cd "$work" && timeout --kill-after=10 "$time_limit" "${schemathesis[@]}" --config-file "$repo/bench/schemathesis.toml" \
    run "$base/api/openapi.json" --max-examples "$max_examples" --seed "$seed" --workers 1 --no-color \
    --wait-for-schema 10 "$@") || status=$?
if [[ $status -eq 124 || $status -eq 137 ]]; then
    echo "schemathesis did not finish within $time_limit s" >&2
fi
if ! kill -0 "$server" 2>/dev/null; then
    echo "the server stopped during the run:" >&2
    cat "$work/server.log" >&2
    status=1
fi
exit "$status"
