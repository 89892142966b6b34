#!/usr/bin/env bash
# Plays one short match on every game of the public GGP repository
# (ggp-org/ggp-repository) through bouton's own referee, to check the first
# goal of issue #12: in every match on every repository game, a legal move
# before every play clock, never an error reply, never a dropped connection.
#
# The games are those of bench/ggp-compile-sweep.sh (each game's current
# rule sheet). `bouton ggp serve --strategy best` plays the first role,
# `bouton ggp serve --strategy flat-mc` every other role: one player process
# per role, each on its own port, started once and reused from game to game
# (a player serves one match at a time; more flat-mc players are started
# when a game has more roles than any before it). `bouton ggp referee` runs
# each match with the same clocks for every player, for at most MAX_STEPS
# joint moves. One line per game:
#
#   chess          2 roles  6 steps  stopped at MAX_STEPS  replaced: none
#   pilgrimage     4 roles  6 steps  stopped at MAX_STEPS  replaced: flat-mc2 1 (late 1)
#
# (the end is "terminal, goals ..." when the game ended, "stopped at
# MAX_STEPS", or "referee failed: ..."), followed by any trouble the players
# logged during the match (a line of a player's log that is not a START,
# PLAY, STOP or compilation notice) and any player process that died (it is
# restarted). A replaced move's reason is the referee's: late (no answer
# before the play clock, plus its 0.5 s grace), illegal (an answer that is
# not a legal move), error reply (`failed: bad reply`: an answer that is
# not HTTP 200, as the player's error replies are) or connection
# (`failed: i/o`: the player could not be reached, or the connection
# dropped). At the end: the totals, by reason, and the games with any
# replaced move, referee failure, error reply or connection problem.
#
# Usage: bench/ggp-match-sweep.sh [--every N] [--games FILE] [FILTER]
#   --every N     only every Nth game of the (filtered) list, from the
#                 first: a sample spread across the alphabet
#   --games FILE  only the games named in FILE, one name a line (the NAME
#                 of games/NAME/…, as the report lines spell it): e.g. the
#                 games a previous sweep has not played yet
#   FILTER        only the games whose path in the repository matches FILTER
#                 (an extended grep pattern, e.g. '/(chess|sudoku)/')
#
# Environment:
#   START_CLOCK     seconds before the first move (default 10)
#   PLAY_CLOCK      seconds per move (default 2)
#   MAX_STEPS       most joint moves per match (default 6)
#   PORT            the first port; role k's player listens on PORT+k
#                   (default 9440)
#   LOGS            where each match's record (GAME.txt), the referee's
#                   errors (GAME.err), the players' log lines during the
#                   match (GAME.roleK.log) and the players' whole logs are
#                   kept (default a temp dir)
#   BOUTON          the binary to use (default: this tree's release build,
#                   built first); it is copied, so rebuilding during the run
#                   changes nothing
#   GGP_REPOSITORY  the repository: a bare git directory or a checkout
#                   (default /work/.mirror/ggp-org+ggp-repository/repo)
#
# Matches are sequential; a match takes at most the start clock plus
# MAX_STEPS play clocks (each plus the referee's 0.5 s grace), plus the
# referee's own compilation of the rules. On a shared machine the other
# work takes from the players' clocks: the load average is printed first
# and last.
set -euo pipefail
cd "$(dirname "$0")/.."

every=1
filter=""
games_file=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        --every)
            every=${2:?--every needs a number}
            shift
            ;;
        --games)
            games_file=${2:?--games needs a file of game names}
            [ -r "$games_file" ] || {
                echo "--games: cannot read '$games_file'" >&2
                exit 2
            }
            shift
            ;;
        *) filter="$1" ;;
    esac
    shift
done
if ! [[ "$every" =~ ^[1-9][0-9]*$ ]]; then
    echo "--every needs a positive whole number, not '$every'" >&2
    exit 2
fi

start_clock=${START_CLOCK:-10}
play_clock=${PLAY_CLOCK:-2}
max_steps=${MAX_STEPS:-6}
port=${PORT:-9440}
repo=${GGP_REPOSITORY:-/work/.mirror/ggp-org+ggp-repository/repo}

