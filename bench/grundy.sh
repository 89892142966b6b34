#!/usr/bin/env bash
# The Sprague–Grundy engine's goals, timed end to end with /usr/bin/time:
#   - proving 0.1777 periodic (period 60,620,715, pre-period 160,949,018;
#     the proof needs the values up to n = 443,139,469);
#   - Grundy's game (4!.0) to 2^24 on one thread and on two;
#   - optionally Grundy's game to 2^28 (BIG=1), and Flammenkamp's ogsolve
#     on 0.1777 as the reference in the same run (OGSOLVE=path/to/ogsolve,
#     OGSOLVE_ARGS for its arguments).
# Each line gives wall time, CPU time (user + system, every thread) and the
# peak resident memory. The machine may be shared: the load average is
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
    SEQUENCE=target/release/examples/sequence
fi
bin=$SEQUENCE
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

measure() {
    local label=$1
    shift
    for _ in $(seq "$runs"); do
        local out
        out=$( { /usr/bin/time -f 'TIME %e %U %S %M' "$@" >/tmp/bouton-bench-grundy.out; } 2>&1 )
        local facts
        facts=$(grep -E '^(checksum|periodicity)' /tmp/bouton-bench-grundy.out | tr '\n' ' ' | cut -c1-150)
        echo "$out" | awk -v label="$label" -v facts="$facts" '/^TIME/ {
            printf "%-34s wall %7.1f s  cpu %7.1f s  peak %6.0f MB  %s\n", label, $2, $3 + $4, $5 / 1024, facts }'
    done
}

measure "0.1777 proved, 1 thread" env THREADS=1 "$bin" 0.1777 500000000 --prove
measure "0.1777 proved, 2 threads" env THREADS=2 "$bin" 0.1777 500000000 --prove
measure "Grundy's game to 2^24, 1 thread" env THREADS=1 "$bin" '4!.0' 16777216
measure "Grundy's game to 2^24, 2 threads" env THREADS=2 "$bin" '4!.0' 16777216
if [ -n "${BIG:-}" ]; then
    measure "Grundy's game to 2^28, 2 threads" env THREADS=2 "$bin" '4!.0' 268435456
fi
if [ -n "${OGSOLVE:-}" ]; then
    # shellcheck disable=SC2086
    measure "ogsolve 0.1777" "$OGSOLVE" ${OGSOLVE_ARGS:-0.1777}
fi
