#!/usr/bin/env bash
# Fuzzes every parser of outside input (the targets in fuzz/fuzz_targets),
# one target after another, each for EXECUTIONS inputs, on a scratch copy of
# its seeds (fuzz/seeds/TARGET); prints executions, seconds, exec/s and
# crashes per target, and exits 1 if any target crashed.
#
# Usage: bench/fuzz.sh [EXECUTIONS] [TARGET...]     (default 10000000, every target)
#
# Environment:
#   FUZZ_MAX_TIME   safety cap in seconds per target (default 3600): a target
#                   stops there even short of EXECUTIONS (then "short" is shown)
#   FUZZ_TIMEOUT    seconds one input may take before it counts as a crash (default 10)
#   FUZZ_RSS_MB     memory one target may use before it counts as a crash (default 2048)
#   FUZZ_KEEP       keep the grown corpora (their directory is printed) when set
#
# A crash leaves its input in fuzz/artifacts/TARGET/; reproduce it with
#   cargo +nightly fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-…
# and shrink it with `cargo +nightly fuzz tmin -s none TARGET fuzz/artifacts/TARGET/crash-…`.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000000}
shift || true
max_time=${FUZZ_MAX_TIME:-3600}
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}

# The longest input each target is given: enough for its format, small
# enough that every input runs fast.
declare -A max_len=(
    [heaps]=256 [nim_move]=64 [rules]=192 [save_file]=768 [gdl]=768
    [api_bodies]=384 [api_router]=256 [ggp_http]=1024
)
declare -A dict=(
    [rules]=rules [save_file]=json [gdl]=gdl [api_bodies]=json [api_router]=json [ggp_http]=ggp_http
)
# Targets that spend their time hashing (GDL's reasoner) run twice as fast
# without comparison tracing; they are built apart, in fuzz/target/fast.
declare -A fast=([gdl]=1)

if ! cargo fuzz --version > /dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz
fi
# Optimised, with debug assertions and overflow checks; no sanitizer (the
# code fuzzed is safe Rust, and ASan would halve the speed).
if [ $# -eq 0 ]; then
    set -- $(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build -s none
for target in "$@"; do
    if [ -n "${fast[$target]:-}" ]; then
        cargo +nightly fuzz build -s none --no-trace-compares --target-dir fuzz/target/fast "$target"
    fi
done
host=$(rustc +nightly -vV | sed -n 's/^host: //p')

scratch=$(mktemp -d)
if [ -n "${FUZZ_KEEP:-}" ]; then
    echo "corpora grown in $scratch" >&2
else
    trap 'rm -rf "$scratch"' EXIT
fi

status=0
results=()
for target in "$@"; do
    corpus=$scratch/$target
    mkdir -p "$corpus" "fuzz/artifacts/$target"
    cp fuzz/seeds/"$target"/* "$corpus"/ 2> /dev/null || true
    options=(-runs="$runs" -max_total_time="$max_time" -timeout="$timeout" -rss_limit_mb="$rss"
        -max_len="${max_len[$target]:-1024}" -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$target/")
    if [ -n "${dict[$target]:-}" ]; then
        options+=(-dict="fuzz/dicts/${dict[$target]}.dict")
    fi
    log=$scratch/$target.log
    echo "fuzzing $target ($runs executions at most, ${max_time} s at most)" >&2
    started=$(date +%s.%N)
    bin=fuzz/target/$host/release/$target
    if [ -n "${fast[$target]:-}" ]; then
        bin=fuzz/target/fast/$host/release/$target
    fi
    if "$bin" "${options[@]}" "$corpus" > "$log" 2>&1; then
        crashes=0
    else
        crashes=1
        status=1
        echo "--- $target crashed:" >&2
        grep -m 1 -A 6 -E 'panicked at|ERROR: libFuzzer|ALARM' "$log" >&2 || tail -n 20 "$log" >&2
        grep -E 'Test unit written to' "$log" >&2 || true
    fi
    ended=$(date +%s.%N)
    done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    done_runs=${done_runs:-0}
    short=$([ "$done_runs" -lt "$runs" ] && [ "$crashes" -eq 0 ] && echo '  short' || true)
    results+=("$(awk -v t="$target" -v n="$done_runs" -v a="$started" -v b="$ended" -v c="$crashes" -v s="$short" \
        'BEGIN { printf "%-12s %12d %9.0f %9.0f %8d%s", t, n, b - a, n / (b - a), c, s }')")
    echo "${results[-1]}" >&2
done

printf '%-12s %12s %9s %9s %8s\n' target executions seconds exec/s crashes
printf '%s\n' "${results[@]}"
exit "$status"
