#!/usr/bin/env bash
# Loads a release `bouton serve` on a fresh database with many concurrent
# games (every move durably stored before it is acknowledged), then measures
# the same server's static-file throughput as the reference.
# Usage: bench/serve-load.sh [CLIENTS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-64}
seconds=${2:-10}
cargo build --release --quiet
cargo build --release --quiet -p bouton-web --example load
dir=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf "$dir"' EXIT
# One client address makes every game here: no per-client rate limits.
RUST_LOG=warn target/release/bouton serve --addr 127.0.0.1:0 --db "$dir/load.sqlite3" --rate-limit off > "$dir/out" &
server=$!
for _ in $(seq 100); do grep -q http "$dir/out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.:]*' "$dir/out")
target/release/examples/load "$url" "$clients" "$seconds"
