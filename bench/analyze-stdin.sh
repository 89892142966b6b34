#!/usr/bin/env bash
# Measures `bouton analyze -` end to end on many random u64 heaps read from
# standard input, next to `wc -c` and `cat` over the same file as references
# for just reading the bytes. Usage: bench/analyze-stdin.sh [HEAPS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
heaps=${1:-10000000}
runs=${2:-3}
input=${TMPDIR:-/tmp}/bouton-bench-$heaps.txt

cargo build --release --quiet
bin=target/release/bouton

if [ ! -s "$input" ]; then
    python3 - "$heaps" "$input" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(1)
with open(path, "w") as f:
    chunk = 100_000
    for start in range(0, n, chunk):
        f.write("\n".join(str(rng.getrandbits(64)) for _ in range(min(chunk, n - start))))
        f.write("\n")
PY
fi
size=$(stat -c %s "$input")
echo "input: $heaps random u64 heaps, $((size / 1000000)) MB ($input)"

best() { # best wall time in seconds over $runs runs of "$@"
    local best=""
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        best=$(python3 -c "import sys; t=$end-$start; b='$best'; print(min(t, float(b)) if b else t)")
    done
    printf '%.3f' "$best"
}

t_cat=$(best sh -c "cat '$input'")
t_text=$(best sh -c "'$bin' analyze - < '$input'")
t_json=$(best sh -c "'$bin' analyze --json - < '$input'")
mbps() { python3 -c "print(f'{$size / $1 / 1e6:.0f}')"; }
echo "| what | best of $runs (s) | input MB/s |"
echo "|---|---|---|"
echo "| cat (reading the file) | $t_cat | $(mbps "$t_cat") |"
echo "| bouton analyze - (text) | $t_text | $(mbps "$t_text") |"
echo "| bouton analyze --json - | $t_json | $(mbps "$t_json") |"
