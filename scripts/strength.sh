#!/bin/bash
# The machine player's strength figures of docs/ai.md, every shipped variant:
#   ab against random (200 games), ab against mcts:1000 (100 games), ab:d4 against ab:d2 (50
#   games), ab against itself (20 games, the share of games ended by a rule).
# Usage: scripts/strength.sh [OUT_DIR] [VARIANT...]   (default OUT_DIR: strength/)
# Each arena writes OUT_DIR/<study>-<variant>.jsonl game by game and its table to .txt; run
# the script again after a stop (Ctrl-C, a closed session) and it resumes where it was.
# Takes hours on 2 cores (Bivouac and Pyramida games run to hundreds of plies).
set -u
out=${1:-strength}
shift || true
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(checkers basileus lielow lielow-ludii bivouac hostile-bivouac pyramida pyramida-calm tic-tac-toe connect-four international russian brazilian othello breakthrough dobutsu amazons chess capablanca shatranj xiangqi minishogi antichess grasshopper nightrider pawnsideways)
bin=${BOARDLAB:-target/release/boardlab}
[ -x "$bin" ] || cargo build --release
mkdir -p "$out"
arena() { # study variant games engines...
  local study=$1 v=$2 games=$3; shift 3
  local f="$out/$study-$v"
  if [ -s "$f.txt" ] && grep -q "^engine" "$f.txt" && ! grep -q "interrupted" "$f.txt"; then return; fi
  local io=(--jsonl "$f.jsonl")
  [ -s "$f.jsonl" ] && io=(--resume-from "$f.jsonl")
  echo "$study $v: $*" >&2
  "$bin" arena "$v" "$@" --games "$games" --seed 1 --threads "${THREADS:-2}" "${io[@]}" > "$f.txt" || exit 1
  # Ctrl-C stops the arena with its table of the games finished: stop here too.
  ! grep -q "interrupted" "$f.txt" || exit 130
}
for v in "${variants[@]}"; do arena random "$v" 200 ab random; done
for v in "${variants[@]}"; do arena depth "$v" 50 ab:d4 ab:d2; done
for v in "${variants[@]}"; do arena mcts "$v" 100 ab mcts:1000; done
# ab against itself: self-play's report gives the share of games ended by the move limit.
for v in "${variants[@]}"; do
  f="$out/self-$v"
  if [ -s "$f.txt" ] && ! grep -q "interrupted" "$f.txt"; then continue; fi
  io=(--jsonl "$f.jsonl")
  [ -s "$f.jsonl" ] && io=(--resume-from "$f.jsonl")
  echo "self $v: ab against ab" >&2
  "$bin" selfplay "$v" --white ab --black ab --games 20 --seed 1 --threads "${THREADS:-2}" "${io[@]}" > "$f.txt" || exit 1
  ! grep -q "interrupted" "$f.txt" || exit 130
done
