#!/usr/bin/env bash
# Compiles every game of the public GGP repository (ggp-org/ggp-repository)
# with `bouton ggp check GAME --solve-time 0` and reports, one line per game,
# the wall time, the peak memory (maximum resident set), the CPU time (user
# plus system: less disturbed than the wall time by other work on a shared
# machine) and the result:
#
#   compiled      valid GDL, compiled
#   too large     valid GDL, grounding exceeded its limits
#   invalid GDL   our validator rejects the rules (what it found is kept in
#                 the log directory); whether it compiled is noted after it
#   timeout       still running after the timeout (60 s)
#   failed        anything else (a crash, out of memory), see the log
#
# then the totals: how many valid games compile within 10 s and 2 GB, and the
# games that do not — by the wall clock, and by CPU time (which other work on
# a shared machine disturbs far less: under a load of 6 on two cores a game
# can take ten times its CPU time).
#
# Usage: bench/ggp-compile-sweep.sh [--all] [FILTER]
#   --all     also the older versions (games/*/v*/) and the disabled games;
#             by default only each game's current rule sheet
#             (games/NAME/NAME.kif or whatever sits at games/NAME/*.kif).
#   FILTER    only the games whose path contains FILTER (a grep pattern).
#
# Environment:
#   GGP_REPOSITORY  the repository: a bare git directory or a checkout
#                   (default /work/.mirror/ggp-org+ggp-repository/repo)
#   BOUTON          the binary to measure (default: this tree's release build,
#                   built first, in CARGO_TARGET_DIR if set)
#   TIMEOUT         seconds per game (default 60)
#   MEMORY_MB       address-space limit per run, so that a runaway game cannot
#                   take the machine down (default 8192; 0 for none)
#   LOGS            where each game's output is kept (default a temp dir)
#
# Runs are sequential: on a shared machine the times include what the other
# work takes from the cores; the load average is printed first.
set -euo pipefail
cd "$(dirname "$0")/.."

all=0
filter=""
for arg in "$@"; do
    case "$arg" in
        --all) all=1 ;;
        -h | --help)
            sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) filter="$arg" ;;
    esac
done

repo=${GGP_REPOSITORY:-/work/.mirror/ggp-org+ggp-repository/repo}
timeout_s=${TIMEOUT:-60}
memory_mb=${MEMORY_MB:-8192}
if [ -z "${BOUTON:-}" ]; then
    cargo build --release --quiet
    BOUTON=${CARGO_TARGET_DIR:-target}/release/bouton
fi
BOUTON=$(realpath "$BOUTON")

work=$(mktemp -d "${TMPDIR:-/tmp}/ggp-sweep.XXXXXX")
logs=${LOGS:-$work/logs}
mkdir -p "$logs"
trap 'rm -rf "$work/games"' EXIT

# The list of rule sheets, and their text in $work/games/.
if [ -d "$repo/.git" ]; then
    git_dir="$repo/.git"
else
    git_dir="$repo"
fi
git --git-dir="$git_dir" ls-tree -r --name-only HEAD | grep '\.kif$' | grep '/games/' >"$work/all.txt" || true
if [ "$all" = 1 ]; then
    cp "$work/all.txt" "$work/list.txt"
else
    grep -v '/disabled_games/' "$work/all.txt" | grep -Ev '/games/[^/]+/v[0-9]+/' >"$work/list.txt" || true
fi
if [ -n "$filter" ]; then
    grep -- "$filter" "$work/list.txt" >"$work/filtered.txt" || true
    mv "$work/filtered.txt" "$work/list.txt"
fi
count=$(wc -l <"$work/list.txt")
if [ "$count" = 0 ]; then
    echo "no rule sheets found in $repo" >&2
    exit 1
fi
mkdir -p "$work/games"

echo "$count rule sheets from $repo; binary $BOUTON"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); timeout ${timeout_s} s; logs in $logs"
printf '%-40s %8s %8s %8s  %s\n' game seconds peak_MB cpu_s result

