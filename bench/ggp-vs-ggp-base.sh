#!/usr/bin/env bash
# Compares bouton's GGP reasoners with the prover of Stanford's ggp-base
# (`ProverStateMachine`, the reasoner of its sample players and of its
# GameServer), game by game: random playouts per CPU second, and, along
# seeded random playouts, every state's facts, legal moves, terminality and
# goals.
#
#   GGP_BASE="$(cat /tmp/ggp-base-build/command)" bench/ggp-vs-ggp-base.sh [GAME…]
#
# GAME is a name: ticTacToe, connectFour, nim1 (read from ../shared/gdl) or a
# game of the GGP repository (war/root/games/GAME/GAME.kif of GGP_REPOSITORY),
# or a path to a .kif file. Default: ticTacToe connectFour nim1 breakthrough
# checkers chess sudoku laikLee_hex pentago amazons.
#
# GGP_BASE is a command that takes `FILE --seconds S --warmup W` and prints
# `result transitions=T … wall=W thread_cpu=C process_cpu=Q init=I`, takes
# `FILE --trace SEED --max-steps N` and prints the trace that
# crates/ggp/examples/replay_trace.rs reads, and takes `FILE --propnet` and
# prints `result propnet_wall=W propnet_cpu=C components=N`. ggp-base is not
# part of bouton and its code never enters this repository. How it was built
# here (bench/ggp-base-playouts/build.sh does exactly this, into /tmp): the
# sources src/main/java and the jars lib/Guava, lib/reflections,
# lib/javassist and lib/gdl-validation of ggp-org/ggp-base at commit
# 44db132b5f1aa8467b1b990914e2e3c64ecbd87b (2016-12-26, the repository
# mirror's HEAD), compiled with javac 17.0.15 (OpenJDK, Debian) together with
# bouton's harness bench/ggp-base-playouts/Playouts.java (javac -sourcepath:
# only the classes the harness reaches), run as `java -Xmx2g -cp
# CLASSES:GUAVA:GDL-VALIDATION:JAVA-CUP:JAVASSIST:REFLECTIONS Playouts` on
# OpenJDK 17.0.15. The harness plays for a warm-up period first (the JIT
# compiler's work, not counted), then measures.
#
# Per game, one program at a time:
#   ggp-base   random playouts with ProverStateMachine (terminal test, every
#              role's legal moves, a random joint move, the next state; goals
#              in terminal states), SECONDS after WARMUP;
#   prover     bouton's prover, the same playouts asking the same questions
#              (`examples/prover_playouts.rs`: the terminal test, each role's
#              legal moves, the next state; goals in terminal states), SECONDS;
#   inspect    bouton's prover as `examples/compile.rs --prover` drives it:
#              per state one inspection (every role's legal moves,
#              terminality and goals at once) and the next state, SECONDS;
#   machine    what `Machine::compile` builds (a network; "oracle" when part
#              of it is answered per state by an oracle: chess's hybrid
#              network, sudoku's and laikLee_hex's outcome oracles), its
#              compile time and random playouts (`examples/compile.rs`), SECONDS;
#   propnet    (not by default) the time ggp-base's OptimizingPropNetFactory
#              takes to build its propositional network (ggp-base has no
#              working propnet state machine to play on it), within
#              PROPNET_TIMEOUT;
#   traces     for the games in TRACE_GAMES: for each seed of TRACE_SEEDS a
#              random playout of ggp-base's prover (at most TRACE_STEPS
#              joint moves) replayed by bouton's prover and machine
#              (`examples/replay_trace.rs --machine`), every state compared.
# Rates are transitions per CPU second of the playout thread (for ggp-base
# also per CPU second of the whole JVM: its compiler and collector threads),
# so that other work on a shared machine disturbs them less than the wall
# clock; each program's whole run is also timed (wall, user, system).
#
# Environment: GGP_BASE (required), SECONDS_PER_RUN (default 20), WARMUP
# (default 10: with 3 s, pentago ran at a third of its warmed-up speed), OUT (default /tmp/ggp-vs-ggp-base), TARGET (cargo target
# directory, default /work/target-reference), BOUTON_EXAMPLES (a directory
# holding built `compile`, `prover_playouts` and `replay_trace` examples,
# instead of building them), GGP_REPOSITORY (default /work/.mirror/ggp-org+ggp-repository/repo, a
# bare git directory or a checkout), SHARED_GDL (default ../shared/gdl),
# TRACE_GAMES (default "ticTacToe connectFour nim1 breakthrough checkers
# chess sudoku laikLee_hex pentago"), TRACE_SEEDS (default "1 2"),
# TRACE_STEPS (default 200),
# PARTS (which of the runs above to make, default "ggp-base prover inspect
# machine traces"; add propnet for the propnet builds; the table reads
# whatever runs OUT holds, so parts can be run again separately; each run
# adds its date, load and parts to OUT/header.txt),
# PROPNET_TIMEOUT (default 60 s), SUMMARY_ONLY=1 (only print the table of
# the runs already in OUT).
set -euo pipefail
: "${GGP_BASE:?set GGP_BASE to the ggp-base harness command (see the header)}"
SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}
WARMUP=${WARMUP:-10}
OUT=${OUT:-/tmp/ggp-vs-ggp-base}
TARGET=${TARGET:-/work/target-reference}
GGP_REPOSITORY=${GGP_REPOSITORY:-/work/.mirror/ggp-org+ggp-repository/repo}
TRACE_GAMES=${TRACE_GAMES:-ticTacToe connectFour nim1 breakthrough checkers chess sudoku laikLee_hex pentago}
TRACE_SEEDS=${TRACE_SEEDS:-1 2}
TRACE_STEPS=${TRACE_STEPS:-200}
PARTS=${PARTS:-ggp-base prover inspect machine traces}
PROPNET_TIMEOUT=${PROPNET_TIMEOUT:-60}
cd "$(dirname "$0")/.."
SHARED_GDL=${SHARED_GDL:-../shared/gdl}
mkdir -p "$OUT/games"

