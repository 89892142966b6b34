#!/usr/bin/env bash
# Hostile-input benchmark (issue 9): drives the release binary and real
# `bouton serve` processes on 127.0.0.1 (fresh databases) as a hostile user
# would, and checks the goals:
#   - every request answered (an answer or "not available") within 2 s;
#   - the server's peak memory at most 512 MB throughout;
#   - a normal move's p99 under 20 ms while the attacks run;
#   - 2,000 idle watchers of other games costing less than 10 % of moves/s.
# Cases: every rule set, normal and misère, at the largest start the limits
# allow, through every route that computes (crates/web/examples/hostile.rs
# sweep) and through `bouton analyze --rules` with the issue's own positions;
# connection attacks beside a steady load of moves (hostile.rs attacks); a
# flood of games from one client against the default rate limits.
# Every loop is bounded; everything started here is stopped on exit.
# Usage: bench/hostile.sh [--quick]     (about five minutes; --quick: smaller counts, a minute or so)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=
case ${1:-} in
  --quick) quick=--quick ;;
  "") ;;
  *) echo "usage: bench/hostile.sh [--quick]" >&2; exit 2 ;;
esac
limit_mb=512
goal_s=2
cli_goal_s=2.5

# Thousands of client connections: raise this shell's descriptor limit.
hard=$(ulimit -Hn)
[[ $hard == unlimited ]] && hard=65536
ulimit -Sn "$hard"

cargo build --release --quiet
cargo build --release --quiet -p bouton-web --example hostile
bouton=target/release/bouton
hostile=target/release/examples/hostile

