#!/usr/bin/env bash
# The Sprague–Grundy engine's goals, timed end to end with /usr/bin/time:
#   - proving 0.1777 periodic (period 60,620,715, pre-period 160,949,018;
#     the proof needs the values up to n = 443,139,469);
#   - Grundy's game (4!.0) to 2^24 on one thread and on two;
#   - optionally Grundy's game to 2^28 (BIG=1), and Flammenkamp's ogsolve
#     on 0.1777 as the reference in the same run (OGSOLVE=path/to/ogsolve,
#     OGSOLVE_ARGS for its arguments). GRUNDY_ONLY=1 leaves out 0.1777.
# Each line gives wall time, CPU time (user + system, every thread), for
# Grundy's game the CPU time per million values, and the peak resident
# memory. The machine may be shared: the load average is
# printed first, and the CPU time is the figure least disturbed by other
# work (wall time on two threads needs two idle cores to mean anything).
#
# Usage: bench/grundy.sh [RUNS]
# SEQUENCE=path/to/sequence times that build of the example instead of
# building this tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
if [ -z "${SEQUENCE:-}" ]; then
    cargo build --release --quiet -p bouton-grundy --example sequence
    SEQUENCE=${CARGO_TARGET_DIR:-target}/release/examples/sequence
fi
bin=$SEQUENCE
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# measure LABEL VALUES COMMAND…: VALUES (0: none) gives the CPU per million.
measure() {
    local label=$1 values=$2
    shift 2
    for _ in $(seq "$runs"); do
        local out
        # A wrong checksum (the example checks the known ones) fails the run.
        if ! out=$( { /usr/bin/time -f 'TIME %e %U %S %M' "$@" >/tmp/bouton-bench-grundy.out; } 2>&1 ); then
            echo "$label: FAILED: $out"
            exit 1
        fi
        local facts
        facts=$(grep -E '^(checksum|periodicity)' /tmp/bouton-bench-grundy.out | tr '\n' ' ' | cut -c1-240 || true)
        echo "$out" | awk -v label="$label" -v values="$values" -v facts="$facts" '/^TIME/ {
            per = values > 0 ? sprintf("  cpu %.2f s per million values", ($3 + $4) * 1e6 / values) : ""
            printf "%-34s wall %7.1f s  cpu %7.1f s%s  peak %6.0f MB  %s\n", label, $2, $3 + $4, per, $5 / 1024, facts }'
    done
}

if [ -z "${GRUNDY_ONLY:-}" ]; then
    measure "0.1777 proved, 1 thread" 0 env THREADS=1 "$bin" 0.1777 500000000 --prove
    measure "0.1777 proved, 2 threads" 0 env THREADS=2 "$bin" 0.1777 500000000 --prove
fi
measure "Grundy's game to 2^24, 1 thread" 16777217 env THREADS=1 "$bin" '4!.0' 16777216
measure "Grundy's game to 2^24, 2 threads" 16777217 env THREADS=2 "$bin" '4!.0' 16777216
if [ -n "${BIG:-}" ]; then
    measure "Grundy's game to 2^28, 2 threads" 268435457 env THREADS=2 "$bin" '4!.0' 268435456
fi
if [ -n "${OGSOLVE:-}" ]; then
    # shellcheck disable=SC2086
    measure "ogsolve 0.1777" 0 "$OGSOLVE" ${OGSOLVE_ARGS:-0.1777}
fi
