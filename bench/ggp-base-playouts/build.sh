#!/usr/bin/env bash
# Builds the reference for bench/ggp-vs-ggp-base.sh outside this repository:
# Stanford's ggp-base (its prover state machine and propnet factory, compiled
# from its sources) and this directory's harness, Playouts.java, which calls
# ggp-base's public API. ggp-base's code never enters bouton's repository.
#
#   bench/ggp-base-playouts/build.sh [OUT]
#
# OUT (default /tmp/ggp-base-build) receives the ggp-base sources and jars
# (src/ and lib/ of the commit at HEAD of GGP_BASE_GIT), the compiled classes
# and a file `command` holding the command to put in GGP_BASE:
#
#   GGP_BASE="$(cat /tmp/ggp-base-build/command)" bench/ggp-vs-ggp-base.sh
#
# Environment: GGP_BASE_GIT, a git directory (bare or a checkout's .git) of
# ggp-org/ggp-base (default /work/.mirror/ggp-org+ggp-base/repo); JAVA_OPTS,
# options for the JVM written into the command (default -Xmx2g).
# javac compiles only the ggp-base classes the harness reaches (-sourcepath),
# for Java 17 or later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/ggp-base-build}
git_dir=${GGP_BASE_GIT:-/work/.mirror/ggp-org+ggp-base/repo}
[ -d "$git_dir/.git" ] && git_dir="$git_dir/.git"
commit=$(git --git-dir="$git_dir" rev-parse HEAD)

rm -rf "$out/src" "$out/lib" "$out/classes"
mkdir -p "$out/classes"
# Only src/ and the jars javac needs: the mirror may lack its largest files
# (lib/Jython/jython.jar), which the harness does not use.
git --git-dir="$git_dir" archive "$commit" src/main/java lib/Guava lib/reflections lib/javassist \
    lib/gdl-validation 2> >(grep -v "invalid object .* lib/Jython/" >&2) | tar -x -C "$out"
classpath=$(find "$out/lib" -name '*.jar' ! -name '*-sources.jar' | sort | tr '\n' ':')
nice javac -nowarn -encoding UTF-8 -d "$out/classes" -cp "$classpath" -sourcepath "$out/src/main/java" \
    "$here/Playouts.java" 2>&1 | grep -v '^Note: ' || true
[ -f "$out/classes/Playouts.class" ] || { echo "build failed" >&2; exit 1; }
echo "java ${JAVA_OPTS:--Xmx2g} -cp $out/classes:${classpath%:} Playouts" > "$out/command"
{
    echo "ggp-base commit: $commit ($(git --git-dir="$git_dir" log -1 --format=%cd --date=short "$commit"))"
    echo "javac: $(javac -version 2>&1)"
    echo "java: $(java -version 2>&1 | head -1)"
    echo "harness: bench/ggp-base-playouts/Playouts.java, sha1 $(sha1sum "$here/Playouts.java" | cut -c1-12)"
    echo "command: $(cat "$out/command")"
} > "$out/BUILD.txt"
cat "$out/BUILD.txt"
