#!/usr/bin/env bash
# Measures `bouton analyze -` end to end on many random u64 heaps read from
# standard input, next to references that only move the same bytes: `cat`
# of the file (reading it from the page cache) and `cat | cat` (passing it
# through a pipe). Each command runs RUNS times, interleaved; the table gives
# the fastest, median and slowest wall time, and the median CPU time (user
# plus system, all processes and threads of the command), which other work
# on a shared machine disturbs less.
#
# Usage: bench/analyze-stdin.sh [HEAPS] [RUNS]
# BOUTON=path/to/bouton measures that binary (say, a build of an older
# commit) instead of building this tree's.
#
# The machine may be shared: the load average at the start is printed, and
# the fastest run is the figure least disturbed by other work.
set -euo pipefail
cd "$(dirname "$0")/.."
heaps=${1:-10000000}
runs=${2:-5}
input=${TMPDIR:-/tmp}/bouton-bench-$heaps.txt

if [ -z "${BOUTON:-}" ]; then
    cargo build --release --quiet
    BOUTON=target/release/bouton
fi

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
echo "input: $heaps random u64 heaps, $((size / 1000000)) MB ($input); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $BOUTON"

python3 - "$runs" "$size" "$input" "$BOUTON" <<'PY'
import resource, shlex, statistics, subprocess, sys, time

runs, size, path, bouton = int(sys.argv[1]), int(sys.argv[2]), shlex.quote(sys.argv[3]), shlex.quote(sys.argv[4])
commands = [
    ("`cat FILE > /dev/null` (reading the file)", f"cat {path}"),
    ("`cat FILE \\| cat > /dev/null` (through a pipe)", f"cat {path} | cat"),
    ("`bouton analyze - < FILE` (text)", f"{bouton} analyze - < {path}"),
    ("`bouton analyze --json - < FILE`", f"{bouton} analyze --json - < {path}"),
    ("`cat FILE \\| bouton analyze -` (text)", f"cat {path} | {bouton} analyze -"),
]
times = {name: [] for name, _ in commands}
cpu = {name: [] for name, _ in commands}
subprocess.run(f"cat {path}", shell=True, stdout=subprocess.DEVNULL, check=True)  # into the page cache
for _ in range(runs):
    for name, command in commands:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
print(f"| command | wall, fastest of {runs} (s) | median (s) | slowest (s) | input MB/s (fastest) | CPU, median (s) |")
print("|---|---|---|---|---|---|")
for name, _ in commands:
    t = times[name]
    print(
        f"| {name} | {min(t):.3f} | {statistics.median(t):.3f} | {max(t):.3f} | {size / min(t) / 1e6:.0f}"
        f" | {statistics.median(cpu[name]):.3f} |"
    )
PY