if [ $# -eq 0 ]; then
  set -- ticTacToe connectFour nim1 breakthrough checkers chess sudoku laikLee_hex pentago amazons
fi

if [ -z "${SUMMARY_ONLY:-}" ] && [ -z "${BOUTON_EXAMPLES:-}" ]; then
  CARGO_TARGET_DIR=$TARGET nice cargo build --quiet --release -p bouton-ggp --example compile --example replay_trace \
    --example prover_playouts
  BOUTON_EXAMPLES="$TARGET/release/examples"
  built_here=1
fi

git_dir=$GGP_REPOSITORY
[ -d "$git_dir/.git" ] && git_dir="$git_dir/.git"

# The rule sheet of a game, copied into $OUT/games/NAME.kif.
rule_sheet() {
  local game=$1 name
  name=$(basename "$game" .kif)
  if [ -f "$game" ]; then
    cp "$game" "$OUT/games/$name.kif"
  elif [ -f "$SHARED_GDL/$game.kif" ]; then
    cp "$SHARED_GDL/$game.kif" "$OUT/games/$name.kif"
  elif ! git --git-dir="$git_dir" show "HEAD:war/root/games/$game/$game.kif" > "$OUT/games/$name.kif" 2>/dev/null; then
    echo "$game: no rule sheet (neither a file, nor in $SHARED_GDL, nor in $GGP_REPOSITORY)" >&2
    exit 2
  fi
}

# Runs a command with its standard output in $1, its standard error in
# $1.err (ggp-base logs there) and `wall user sys` in $1.time.
timed() {
  local out=$1 limit=$2
  shift 2
  { time nice timeout -k 5 "$limit" "$@" > "$out" 2> "$out.err" || echo "exit status $?" >> "$out"; } 2> "$out.time"
}

TIMEFORMAT='%R %U %S'
built_here=${built_here:-}
wanted() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
limit=$((3 * SECONDS_PER_RUN + WARMUP + 120))
if [ -z "${SUMMARY_ONLY:-}" ]; then
  {
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
    echo "playouts: $SECONDS_PER_RUN s each (ggp-base after a warm-up of $WARMUP s); parts: $PARTS"
    echo "ggp-base: $GGP_BASE"
    if [ -n "$built_here" ]; then
      echo "bouton: built from the tree at $(git log -1 --format='%h %cd' --date=short 2>/dev/null || echo '?')$(git diff --quiet -- crates/ggp 2>/dev/null || echo ' with uncommitted changes in crates/ggp')"
    else
      echo "bouton: the examples in $BOUTON_EXAMPLES (compile built $(date -u -r "$BOUTON_EXAMPLES/compile" '+%Y-%m-%d %H:%M UTC'))"
    fi
  } >> "$OUT/header.txt"
  for game in "$@"; do
    rule_sheet "$game"
    name=$(basename "$game" .kif)
    f="$OUT/$name"
    file="$OUT/games/$name.kif"
    if wanted ggp-base; then
      # shellcheck disable=SC2086 # GGP_BASE is a command line.
      timed "$f.ggp-base" "$limit" $GGP_BASE "$file" --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP"
    fi
    if wanted prover; then
      timed "$f.prover" "$limit" "$BOUTON_EXAMPLES/prover_playouts" "$file" --seconds "$SECONDS_PER_RUN"
    fi
    if wanted inspect; then
      timed "$f.inspect" "$limit" "$BOUTON_EXAMPLES/compile" "$file" --prover --playouts "$SECONDS_PER_RUN"
    fi
    if wanted machine; then
      timed "$f.machine" "$limit" "$BOUTON_EXAMPLES/compile" "$file" --playouts "$SECONDS_PER_RUN"
    fi
    if wanted propnet; then
      # shellcheck disable=SC2086
      timed "$f.propnet" "$PROPNET_TIMEOUT" $GGP_BASE "$file" --propnet
    fi
    if wanted traces; then
      for t in $TRACE_GAMES; do
        [ "$t" = "$name" ] || continue
        rm -f "$f".trace.* "$f".replay.*
        for seed in $TRACE_SEEDS; do
          # shellcheck disable=SC2086
          timed "$f.trace.$seed" "$limit" $GGP_BASE "$file" --trace "$seed" --max-steps "$TRACE_STEPS"
          if grep -q '^end' "$f.trace.$seed"; then
            timed "$f.replay.$seed" "$limit" "$BOUTON_EXAMPLES/replay_trace" "$file" "$f.trace.$seed" --machine
          else
            echo "not compared: ggp-base's trace did not finish" > "$f.replay.$seed"
          fi
        done
      done
    fi
    echo "$name done ($(date -u +%H:%M:%S), load average $(cut -d' ' -f1 /proc/loadavg))" >&2
  done
  echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/header.txt"
fi

python3 - "$OUT" "$@" <<'PY'
import os, re, sys
out, games = sys.argv[1], sys.argv[2:]

def read(path):
    return open(path, errors="replace").read() if os.path.exists(path) else ""

def fmt(rate):
    if rate is None:
        return "—"
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    if rate >= 1e4:
        return f"{rate / 1e3:.0f} k"
    if rate >= 100:
        return f"{rate:,.0f}"
    return f"{rate:.1f}"

def ratio(a, b):
    if a is None or b is None or b == 0:
        return "—"
    r = a / b
    return f"{r:,.0f}×" if r >= 10 else f"{r:.2g}×"

def why(path):
    """The last words of a run that gave no figure: its output, then its errors."""
    if not os.path.exists(path):
        return "not run"
    lines = [l for l in (read(path) + "\n" + read(path + ".err")).splitlines() if l.strip()]
    status = next((l for l in lines if l.startswith("exit status")), "")
    if status in ("exit status 124", "exit status 137"):
        t = read(path + ".time").split()
        return "killed at the time limit" + (f" ({float(t[-3]):.0f} s)" if len(t) >= 3 else "")
    errors = [l for l in lines if l.startswith(("error", "Exception", "java.")) or "Error" in l]
    return (errors[0] if errors else lines[-1] if lines else "no output")[:120]

def bouton_rate(path):
    m = re.search(r"(\d+) playouts, (\d+) transitions, \d+ transitions/s, (\d+) per CPU second", read(path))
    return (int(m.group(3)), int(m.group(2))) if m else (None, None)

propnet = any(os.path.exists(f"{out}/{os.path.basename(g).removesuffix('.kif')}.propnet") for g in games)
rows, replays = [], []
for game in games:
    name = os.path.basename(game).removesuffix(".kif")
    f = f"{out}/{name}"
    m = re.search(r"result transitions=(\d+) playouts=(\d+) goals=(\d+) wall=([\d.]+) thread_cpu=([\d.]+) process_cpu=([\d.]+)", read(f + ".ggp-base"))
    gb = gb_jvm = None
    if m and int(m.group(1)) > 0:
        t, thread, process = int(m.group(1)), float(m.group(5)), float(m.group(6))
        gb, gb_jvm = t / thread, t / process
        gb_cell = f"{fmt(gb)} ({fmt(gb_jvm)} per JVM CPU s; {t:,})"
    else:
        gb_cell = "no transition: " + why(f + ".ggp-base")
    pr, pt = bouton_rate(f + ".prover")
    pr_cell = f"{fmt(pr)} ({pt:,})" if pr else "no figure: " + why(f + ".prover")
    ir, it = bouton_rate(f + ".inspect")
    ir_cell = f"{fmt(ir)} ({it:,})" if ir else "no figure: " + why(f + ".inspect")
    c = read(f + ".machine")
    mc = re.search(r"compiled in ([\d.]+) s: .*oracle_inputs: (\d+)", c)
    ma, mt = bouton_rate(f + ".machine")
    if mc and ma:
        kind = "with oracle, " if int(mc.group(2)) > 0 else ""
        ma_cell = f"{fmt(ma)} ({mt:,}; {kind}compiled in {float(mc.group(1)):.1f} s)"
    else:
        ma_cell = "not compiled: " + why(f + ".machine")
    row = [name, gb_cell, pr_cell, ir_cell, ma_cell, ratio(pr, gb), ratio(ma, gb), ratio(ma, gb_jvm)]
    if propnet:
        n = read(f + ".propnet")
        m = re.search(r"propnet_wall=([\d.]+) propnet_cpu=([\d.]+) components=(\d+)", n)
        row.append(f"{float(m.group(1)):.1f} s ({float(m.group(2)):.1f} s CPU), {int(m.group(3)):,} components" if m
                   else "not built: " + why(f + ".propnet"))
    rows.append("| " + " | ".join(row) + " |")
    for path in sorted(p for p in os.listdir(out) if p.startswith(name + ".replay.") and p.rsplit(".", 1)[1].isdigit()):
        text = read(f"{out}/{path}")
        seed = path.rsplit(".", 1)[1]
        verdict = [l for l in text.splitlines() if l.startswith(("agree", "disagreements", "not compared"))]
        bad = [l for l in text.splitlines() if l.startswith("DISAGREE")]
        trace = read(f"{f}.trace.{seed}")
        steps = sum(1 for l in trace.splitlines() if l.startswith("step"))
        end = next((l.split("\t", 1)[1] for l in trace.splitlines() if l.startswith("end")), "?")
        replays.append(f"- {name}, seed {seed}: {steps} states, the playout ended by {end}: "
                       + (verdict[-1] if verdict else why(f"{out}/{path}")))
        replays.extend(f"  - {l[:400]}" for l in bad[:10])

print(read(f"{out}/header.txt").strip())
print()
head = ("| game | ggp-base prover | bouton prover | bouton prover, inspections | bouton machine"
        " | prover ÷ ggp-base | machine ÷ ggp-base | machine ÷ ggp-base (JVM CPU) |")
if propnet:
    head += " ggp-base propnet build |"
print(head)
print("|" + "---|" * (head.count("|") - 1))
print("\n".join(rows))
print()
print("Transitions per CPU second of the playout thread (transitions counted in brackets); ratios of those rates.")
if replays:
    print()
    print("Traces (random playouts of ggp-base's prover replayed by bouton's prover and machine, every state compared):")
    print("\n".join(replays))
PY