dir=$(mktemp -d)
children=()
cleanup() {
  for pid in "${children[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME [SERVE OPTIONS]: a server on a free port, its soft descriptor
# limit at the usual 1,024 (it raises it itself), and a sampler of its memory
# every 0.2 s. Sets url and pid.
start() {
  local name=$1
  shift
  (ulimit -Sn 1024 && RUST_LOG=warn exec "$bouton" serve --addr 127.0.0.1:0 --db "$dir/$name.sqlite3" "$@") \
    > "$dir/$name.out" 2>&1 &
  pid=$!
  children+=("$pid")
  for _ in $(seq 100); do grep -q http "$dir/$name.out" 2>/dev/null && break; sleep 0.1; done
  url=$(grep -o 'http://[0-9.:]*' "$dir/$name.out")
  (
    for _ in $(seq 36000); do # at most two hours
      status=$(cat "/proc/$pid/status" 2>/dev/null) || break
      echo "$(date +%s.%N) $(awk '/^VmRSS/ {r = $2} /^VmHWM/ {h = $2} END {print r, h}' <<< "$status")"
      sleep 0.2
    done
  ) > "$dir/$name.mem" &
  children+=("$!")
  echo "server $name: pid $pid at $url, options: ${*:-none}; started with a soft limit of 1,024 open files, now $(awk '/open files/ {print $4 " soft, " $5 " hard"}' "/proc/$pid/limits")"
}

# peak NAME: the server's peak resident memory in MB (VmHWM, or the last sample if it is gone).
peak() {
  awk 'END {printf "%.0f", $3 / 1024}' "$dir/$1.mem"
}

# alive PID: yes or no.
alive() {
  if kill -0 "$1" 2>/dev/null; then echo yes; else echo no; fi
}

# result NAME KEY: a value of the `RESULT NAME ...` line of the log.
result() {
  grep "^RESULT $1 " "$dir/log" | tail -1 | tr ' ' '\n' | sed -n "s/^$2=//p" | tr -d '"'
}

echo "# bouton hostile-input benchmark ${quick:+(quick)}"
echo
if commit=$(git rev-parse --short HEAD 2>/dev/null); then
  git diff --quiet HEAD -- crates src Cargo.toml Cargo.lock || commit+=" with uncommitted changes"
else
  commit="(not a git checkout)"
fi
echo "$(date -u +%Y-%m-%d) · commit $commit · $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
start a --rate-limit off
server_a=$pid url_a=$url

echo
echo "## 1. Every rule set at the largest start, through the API"
echo
"$hostile" sweep "$url_a" "$server_a" $quick | tee -a "$dir/log" || echo "(the client stopped: exit $?)"

echo
echo "## 1. The command line: analyze --rules"
echo
if [[ -x /usr/bin/time ]]; then timer=/usr/bin/time; else timer=; fi
# cli ARGS...: one analysis, its time, exit code and peak memory.
cli_rows=0 cli_late=0 cli_slowest=0 cli_largest=0 cli_crashed=0
cli() {
  local started=$EPOCHREALTIME code=0 kb=0 seconds
  if [[ -n $timer ]]; then
    $timer -f '%M' -o "$dir/time" timeout 60 "$bouton" analyze --plain "$@" > "$dir/cli.out" 2>&1 || code=$?
    kb=$(tail -1 "$dir/time")
  else
    timeout 60 "$bouton" analyze --plain "$@" > "$dir/cli.out" 2>&1 &
    local child=$!
    while kill -0 "$child" 2>/dev/null; do
      kb=$(awk -v k="$kb" '/^VmHWM/ {k = $2} END {print k}' "/proc/$child/status" 2>/dev/null || echo "$kb")
      sleep 0.02
    done
    wait "$child" || code=$?
  fi
  seconds=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f", b - a}')
  local mb=$(( kb / 1024 ))
  local said
  said=$(grep -m1 -E '^(Winner with perfect play|bouton:)' "$dir/cli.out" | cut -c1-110 || true)
  [[ -z $said ]] && said=$(head -c 110 "$dir/cli.out" | head -1)
  local shown="$*"
  [[ ${#shown} -gt 70 ]] && shown="${shown:0:67}…"
  echo "| \`$shown\` | $seconds s | $code | $mb MB | ${said//|/\\|} |"
  cli_rows=$((cli_rows + 1))
  awk -v s="$seconds" -v g="$cli_goal_s" 'BEGIN {exit !(s > g)}' && cli_late=$((cli_late + 1))
  awk -v s="$seconds" -v m="$cli_slowest" 'BEGIN {exit !(s > m)}' && cli_slowest=$seconds
  (( mb > cli_largest )) && cli_largest=$mb
  (( code != 0 && code != 1 )) && cli_crashed=$((cli_crashed + 1))
  return 0
}
echo "| bouton analyze | time | exit | peak memory | says |"
echo "|---|---|---|---|---|"
cli --rules moore:1 1000 999
cli --rules moore:2 1000 1000 1000
cli --rules moore:8 $(seq -s ' ' 10)
for rules in kayles octal:0.15 octal:0.75; do cli --rules "$rules" --misere 1000 2345 77777; done
"$hostile" starts "$url_a" "$server_a" > "$dir/starts"
while read -r rules start; do
  [[ -n $quick && $rules != lasker && $rules != grundy && $rules != moore:8 && $rules != kayles ]] && continue
  # shellcheck disable=SC2086 # the start is numbers separated by spaces
  cli --rules "$rules" $start
  # shellcheck disable=SC2086
  cli --rules "$rules" --misere $start
done < "$dir/starts"
[[ -n $quick ]] && echo "(quick: the issue's cases, and the largest starts of lasker, grundy, moore:8 and kayles)"

echo
echo "## 2. Connection attacks beside a steady load"
echo
"$hostile" attacks "$url_a" "$server_a" $quick | tee -a "$dir/log" || echo "(the client stopped: exit $?)"

echo
echo "## 2. A flood of games from one client, default rate limits"
echo
start b
server_b=$pid url_b=$url
"$hostile" rate-limit "$url_b" "$server_b" $quick | tee -a "$dir/log" || echo "(the client stopped: exit $?)"

# ---------------------------------------------------------------- summary
verdict() { if [[ $1 == 1 ]]; then echo PASS; else echo FAIL; fi; }
late=0 requests=0 slowest=0 slowest_what= missing=
for name in sweep before_attack attack rate_limit; do
  if [[ -z $(result "$name" late) ]]; then missing+=" $name"; continue; fi
  late=$((late + $(result "$name" late)))
  requests=$((requests + $(result "$name" requests)))
  ms=$(result "$name" slowest_ms)
  if (( ms > slowest )); then slowest=$ms slowest_what=$(result "$name" slowest_what | tr _ ' '); fi
done
alive_a=$(alive "$server_a") alive_b=$(alive "$server_b")
peak_a=$(peak a) peak_b=$(peak b)
p99=$(result moves attack_p99_ms) cost=$(result moves watcher_cost_pct) watchers=$(result moves watchers)

echo
echo "## Summary"
echo
echo "| goal | measured | result |"
echo "|---|---|---|"
ok=$([[ $late == 0 && -z $missing && $alive_a == yes && $alive_b == yes ]] && echo 1 || echo 0)
echo "| every request answered within ${goal_s} s (server) | $requests requests, $late later or unanswered; slowest $slowest ms ($slowest_what); servers up at the end: $alive_a, $alive_b${missing:+; cases without results:$missing} | $(verdict "$ok") |"
ok=$(( peak_a <= limit_mb && peak_b <= limit_mb ))
echo "| server peak memory ≤ $limit_mb MB | $peak_a MB (main server), $peak_b MB (rate-limited server) | $(verdict "$ok") |"
ok=$(awk -v p="$p99" 'BEGIN {print (p != "" && p < 20) ? 1 : 0}')
echo "| a normal move's p99 < 20 ms under attack | p99 $p99 ms, p50 $(result moves attack_p50_ms) ms, $(result moves attack_per_s) moves/s (alone: p99 $(result moves alone_p99_ms) ms, $(result moves alone_per_s) moves/s) | $(verdict "$ok") |"
ok=$(awk -v c="$cost" -v w="$watchers" 'BEGIN {print (c != "" && c < 10 && w >= 2000) ? 1 : 0}')
echo "| 2,000 idle watchers of other games cost < 10 % of moves/s | $cost % with $watchers watchers ($(result moves watchers_per_s) against $(result moves alone_per_s) moves/s) | $(if [[ -n $quick ]]; then echo "— (quick: fewer watchers)"; else verdict "$ok"; fi) |"
# The command line's own limit is 2 s (--time-limit); "a second or two" allows for starting and printing.
ok=$(( cli_late == 0 && cli_largest <= limit_mb && cli_crashed == 0 ))
echo "| \`analyze --rules\`: an answer or \"not available\" in a second or two (≤ ${cli_goal_s} s), ≤ $limit_mb MB, exit 0 or 1 | $cli_rows runs, $cli_late over ${cli_goal_s} s (slowest $cli_slowest s), largest $cli_largest MB, $cli_crashed other exits | $(verdict "$ok") |"
flood=$(result rate_limit_refusals flood_429) other=$(result rate_limit_refusals other_429)
ok=$(( ${flood:-0} > 0 && ${other:-1} == 0 ))
echo "| a flooding client gets 429, the others none | $flood × 429 to the flood ($(result rate_limit_refusals flood_retry_after) with Retry-After), $other to another client | $(verdict "$ok") |"
echo
echo "Connections: $(result connections idle_closed) idle, $(result connections slow_closed) half-request-line and $(result connections silent_closed) silent-body connections closed by the server during the attack ($(result connections silent_408) answered 408); from one address $(result connections one_attacker_held) idle connections held at the end, $(result connections one_attacker_429) refused with 429. Hung-up heavy analyses: server CPU $(result hangup cpu_during_s) s until 0.4 s, $(result hangup cpu_after_s) s in the 3 s after."
