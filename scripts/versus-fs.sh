#!/bin/bash
# The machine player against Fairy-Stockfish (docs/ai.md, "Against another engine"): every
# row of the bar, 20 games each, colours alternating, 4 random opening plies (both
# engines are deterministic: without them each colour would replay one game), seed 1, one
# thread per arena. boardlab's budget is a node count, about a second a move on the project's
# 2-core machine when idle (ab:300000: chess 0.86 s, Capablanca 0.87 s, xiangqi 1.1 s from
# the opening; minishogi ab:500000, 0.8 s), so the figures do not move with the machine's load.
# Usage: FS=/path/to/fairy-stockfish scripts/versus-fs.sh [OUT_DIR]   (default OUT_DIR: versus-fs/)
# Fairy-Stockfish built with largeboards=yes (Capablanca's 10 files). Arenas run two at a time;
# each writes OUT_DIR/<name>.jsonl game by game and resumes from it when run again.
set -u
: "${FS:?set FS to the Fairy-Stockfish binary}"
out=${1:-versus-fs}
bin=${BOARDLAB:-target/release/boardlab}
[ -x "$bin" ] || cargo build --release
mkdir -p "$out"
arena() { # name variant engines...
  local name=$1; shift
  local f="$out/$name"
  if [ -s "$f.txt" ] && grep -q "^engine" "$f.txt" && ! grep -q "interrupted" "$f.txt"; then return; fi
  local io=(--jsonl "$f.jsonl")
  [ -s "$f.jsonl" ] && io=(--resume-from "$f.jsonl")
  echo "$name: $*" >&2
  "$bin" arena "$@" --games 20 --seed 1 --random-plies 4 --threads 1 "${io[@]}" > "$f.txt"
}
arena chess-ab-d2 chess ab "uci:$FS@depth=2" &
arena chess-300k-d5 chess ab:300000 "uci:$FS@depth=5"
wait
arena capablanca-300k-d3 capablanca ab:300000 "uci:$FS@depth=3" &
arena minishogi-500k-d5 minishogi ab:500000 "usi:$FS@depth=5"
wait
arena xiangqi-300k-d5 xiangqi ab:300000 "uci:$FS@depth=5"