ok=0
ok_cpu=0
valid=0
declare -a misses=()
declare -a misses_cpu=()
declare -A tally=()
while IFS= read -r path; do
    # A readable name: games/NAME/NAME.kif is NAME, games/NAME/v1/NAME.kif NAME/v1.
    rel=${path#*games/}
    name=${rel%.kif}
    dir=${rel%/*}
    base=${name##*/}
    if [ "$dir" = "$base" ]; then
        name=$base
    else
        name=$dir
    fi
    case "$path" in
        */disabled_games/*) name="disabled/$name" ;;
    esac
    file="$work/games/${name//\//_}.kif"
    git --git-dir="$git_dir" show "HEAD:$path" >"$file"
    log="$logs/${name//\//_}.log"
    set +e
    (
        if [ "$memory_mb" != 0 ]; then ulimit -v $((memory_mb * 1024)); fi
        /usr/bin/time -o "$work/time.txt" -f '%e %M %U %S' timeout -k 5 "$timeout_s" \
            "$BOUTON" ggp check "$file" --solve-time 0 >"$log" 2>&1
    )
    code=$?
    set -e
    # /usr/bin/time writes "Command exited with non-zero status N" (or
    # "terminated by signal") before its figures.
    read -r secs kb user sys < <(tail -n 1 "$work/time.txt") || true
    [[ "${secs:-}" =~ ^[0-9.]+$ ]] || secs=0
    [[ "${kb:-}" =~ ^[0-9]+$ ]] || kb=0
    cpu=$(awk -v u="${user:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.2f", u + s }')
    mb=$((kb / 1024))
    compiled=0
    grep -q '^compiled in ' "$log" && compiled=1
    if grep -q ': invalid GDL (' "$log"; then
        if [ "$compiled" = 1 ]; then result="invalid GDL (compiles)"; else result="invalid GDL"; fi
    elif [ "$code" = 137 ] || [ "$code" = 124 ] || awk -v s="$secs" -v t="$timeout_s" 'BEGIN { exit !(s >= t) }'; then
        result="timeout"
    elif grep -q 'too large to compile' "$log"; then
        result="too large"
    elif [ "$compiled" = 1 ] && [ "$code" = 0 ]; then
        result="compiled"
    else
        result="failed (exit $code)"
    fi
    case "$result" in
        "invalid GDL"*) ;;
        *)
            valid=$((valid + 1))
            row=$(printf '%-40s %8s %8s %8s  %s' "$name" "$secs" "$mb" "$cpu" "$result")
            if [ "$result" = compiled ] && awk -v s="$secs" -v m="$mb" 'BEGIN { exit !(s <= 10 && m <= 2048) }'; then
                ok=$((ok + 1))
            else
                misses+=("$row")
            fi
            if [ "$result" = compiled ] && awk -v s="$cpu" -v m="$mb" 'BEGIN { exit !(s <= 10 && m <= 2048) }'; then
                ok_cpu=$((ok_cpu + 1))
            else
                misses_cpu+=("$row")
            fi
            ;;
    esac
    key=${result%% (*}
    tally[$key]=$((${tally[$key]:-0} + 1))
    printf '%-40s %8s %8s %8s  %s\n' "$name" "$secs" "$mb" "$cpu" "$result"
done <"$work/list.txt"

echo
echo "totals: $count rule sheets;$(for k in "${!tally[@]}"; do printf ' %s %s;' "${tally[$k]}" "$k"; done)"
echo "valid GDL: $valid; compiled within 10 s and 2 GB: $ok of $valid; within 10 s of CPU time and 2 GB: $ok_cpu of $valid"
echo "load average now $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${#misses[@]}" -gt 0 ]; then
    echo "valid games that do not compile within 10 s and 2 GB:"
    printf '  %s\n' "${misses[@]}"
fi
if [ "${#misses_cpu[@]}" -gt 0 ]; then
    echo "valid games that do not compile within 10 s of CPU time and 2 GB:"
    printf '  %s\n' "${misses_cpu[@]}"
fi
