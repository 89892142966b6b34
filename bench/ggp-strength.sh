#!/usr/bin/env bash
# Plays bouton's `best` player against the flat Monte Carlo baseline
# (`flat-mc`, the ggp-base sample gamer's method) through bouton's own
# referee: two `bouton ggp serve` players on local ports, one with
# `--strategy best`, one with `--strategy flat-mc`, and `bouton ggp referee`
# running each match over HTTP with the same clocks for both. Every game is
# played with best in the first role and then in the second, MATCHES times
# each, and the results are printed per game and seat order:
#
#   breakthrough   best first   3 won 0 drawn 1 lost   score 75%
#
# where the score counts a draw as half a win (a player's goal of 100 is a
# win, 0 a loss, anything between a draw; a match that ends with no goal for
# either role, as chess does at its move limit, is counted apart and not
# scored). A game that does not compile
# within COMPILE_LIMIT seconds (`bouton ggp check` with a timeout) is
# reported as such and skipped: the players would only answer random moves
# through the reference prover. A game that compiles, but not within the
# start clock, is played and marked: the players answer the first moves by
# the prover while compiling in the background, then switch to the compiled
# machine. Moves the referee had to replace (late, illegal) are counted per
# player.
#
# Usage: bench/ggp-strength.sh [GAME...]
#   GAME      game names of the GGP repository (default: breakthrough pentago
#             knightThrough nineBoardTicTacToe checkers chess connectFour)
#
# Environment:
#   MATCHES       matches per game and seat order (default 1)
#   SEATS         the seat orders played: first (best in the first role),
#                 second (best in the second role) or both (default); two
#                 runs with SEATS=first and SEATS=second on different PORTs
#                 play a long game's two seat orders in parallel
#   START_CLOCK   seconds before the first move (default 10)
#   PLAY_CLOCK    seconds per move (default 5)
#   COMPILE_LIMIT seconds `bouton ggp check` may take for a game to be
#                 played (default 120; at least the start clock)
#   GAMES_DIR     where NAME.kif files are looked for first (default
#                 /tmp/ggpgames); missing ones are taken from the repository
#   GGP_REPOSITORY  the GGP repository, a bare git directory or a checkout
#                 (default /work/.mirror/ggp-org+ggp-repository/repo)
#   BOUTON        the binary to use (default: this tree's release build,
#                 built first); it is copied, so rebuilding during the run
#                 changes nothing
#   PORT          the first of the two ports used (default 9240)
#   MAX_STEPS     most joint moves per match (default 10000, the referee's);
#                 a longer match is stopped there and counted apart, as
#                 undecided (short matches of a large game measure the
#                 player's memory in minutes rather than an hour)
#   LOGS          where each match's record and the players' logs are kept
#                 (default a temp dir)
#   MEMORY_LIMIT  MB: the script fails (exit 1, after the summary) if the
#                 `best` player's resident memory went above it at any time
#                 (default: no limit)
#
# The `best` player's resident memory is sampled every second (`ps -o
# rss=`, into LOGS/best.rss: seconds since the epoch, kB); after each match
# the script prints its peak during the match and its level once the match
# has ended (12 s after the STOP: the trees freed, and the free memory given
# back, which `bouton ggp serve` does every 10 s), and at the end the
# largest of each over the run: one process plays every match, so memory
# the allocator keeps from one match to the next shows as a rising level.
#
# With the defaults (five games that compile, one match per seat order, a
# 5 s play clock) a run takes about an hour. The two players share the
# machine: `best` searches on two threads on its own turns and on one
# thread on the opponent's turns; flat-mc uses one thread on its turns.
# Other work on the machine takes from both.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
        exit 0
        ;;
esac

games=("$@")
if [ ${#games[@]} -eq 0 ]; then
    games=(breakthrough pentago knightThrough nineBoardTicTacToe checkers chess connectFour)
fi
matches=${MATCHES:-1}
start_clock=${START_CLOCK:-10}
play_clock=${PLAY_CLOCK:-5}
compile_limit=${COMPILE_LIMIT:-120}
if [ "$compile_limit" -lt "$start_clock" ]; then
    compile_limit=$start_clock
fi
games_dir=${GAMES_DIR:-/tmp/ggpgames}
repo=${GGP_REPOSITORY:-/work/.mirror/ggp-org+ggp-repository/repo}
port=${PORT:-9240}
max_steps=${MAX_STEPS:-10000}
memory_limit=${MEMORY_LIMIT:-0}
case "${SEATS:-both}" in
    first) seats=(0) ;;
    second) seats=(1) ;;
    both) seats=(0 1) ;;
    *)
        echo "SEATS must be first, second or both, not '${SEATS}'" >&2
        exit 2
        ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/ggp-strength.XXXXXX")
