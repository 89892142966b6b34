#!/usr/bin/env bash
# Compares bouton's misère quotients (crates/misere) with A. N. Siegel's
# MisereSolver, game by game, within a fixed time budget per game for each.
#
#   MISERESOLVER="java -cp /tmp/ms/out:/tmp/ms-cmp/out org.cgsuite.core.misere.solver.Each" \
#     bench/misere-vs-miseresolver.sh [CODE…]
#
# Without codes: every octal game 0.d (d = 1..7), every 0.d1d2 (d1 = 0..7,
# d2 = 1..7; a trailing 0 gives the same game as the shorter code, so it is
# left out) and every quaternary 0.d1d2d3 (digits 0..3, d3 = 1..3: the class of
# the Plambeck–Siegel appendices) — 111 games.
#
# Environment: SECONDS_PER_GAME (default 10 s of CPU time, for each program:
# bouton cancels itself past it, MisereSolver runs under `ulimit -t`, which
# counts the JVM's compiler and collector threads too),
# UPTO (default 400, the largest heap), OUT (default /tmp/misere-vs-ms),
# MAX_ORDER (bouton's largest quotient, default 100000), TARGET (cargo target
# directory, default /work/target-misere), BOUTON (a built `compare` example
# to use instead of building one), SUMMARY_ONLY=1 (only print the summary of
# the runs already in OUT).
#
# MISERESOLVER is a command that takes `CODE MAXHEAP` and prints one line
# `heap N ORDER |P| SECONDS` per heap added, then `prefn W0 W1 …` (each heap's
# element as a word of its monoid) and `done SECONDS`. MisereSolver is not
# part of bouton and its code never enters this repository. How it was built
# here: the sources of `org.cgsuite.core.misere.solver` from CGSuite (commit
# e909ab8b of aaron-siegel/cgsuite), compiled with javac (OpenJDK 17) outside
# the project, with two throw-away shims in the same package: an octal-code
# rule set (heap options of a code: for digit k, bit 1 = take k leaving
# nothing, bit 2 = leave one heap, bit 4 = leave two non-empty heaps) in place
# of CGSuite's rule-set classes, and a main class that calls
# `MisereSolver.next()` once per heap and prints the lines above.
#
# For each game: bouton (examples/compare/) runs to UPTO or until its
# pretending function is proved periodic (heap N_b); MisereSolver then runs to
# min(UPTO, 2·N_b) when bouton proved a period (to check that its quotient
# indeed stops changing), else to UPTO, each within the budget. They are
# compared on every heap both reached: the order and |P| of the quotient of
# heaps up to n for each n, and the pretending function up to relabelling
# (which heaps share an element) on the heaps both reached, when both end
# with the same order; a change in MisereSolver's order after a heap where
# bouton proved the period is a disagreement too.
#
# Then the full quotients (isomorphism, not just size), at bouton's last heap
# N (or MisereSolver's last heap when it stopped before N, rerunning it there):
# with MS_SNAPSHOT_HEAP=N in its environment, the MisereSolver command also
# prints, after adding heap N, `ms-snapshot N ORDER GENERATORS`, `ms-genelem`
# (each generator's element), `ms-relation LHS RHS` per relation of its
# presentation, `ms-p` (its P-portion as words), `ms-words` (each element's
# word), `ms-prefn-elem` (each heap's element) and `ms-row …` (the
# multiplication table), words written as exponents joined by dots. bouton's
# compare example, run again to heap N with `--against` that output, maps
# each side's generators through heaps that represent them and checks that
# every relation of each presentation holds in the other monoid, that the
# orders agree, and that the map is one-to-one, multiplicative, matches every
# heap's element and sends P-portion onto P-portion; it prints
# `isomorphic yes: …`, `isomorphic NO: WHY` (a disagreement) or
# `isomorphic not compared: WHY`.
set -euo pipefail
: "${MISERESOLVER:?set MISERESOLVER to the MisereSolver command (see the header)}"
SECONDS_PER_GAME=${SECONDS_PER_GAME:-10}
UPTO=${UPTO:-400}
OUT=${OUT:-/tmp/misere-vs-ms}
TARGET=${TARGET:-/work/target-misere}
cd "$(dirname "$0")/.."
mkdir -p "$OUT"