work=$(mktemp -d "${TMPDIR:-/tmp}/ggp-match-sweep.XXXXXX")
logs=${LOGS:-$work/logs}
mkdir -p "$logs" "$work/games"
if [ -z "${BOUTON:-}" ]; then
    cargo build --release --quiet -p bouton
    BOUTON=${CARGO_TARGET_DIR:-target}/release/bouton
fi
cp "$BOUTON" "$work/bouton"
bouton=$work/bouton

# Player k (0: best, the others flat-mc) and its process id.
player_pids=()
other_pids=()
cleanup() {
    for pid in "${player_pids[@]}" "${other_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    rm -rf "$work/games" "$work/bouton"
}
trap cleanup EXIT

# The name of player k, as in its log file and the report.
player_name() { # k
    if [ "$1" -eq 0 ]; then echo best; else echo "flat-mc$1"; fi
}

# Starts player k on PORT+k; waits until it listens.
start_player() { # k
    local k=$1 name strategy
    name=$(player_name "$k")
    strategy=$([ "$k" -eq 0 ] && echo best || echo flat-mc)
    : >"$work/$name.out"
    "$bouton" ggp serve --strategy "$strategy" --port $((port + k)) --name "$name" \
        2>>"$logs/$name.log" >"$work/$name.out" </dev/null &
    player_pids[k]=$!
    for _ in $(seq 100); do
        grep -q listening "$work/$name.out" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "player $name did not start on port $((port + k)); see $logs/$name.log" >&2
    exit 1
}

# Starts players until there are at least n.
ensure_players() { # n
    while [ "${#player_pids[@]}" -lt "$1" ]; do
        start_player "${#player_pids[@]}"
    done
}

# The roles a rule sheet declares (comments removed): a first guess, which
# the referee corrects if it is wrong.
role_count() { # file
    sed 's/;.*//' "$1" | tr '\n' ' ' | grep -oiE '\(\s*role\s+[^()[:space:]]+\s*\)' |
        tr -s '[:space:]' ' ' | sort -u | wc -l
}

# The list of rule sheets, as the compile sweep selects them.
if [ -d "$repo/.git" ]; then
    git_dir="$repo/.git"
else
    git_dir="$repo"
fi
git --git-dir="$git_dir" ls-tree -r --name-only HEAD | grep '\.kif$' | grep '/games/' |
    grep -v '/disabled_games/' | grep -Ev '/games/[^/]+/v[0-9]+/' >"$work/list.txt" || true
if [ -n "$filter" ]; then
    grep -E -- "$filter" "$work/list.txt" >"$work/filtered.txt" || true
    mv "$work/filtered.txt" "$work/list.txt"
fi
if [ -n "$games_file" ]; then
    # The game's name: what follows the first "games/" up to the next "/".
    awk -v names="$games_file" '
        BEGIN { while ((getline n < names) > 0) { gsub(/[[:space:]]/, "", n); if (n != "") keep[n] = 1 } }
        { rest = substr($0, index($0, "games/") + 6); sub(/\/.*/, "", rest); if (rest in keep) print }
    ' "$work/list.txt" >"$work/filtered.txt"
    mv "$work/filtered.txt" "$work/list.txt"
fi
awk -v n="$every" '(NR - 1) % n == 0' "$work/list.txt" >"$work/sample.txt"
count=$(wc -l <"$work/sample.txt")
if [ "$count" = 0 ]; then
    echo "no rule sheets selected from $repo" >&2
    exit 1
fi

echo "$count games from $repo; best in the first role, flat-mc in the others;" \
    "clocks ${start_clock} s / ${play_clock} s, at most $max_steps steps"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); logs in $logs"