logs=${LOGS:-$work/logs}
mkdir -p "$logs"
if [ -z "${BOUTON:-}" ]; then
    cargo build --release --quiet -p bouton
    BOUTON=target/release/bouton
fi
cp "$BOUTON" "$work/bouton"
bouton=$work/bouton

pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}
trap cleanup EXIT

# Starts a player; waits until it listens.
start_player() { # strategy port name
    "$bouton" ggp serve --strategy "$1" --port "$2" --name "$3" 2>>"$logs/$3.log" >"$work/$3.out" &
    pids+=($!)
    for _ in $(seq 100); do
        grep -q listening "$work/$3.out" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "the $1 player did not start; see $logs/$3.log" >&2
    exit 1
}

# The rule sheet of a game, from GAMES_DIR or the repository.
game_file() { # name
    if [ -f "$games_dir/$1.kif" ]; then
        echo "$games_dir/$1.kif"
        return 0
    fi
    local out=$work/$1.kif
    if git -C "$repo" show "HEAD:games/$1/$1.kif" >"$out" 2>/dev/null ||
        git -C "$repo" show "HEAD:war/root/games/$1/$1.kif" >"$out" 2>/dev/null; then
        echo "$out"
        return 0
    fi
    return 1
}

best_port=$port
flat_port=$((port + 1))
start_player best "$best_port" best
best_pid=${pids[-1]}
start_player flat-mc "$flat_port" flat-mc

# The best player's resident memory, every second.
rss_log=$logs/best.rss
(
    while rss=$(ps -o rss= -p "$best_pid"); do
        echo "$(date +%s) $rss"
        sleep 1
    done
) >"$rss_log" 2>/dev/null &
pids+=($!)
peak_overall=0 after_overall=0

