#!/usr/bin/env bash
# Random playouts against RBG (Regular Boardgames, docs/selfplay.md, "Random playouts against
# RBG"): for each game both systems have, the same number of uniformly random games, one
# thread, timed as whole processes (wall clock from fork to exit, startup and the report
# included), the median of RUNS runs (default 3), the runs interleaved RBG, boardlab, old build.
# RBG's side is its flat Monte Carlo simulation test (rbg2cpp's test/simulation.cpp) linked
# with the reasoner that its compiler generates for the game; boardlab's is
# `boardlab selfplay GAME --games N --seed 1 --threads 1` (random players).
#
# RBG lives outside this repository; nothing of it is copied here. Building it (Debian 12,
# g++ 12; the generated reasoners need Boost's headers, >= 1.67):
#   apt-get install g++ make libboost-dev
#   git clone https://github.com/uicus/rbg2cpp /work/rbg/src           # tested at fd93c43
#   cd /work/rbg/src
#   git clone https://github.com/uicus/rbgParser rbgParser             # tested at d2ba9e8
#   git clone https://github.com/marekesz/rbgGames rbgGames            # tested at 80557ce
#   (or `git clone --recurse-submodules https://github.com/uicus/rbg2cpp`, which pins the same)
#   make rbg2cpp                                                       # -> bin/rbg2cpp
#   RBG_DIR=/work/rbg/src scripts/versus-rbg.sh build                  # the seven reasoners
# `build` runs, for each game G below, in RBG_DIR/sim/G/ (the flags of rbg2cpp's Makefile,
# target simulate_G):
#   ../../bin/rbg2cpp -o reasoner ../../rbgGames/games/G.rbg
#   F="-std=c++17 -Ofast -march=native -flto -s -DNDEBUG -DRBG_RANDOM_GENERATOR=0"
#   g++ $F -c -o reasoner.o reasoner.cpp
#   g++ $F -I. -o simulate reasoner.o ../../test/simulation.cpp
# and RBG_DIR/sim/G/simulate N then plays N random games of G.
#
# Usage: [RBG_DIR=/work/rbg/src] [BOARDLAB=target/release/boardlab] [OLD=/path/to/boardlab]
#        [RUNS=3] [SCALE=1] [GAMES="chess amazons"] scripts/versus-rbg.sh
# SCALE multiplies every game count (SCALE=0.1 for a quick look; the counts are chosen so that
# the faster system takes at least a second on the project's 2-core machine). GAMES picks rows
# by boardlab's variant name. Prints a Markdown table: games played, the median whole-process
# seconds of each, the ratio boardlab/RBG (below 1: boardlab is faster), and each side's mean
# game length in plies (from the first run) so that a difference in the rules shows.
set -euo pipefail
cd "$(dirname "$0")/.."
rbg=${RBG_DIR:-/work/rbg/src}
runs=${RUNS:-3}
scale=${SCALE:-1}

# boardlab variant, RBG game file (rbgGames/games/*.rbg), games
table="tic-tac-toe ticTacToe 2000000
connect-four connect4 1000000
breakthrough breakthrough 50000
othello reversi 50000
amazons amazons 4000
checkers englishDraughts 60000
chess chess 3000"

if [ "${1:-}" = build ]; then
  [ -x "$rbg/bin/rbg2cpp" ] || { echo "no $rbg/bin/rbg2cpp: build RBG's compiler first (see the top of $0)" >&2; exit 1; }
  flags=(-std=c++17 -Ofast -march=native -flto -s -DNDEBUG -DRBG_RANDOM_GENERATOR=0)
  while read -r _ game _; do
    echo "building RBG's reasoner for $game" >&2
    mkdir -p "$rbg/sim/$game"
    (cd "$rbg/sim/$game" &&
      ../../bin/rbg2cpp -o reasoner "../../rbgGames/games/$game.rbg" &&
      g++ "${flags[@]}" -c -o reasoner.o reasoner.cpp &&
      g++ "${flags[@]}" -I. -o simulate reasoner.o ../../test/simulation.cpp)
  done <<< "$table"
  exit 0
fi

bl=${BOARDLAB:-target/release/boardlab}
old=${OLD:-}
[ -x "$bl" ] || { echo "no boardlab binary at $bl: cargo build --release, or set BOARDLAB" >&2; exit 1; }
[ -z "$old" ] || [ -x "$old" ] || { echo "OLD=$old is not an executable" >&2; exit 1; }
bl=$(realpath "$bl")
[ -z "$old" ] || old=$(realpath "$old")
missing=()
while read -r variant game _; do
  if [ -z "${GAMES:-}" ] || [[ " $GAMES " == *" $variant "* ]]; then
    [ -x "$rbg/sim/$game/simulate" ] || missing+=("$rbg/sim/$game/simulate")
  fi
done <<< "$table"
if [ ${#missing[@]} -gt 0 ]; then
  echo "RBG is not built: missing ${missing[*]}" >&2
  echo "build it as the top of $0 says (clone into RBG_DIR=$rbg, make rbg2cpp, then $0 build)" >&2
  exit 1
fi

# Run from an empty folder: each boardlab build reads its own shipped variants, not ./variants.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# timed OUT CMD...: runs CMD with its output in OUT, prints its wall seconds; fails with CMD.
timed() {
  local out=$1; shift
  local t0=$EPOCHREALTIME
  if ! "$@" > "$out" 2>&1; then
    echo "failed: $* (output in $out)" >&2
    cat "$out" >&2
    exit 1
  fi
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "RBG: $rbg ($(git -C "$rbg" log -1 --format=%h 2>/dev/null || echo '?')); boardlab: $bl${old:+; old: $old}"
echo "$(date -u +%Y-%m-%d), $(nproc) cores, one thread each, median of $runs whole-process runs"
echo
if [ -n "$old" ]; then
  echo "| game | games | RBG s | boardlab s | boardlab/RBG | old s | old/RBG | plies RBG | plies boardlab |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| game | games | RBG s | boardlab s | boardlab/RBG | plies RBG | plies boardlab |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
fi
while read -r variant game n; do
  if [ -n "${GAMES:-}" ] && [[ " $GAMES " != *" $variant "* ]]; then continue; fi
  n=$(awk -v n="$n" -v s="$scale" 'BEGIN { m = int(n * s); print (m < 1 ? 1 : m) }')
  rt=(); bt=(); ot=()
  for ((i = 1; i <= runs; i++)); do
    rt+=("$(timed "rbg.$i" "$rbg/sim/$game/simulate" "$n")")
    bt+=("$(timed "bl.$i" "$bl" selfplay "$variant" --games "$n" --seed 1 --threads 1)")
    [ -z "$old" ] || ot+=("$(timed "old.$i" "$old" selfplay "$variant" --games "$n" --seed 1 --threads 1)")
  done
  r=$(median "${rt[@]}"); b=$(median "${bt[@]}")
  rp=$(awk '/^depth: avg/ { printf "%.1f", $3 }' rbg.1)
  bp=$(awk '/^length in plies: mean/ { sub(",", "", $5); print $5 }' bl.1)
  if [ -n "$old" ]; then
    o=$(median "${ot[@]}")
    echo "| $variant | $n | $r | $b | $(ratio "$b" "$r") | $o | $(ratio "$o" "$r") | $rp | $bp |"
  else
    echo "| $variant | $n | $r | $b | $(ratio "$b" "$r") | $rp | $bp |"
  fi
done <<< "$table"