games=0 finished=0 stopped=0 referee_failed=0 last_resort_games=0
prover_games=()
declare -A reasons=()
troubled=()
problem_games=()
while IFS= read -r path <&3; do
    # games/NAME/NAME.kif is NAME; whatever else sits at games/NAME/*.kif is
    # NAME too.
    rel=${path#*games/}
    name=${rel%%/*}
    file="$work/games/$name.kif"
    git --git-dir="$git_dir" show "HEAD:$path" >"$file"
    games=$((games + 1))
    roles=$(role_count "$file")
    [ "$roles" -ge 1 ] || roles=1
    id="sweep-$name-$$"
    record=$logs/$name.txt
    errors=$logs/$name.err
    attempt=0
    while :; do
        ensure_players "$roles"
        # Where each player's log stands before the match.
        declare -A log_mark=()
        for k in $(seq 0 $((roles - 1))); do
            log_mark[$k]=$(wc -l <"$logs/$(player_name "$k").log")
        done
        players=()
        for k in $(seq 0 $((roles - 1))); do
            players+=(--player "127.0.0.1:$((port + k))")
        done
        set +e
        "$bouton" ggp referee "$file" "${players[@]}" --start-clock "$start_clock" \
            --play-clock "$play_clock" --max-steps "$max_steps" --match-id "$id" >"$record" 2>"$errors" </dev/null
        status=$?
        set -e
        # The rule sheet's roles were miscounted: the referee says how many.
        declared=$(sed -nE 's/.*the game has ([0-9]+) roles but [0-9]+ players were given.*/\1/p' "$errors")
        if [ $status -ne 0 ] && [ -n "$declared" ] && [ "$attempt" = 0 ]; then
            roles=$declared
            attempt=1
            continue
        fi
        break
    done
    # Each player's log lines during this match: what went wrong in the
    # players (troubles), and how they answered (remarks: moves in time, but
    # by the prover or a last resort).
    troubles=()
    remarks=()
    for k in $(seq 0 $((roles - 1))); do
        pname=$(player_name "$k")
        tail -n +"$((log_mark[$k] + 1))" "$logs/$pname.log" >"$logs/$name.role$k.log"
        # (a previous match's last lines may come in late: any match's
        # ordinary lines are left out).
        unusual=$(grep -vE "^[^ ]+: (start as |play |stop$|abort$|the rules of the last game compiled|compiled after the start clock|compilation stopped: it was cancelled)" \
            "$logs/$name.role$k.log" | head -3 | tr '\n' '|' | sed 's/|$//' || true)
        if [ -n "$unusual" ]; then
            troubles+=("$pname logged: $unusual")
        fi
        # Answers sent in time but by a last resort (the search or the
        # prover late): legal for certain when the rules prove them so ("a
        # move the rules prove legal"), only by luck when guessed ("a move
        # legal before", "noop").
        fallbacks=$(sed -nE "s/^$id: play .* \(((reasoner late|out of time)[^)]*)\)$/\1/p" "$logs/$name.role$k.log" |
            sort | uniq -c | awk '{ n = $1; $1 = ""; sub(/^ /, ""); printf "%s%s %d", sep, $0, n; sep = ", " }')
        if [ -n "$fallbacks" ]; then
            remarks+=("$pname answered by a last resort: $fallbacks")
            last_resort_games=$((last_resort_games + 1))
        fi
        # Best's moves answered by the reference prover: the game not
        # compiled yet (or at all).
        if [ "$k" -eq 0 ]; then
            answers=$(grep -c "^$id: play " "$logs/$name.role0.log" || true)
            by_prover=$(grep -cE "^$id: play .* \((reference reasoner|reasoner late)" "$logs/$name.role0.log" || true)
            if [ "$by_prover" -gt 0 ]; then
                remarks+=("best's moves by the prover: $by_prover of $answers")
                prover_games+=("$name")
            fi
        fi
        if ! kill -0 "${player_pids[k]}" 2>/dev/null; then
            troubles+=("$pname died (restarted)")
            reasons[player died]=$((${reasons[player died]:-0} + 1))
            start_player "$k"
        fi
    done
    steps=$(grep -cE '^ *[0-9]+\. ' "$record" || true)
    if [ $status -ne 0 ]; then
        ended="referee failed: $(tail -n 1 "$errors" | cut -c1-160)"
        referee_failed=$((referee_failed + 1))
        # A player left with an unfinished match would answer the next START
        # with busy: end the match for every player.
        for k in $(seq 0 $((roles - 1))); do
            curl -s -m 5 -H 'Content-Type: text/acl' -d "(abort $id)" "http://127.0.0.1:$((port + k))/" >/dev/null </dev/null || true
        done
    elif grep -q '^goals:' "$record"; then
        ended="terminal, $(grep '^goals:' "$record" | tail -1)"
        finished=$((finished + 1))
    else
        ended="stopped at MAX_STEPS"
        stopped=$((stopped + 1))
    fi
    # Replaced moves per role. A step line lists the roles' moves in role
    # order, each a name or a parenthesised term, a replaced one followed by
    # "[replaced: why]" (an illegal answer is quoted, and may hold brackets).
    # Prints "ROLE KIND" for each replaced move, KIND one of late, illegal,
    # error reply, connection, failed (another failure).
    grep -E '^ *[0-9]+\. ' "$record" | awk '
        {
            line = $0
            sub(/^ *[0-9]+\. /, "", line)
            role = -1; depth = 0; prev = " "
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (depth == 0 && c == "[") {
                    # The reason, up to the "]" outside quotes.
                    why = ""; quoted = 0
                    for (i++; i <= length(line); i++) {
                        c = substr(line, i, 1)
                        if (quoted && c == "\\") { why = why c substr(line, i + 1, 1); i++; continue }
                        if (c == "\"") quoted = !quoted
                        if (!quoted && c == "]") break
                        why = why c
                    }
                    sub(/^replaced: /, "", why)
                    if (why ~ /^late/) kind = "late"
                    else if (why ~ /^illegal/) kind = "illegal"
                    else if (why ~ /^failed: bad reply/) kind = "error reply"
                    else if (why ~ /^failed: i\/o/) kind = "connection"
                    else kind = "failed"
                    print role, kind
                    prev = "]"
                    continue
                }
                if (depth == 0 && c != " " && c != ")" && (prev == " " || prev == "]")) role++
                if (c == "(") depth++
                if (c == ")") depth--
                prev = c
            }
        }' >"$work/replaced.txt"
    replaced=()
    for k in $(seq 0 $((roles - 1))); do
        n=$(awk -v k="$k" '$1 == k' "$work/replaced.txt" | wc -l)
        if [ "$n" -gt 0 ]; then
            kinds=$(awk -v k="$k" '$1 == k { $1 = ""; sub(/^ /, ""); count[$0]++ }
                END { sep = ""; for (w in count) { printf "%s%s %d", sep, w, count[w]; sep = ", " } }' "$work/replaced.txt")
            replaced+=("$(player_name "$k") $n ($kinds)")
        fi
    done
    while read -r _ kind; do
        reasons[$kind]=$((${reasons[$kind]:-0} + 1))
    done <"$work/replaced.txt"
    if [ ${#replaced[@]} -gt 0 ]; then
        replaced_text=$(printf '%s; ' "${replaced[@]}")
        replaced_text=${replaced_text%; }
    else
        replaced_text=none
    fi
    line=$(printf '%-28s %d roles %3d steps  %s  replaced: %s' "$name" "$roles" "$steps" "$ended" "$replaced_text")
    if [ ${#troubles[@]} -gt 0 ] || [ ${#remarks[@]} -gt 0 ]; then
        line="$line  [$(printf '%s; ' "${troubles[@]}" "${remarks[@]}" | sed 's/; $//')]"
    fi
    echo "$line"
    if [ ${#replaced[@]} -gt 0 ] || [ $status -ne 0 ] || [ ${#troubles[@]} -gt 0 ]; then
        problem_games+=("$line")
    fi
    if [ ${#replaced[@]} -gt 0 ] || [ $status -ne 0 ]; then
        troubled+=("$name")
    fi
done 3<"$work/sample.txt"

echo
echo "totals: $games games; $finished ended, $stopped stopped at MAX_STEPS, $referee_failed referee failures"
if [ ${#reasons[@]} -gt 0 ]; then
    echo "replaced moves and player trouble by reason:$(for k in "${!reasons[@]}"; do printf ' %s %s;' "$k" "${reasons[$k]}"; done)"
else
    echo "no replaced move, no error reply, no connection problem"
fi
echo "player answers by a last resort (in time; guesses legal only by luck) in $last_resort_games player-matches;" \
    "best's moves by the reference prover (game not compiled in time) in ${#prover_games[@]} games${prover_games[*]:+: ${prover_games[*]}}"
echo "load average now $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ${#problem_games[@]} -gt 0 ]; then
    echo "games with a replaced move, a referee failure or a player's trouble (${#troubled[@]} with a replaced move or referee failure):"
    printf '  %s\n' "${problem_games[@]}"
fi