echo "best against flat-mc: $matches match(es) per seat order (seats: ${SEATS:-both}), clocks ${start_clock} s / ${play_clock} s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); logs in $logs"
summary=()
for game in "${games[@]}"; do
    if ! file=$(game_file "$game"); then
        summary+=("$(printf '%-20s not found in %s or the repository' "$game" "$games_dir")")
        echo "${summary[-1]}"
        continue
    fi
    # The players compile within the start clock, or keep compiling in the
    # background while the prover answers; a game that does not compile at
    # all would be played with random moves.
    set +e
    compile_started=$(date +%s.%N)
    timeout "$compile_limit" "$bouton" ggp check "$file" --solve-time 0 >"$logs/$game.check" 2>&1
    status=$?
    compile_seconds=$(echo "$(date +%s.%N) - $compile_started" | bc)
    set -e
    late=""
    if [ $status -eq 0 ] && [ "$(echo "$compile_seconds > $start_clock" | bc)" -eq 1 ]; then
        late=" (compiled in $(printf '%.1f' "$compile_seconds") s, after the start clock: the first moves by the prover)"
        echo "$game$late"
    fi
    if [ $status -ne 0 ]; then
        if [ $status -eq 124 ]; then
            why="does not compile within ${compile_limit} s"
        else
            why="does not compile: $(grep -m1 -E 'cannot|error' "$logs/$game.check" || echo "exit $status")"
        fi
        summary+=("$(printf '%-20s %s; not played' "$game" "$why")")
        echo "${summary[-1]}"
        continue
    fi
    for seat in "${seats[@]}"; do
        won=0 drawn=0 lost=0 undecided=0 late_best=0 late_flat=0
        for i in $(seq "$matches"); do
            id="$game-$seat-$i-$$"
            if [ $seat -eq 0 ]; then
                players=(--player "127.0.0.1:$best_port" --player "127.0.0.1:$flat_port")
            else
                players=(--player "127.0.0.1:$flat_port" --player "127.0.0.1:$best_port")
            fi
            record=$logs/$id.txt
            started=$(date +%s)
            if ! "$bouton" ggp referee "$file" "${players[@]}" --start-clock "$start_clock" \
                --play-clock "$play_clock" --max-steps "$max_steps" --match-id "$id" --seed "$i" >"$record" 2>&1; then
                echo "  $game match $id failed; see $record" >&2
                continue
            fi
            # "goals: ROLE G, ROLE G"; the first role is seat 0.
            goals=$(grep -E '^(goals|abandoned; goals now):' "$record" | tail -1 | sed 's/^[^:]*: //')
            ours=$(echo "$goals" | tr ',' '\n' | sed -n "$((seat + 1))p" | awk '{print $NF}')
            theirs=$(echo "$goals" | tr ',' '\n' | sed -n "$((2 - seat))p" | awk '{print $NF}')
            # Rules may leave the end undecided (chess's move limit defines no
            # goal), and MAX_STEPS may stop a match before its end: neither
            # side won; such matches are counted apart.
            abandoned=$(grep -c '^abandoned; goals now:' "$record" || true)
            case "$abandoned/$ours/$theirs" in
                0/none/none | 1/*) undecided=$((undecided + 1)) ;;
                */100/*) won=$((won + 1)) ;;
                */0/* | */none/*) lost=$((lost + 1)) ;;
                *) drawn=$((drawn + 1)) ;;
            esac
            steps=$(grep -cE '^ *[0-9]+\.' "$record" || true)
            # Replaced moves per role: each step line lists the roles' moves
            # in order, a replaced one followed by "[replaced: why]".
            read -r rep0 rep1 < <(grep -E '^ *[0-9]+\.' "$record" | awk '
                {
                    sub(/^ *[0-9]+\. /, "")
                    role = -1; depth = 0; inside = 0
                    for (i = 1; i <= length($0); i++) {
                        c = substr($0, i, 1)
                        if (inside) { if (c == "]") inside = 0; continue }
                        if (c == "[") { inside = 1; count[role]++; continue }
                        if (depth == 0 && c != " " && c != ")") { if (c == "(" || prev == " " || i == 1) role++ }
                        if (c == "(") depth++
                        if (c == ")") depth--
                        prev = c
                    }
                    prev = ""
                }
                END { print count[0] + 0, count[1] + 0 }')
            if [ $seat -eq 0 ]; then
                late_best=$((late_best + rep0)) late_flat=$((late_flat + rep1))
            else
                late_best=$((late_best + rep1)) late_flat=$((late_flat + rep0))
            fi
            ended=$(date +%s)
            sleep 12
            peak_kb=$(awk -v from="$started" '$1 >= from && $2 > max { max = $2 } END { print max + 0 }' "$rss_log")
            after_kb=$(ps -o rss= -p "$best_pid" || echo 0)
            after_overall=$((after_kb > after_overall ? after_kb : after_overall))
            echo "  $game, best as role $seat, match $i: goals $goals ($steps steps, $((ended - started)) s);" \
                "best's memory: peak $((peak_kb / 1024)) MB, $((after_kb / 1024)) MB after the match"
        done
        total=$((won + drawn + lost))
        if [ $total -gt 0 ]; then
            score=$(((200 * won + 100 * drawn) / (2 * total)))
        else
            score=0
        fi
        order=$([ $seat -eq 0 ] && echo "best first " || echo "best second")
        undecided_note=""
        if [ $undecided -gt 0 ]; then
            undecided_note=" ($undecided undecided: without a goal for either role, or stopped at MAX_STEPS; not scored)"
        fi
        summary+=("$(printf '%-20s %s  %d won %d drawn %d lost  score %3d%%%s  (replaced moves: best %d, flat-mc %d)%s' \
            "$game" "$order" "$won" "$drawn" "$lost" "$score" "$undecided_note" "$late_best" "$late_flat" "$late")")
        echo "${summary[-1]}"
    done
done

echo
echo "summary (best against flat-mc, clocks ${start_clock} s / ${play_clock} s, $matches match(es) per seat order):"
printf '%s\n' "${summary[@]}"
peak_overall=$(awk -v max="$peak_overall" '$2 > max { max = $2 } END { print max + 0 }' "$rss_log")
echo "best's resident memory over the run: peak $((peak_overall / 1024)) MB, at most $((after_overall / 1024)) MB between matches (samples in $rss_log)"
if [ "$memory_limit" -gt 0 ] && [ $((peak_overall / 1024)) -gt "$memory_limit" ]; then
    echo "best's resident memory went above MEMORY_LIMIT=$memory_limit MB" >&2
    exit 1
fi