if [ $# -eq 0 ]; then
  set --
  for a in 1 2 3 4 5 6 7; do set -- "$@" "0.$a"; done
  for a in 0 1 2 3 4 5 6 7; do for b in 1 2 3 4 5 6 7; do set -- "$@" "0.$a$b"; done; done
  for a in 0 1 2 3; do for b in 0 1 2 3; do for c in 1 2 3; do set -- "$@" "0.$a$b$c"; done; done; done
fi

if [ -n "${SUMMARY_ONLY:-}" ]; then
  : # Only the summary of the files already in $OUT.
elif [ -z "${BOUTON:-}" ]; then
  CARGO_TARGET_DIR=$TARGET nice cargo build --quiet --release -p bouton-misere --example compare
  BOUTON="$TARGET/release/examples/compare"
fi

[ -n "${SUMMARY_ONLY:-}" ] || {
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "budget: ${SECONDS_PER_GAME} s CPU per game and program, heaps up to $UPTO"
  echo "MisereSolver: $MISERESOLVER"
} > "$OUT/header.txt"

TIMEFORMAT='%R %U %S'
export MISERESOLVER
for code in "$@"; do
  [ -z "${SUMMARY_ONLY:-}" ] || break
  f="$OUT/$code"
  { time timeout -k 5 $((20 * SECONDS_PER_GAME + 30)) "$BOUTON" "$code" "$UPTO" "$SECONDS_PER_GAME" > "$f.bouton" 2>&1 || true; } 2> "$f.bouton.time"
  proved=$(awk '$1 == "period" { print $4 }' "$f.bouton")
  ms_upto=$UPTO
  if [ -n "$proved" ]; then ms_upto=$((2 * proved)); [ "$ms_upto" -gt "$UPTO" ] && ms_upto=$UPTO; fi
  nb=$(awk '$1 == "heap" { n = $2 } END { print n + 0 }' "$f.bouton")
  export MS_SNAPSHOT_HEAP=$nb
  { time S=$SECONDS_PER_GAME bash -c 'ulimit -t "$S"; exec timeout -k 5 $((20 * S)) $MISERESOLVER "$0" "$1"' "$code" "$ms_upto" > "$f.ms" 2>&1 || true; } 2> "$f.ms.time"
  # The full quotients at the last heap both reached: bouton again to that
  # heap, checked against MisereSolver's snapshot (see compare/against_miseresolver.rs).
  snap="$f.ms"
  nm=$(awk '$1 == "heap" { n = $2 } END { print n + 0 }' "$f.ms")
  if ! grep -q '^ms-snapshot' "$f.ms" && [ "$nm" -ge 1 ] && [ "$nm" -lt "$nb" ]; then
    snap="$f.ms-snapshot"
    MS_SNAPSHOT_HEAP=$nm S=$SECONDS_PER_GAME bash -c 'ulimit -t "$S"; exec timeout -k 5 $((20 * S)) $MISERESOLVER "$0" "$1"' "$code" "$nm" > "$snap" 2>&1 || true
  fi
  if grep -q '^ms-snapshot' "$snap"; then
    at=$(awk '$1 == "ms-snapshot" { print $2 }' "$snap")
    # Twice the budget: the same heaps again, under a load that may differ.
    timeout -k 5 $((40 * SECONDS_PER_GAME + 30)) "$BOUTON" "$code" "$at" "$((2 * SECONDS_PER_GAME))" --against "$snap" > "$f.iso" 2>&1 || echo "isomorphic not compared: bouton did not finish" >> "$f.iso"
  else
    echo "isomorphic not compared: no MisereSolver snapshot (heaps: bouton $nb, MisereSolver $nm)" > "$f.iso"
  fi
  echo "$code: $(tail -1 "$f.bouton.time") / $(tail -1 "$f.ms.time") (wall user sys); $(cut -c1-60 "$f.iso" | tail -1)" >&2
done
[ -n "${SUMMARY_ONLY:-}" ] || echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/header.txt"

python3 - "$OUT" "$@" <<'PY'
import sys
out, codes = sys.argv[1], sys.argv[2:]

def parse(path, bouton):
    heaps, prefn, period, stopped = {}, None, None, None
    times = {}
    for line in open(path, errors="replace"):
        w = line.split()
        if not w:
            continue
        if w[0] == "heap" and len(w) >= 4 and w[1].isdigit():
            heaps[int(w[1])] = (int(w[2]), int(w[3]))
            if len(w) >= 5:
                times[int(w[1])] = float(w[4])
        elif w[0] == "prefn":
            prefn = w[1:]
        elif w[0] == "period":
            period = tuple(int(x) for x in w[1:4])
        elif w[0] == "stopped":
            stopped = " ".join(w[1:])
    t = open(path + ".time").read().split()
    wall, cpu = float(t[-3]), float(t[-2]) + float(t[-1])
    return dict(heaps=heaps, prefn=prefn, period=period, stopped=stopped, wall=wall, cpu=cpu, times=times)

def changes(heaps):
    last, out = None, []
    for n in sorted(heaps):
        if heaps[n][0] != last:
            out.append((n, heaps[n][0], heaps[n][1]))
            last = heaps[n][0]
    return out

rows, bad, not_compared = [], [], []
for code in codes:
    b = parse(f"{out}/{code}.bouton", True)
    m = parse(f"{out}/{code}.ms", False)
    nb, nm = max(b["heaps"], default=0), max(m["heaps"], default=0)
    n = min(nb, nm)
    why = []
    for h in range(1, n + 1):
        if b["heaps"].get(h) != m["heaps"].get(h):
            why.append(f"heap {h}: bouton {b['heaps'].get(h)} MisereSolver {m['heaps'].get(h)}")
            break
    if b["period"] and nm > nb:
        grow = [h for h in range(nb + 1, nm + 1) if m["heaps"][h][0] != b["heaps"][nb][0]]
        if grow:
            why.append(f"bouton proved the period at heap {nb}; MisereSolver's order changes at heap {grow[0]}")
    same_partition = None
    if b["prefn"] and m["prefn"] and b["heaps"].get(nb, (0,))[0] == m["heaps"].get(nm, (1,))[0]:
        k = min(len(b["prefn"]), len(m["prefn"]))
        pb, pm = b["prefn"][:k], m["prefn"][:k]
        same_partition = all((pb[i] == pb[j]) == (pm[i] == pm[j]) for i in range(k) for j in range(i))
        if not same_partition:
            why.append("pretending functions differ (up to relabelling)")
    ob = b["heaps"].get(nb, (1, 0))
    om = m["heaps"].get(nm, (1, 0))
    ch = changes(b["heaps"])
    last = ch[-1][0] if ch else 0
    if b["period"]:
        pre, per, at = b["period"]
        status = f"finite, period {per} from heap {pre}, proved at {at}"
    else:
        why_stop = b["stopped"] or ""
        if "not available within the limits" in why_stop:
            status = f"budget spent at heap {nb + 1}"
        elif "grows past" in why_stop:
            status = f"too large at heap {nb + 1}"
        elif why_stop:
            status = f"stopped at heap {nb + 1}: {why_stop[:80]}"
        else:
            status = f"not periodic by heap {nb}"
    ms_time = m["times"].get(nb) if b["period"] else None
    ms_t = f"{ms_time:.2f} (to {nb})" if ms_time is not None else f"{m['cpu']:.2f}"
    ms_status = f"{nm}" + ("" if any(l.startswith('done') for l in open(f'{out}/{code}.ms')) else " (budget)")
    iso_path = f"{out}/{code}.iso"
    iso_lines = [l for l in open(iso_path, errors="replace")] if __import__("os").path.exists(iso_path) else []
    iso = next((l for l in iso_lines if l.startswith("isomorphic ")), "isomorphic not compared: bouton did not answer")
    iso = iso.removeprefix("isomorphic ").strip()
    if iso.startswith("yes"):
        iso_cell = "yes, to heap " + iso.split("heaps up to ")[1].split(",")[0]
    elif iso.startswith("NO"):
        iso_cell = iso
        why.append("quotients not isomorphic: " + iso[4:])
    else:
        iso_cell = iso
        not_compared.append(code)
    verdict = "agree" if not why else "DISAGREE: " + "; ".join(why)
    rows.append(f"| {code} | {ob[0]} | {ob[1]} | {last} | {status} | {nb} | {b['cpu']:.2f} | {om[0]} | {om[1]} | {ms_status} | {ms_t} | {iso_cell} | {verdict} |")
    if why:
        bad.append(f"{code}: " + "; ".join(why))

print(open(f"{out}/header.txt").read().strip())
print()
print("| game | order | \\|P\\| | last change (heap) | bouton | heaps (bouton) | bouton CPU s | MS order | MS \\|P\\| | heaps (MS) | MS s | isomorphic | compared |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
print()
print(f"{len(codes)} games, {len(bad)} disagreements, full quotients isomorphic for {len(codes) - len(not_compared) - sum('not isomorphic' in x for x in bad)}, not compared for {len(not_compared)}: {' '.join(not_compared)}")
for x in bad:
    print("- " + x)
PY
