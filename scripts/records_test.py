#!/usr/bin/env python3
"""boardlab's PGN and PDN read by real parsers (docs/protocols.md, "Records").

Usage: scripts/records_test.py PATH/TO/boardlab

- python-chess reads every game of `selfplay chess --pgn` and `selfplay antichess --pgn`
  (python-chess has no Capablanca chess, so capablanca is left out), with no error, replays
  each to the position boardlab reached playing the same game from its own `--jsonl` moves
  (board, side to move and castling rights of the FEN compared), and a decisive result tag
  says what python-chess's own rules say;
- pydraughts reads every game of `selfplay checkers --pdn` and `selfplay international --pdn`,
  plays every move (it refuses an illegal one), and a decisive result is its winner too.
Exits non-zero with a message on the first failure.
"""
import json
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.variant
import draughts
import draughts.PDN

GAMES = 10


def run(boardlab, *args):
    done = subprocess.run([boardlab, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"boardlab {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def selfplay(boardlab, tmp, variant, fmt):
    out, jsonl = os.path.join(tmp, f"{variant}.{fmt}"), os.path.join(tmp, f"{variant}.jsonl")
    # Random players end few games; a move limit keeps the records short and the run quick.
    run(boardlab, "selfplay", variant, "--games", str(GAMES), "--seed", "7", "--threads", "1",
        "--set", "move_limit=150", "--jsonl", jsonl, f"--{fmt}", out)
    with open(jsonl, encoding="utf-8") as f:
        games = {g["index"]: g for g in map(json.loads, f)}
    return out, games


def fen_fields(fen):
    board, side, castling = fen.split()[:3]
    return board, side, castling


def check_pgn(boardlab, tmp, variant):
    path, own = selfplay(boardlab, tmp, variant, "pgn")
    seen = 0
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            seen += 1
            where = f"{variant} game {game.headers.get('Round')}"
            if game.errors:
                raise SystemExit(f"{where}: python-chess: {game.errors[0]}")
            board = game.end().board()
            record = own[int(game.headers["Round"]) - 1]
            mine = run(boardlab, "position", variant, "--format", "fen", "--moves", " ".join(record["moves"])).strip()
            if fen_fields(board.fen()) != fen_fields(mine):
                raise SystemExit(f"{where}: python-chess reached {board.fen()}, boardlab {mine}")
            if board.ply() != len(record["moves"]):
                raise SystemExit(f"{where}: python-chess read {board.ply()} plies of {len(record['moves'])}")
            tag = game.headers["Result"]
            theirs = board.result(claim_draw=True)
            if tag in ("1-0", "0-1") and theirs != tag:
                raise SystemExit(f"{where}: result {tag}, python-chess says {theirs}")
            if theirs in ("1-0", "0-1") and tag != theirs:
                raise SystemExit(f"{where}: result {tag}, python-chess says {theirs}")
    if seen != GAMES:
        raise SystemExit(f"{variant}: python-chess read {seen} games of {GAMES}")
    print(f"{variant}: python-chess read and replayed {seen} PGN games")


def check_pdn(boardlab, tmp, variant):
    path, own = selfplay(boardlab, tmp, variant, "pdn")
    games = draughts.PDN.PDNReader(filename=path).games
    if len(games) != GAMES:
        raise SystemExit(f"{variant}: pydraughts read {len(games)} games of {GAMES}")
    for game in games:
        where = f"{variant} game {game.tags.get('Round')}"
        record = own[int(game.tags["Round"]) - 1]
        if len(game.moves) != len(record["moves"]):
            raise SystemExit(f"{where}: pydraughts read {len(game.moves)} moves of {len(record['moves'])}")
        board = draughts.Board(variant=game.variant)
        for i, move in enumerate(game.moves):
            try:
                board.push(draughts.Move(board, pdn_move=move))
            except Exception as e:  # pydraughts raises KeyError (or others) on a move it cannot play
                raise SystemExit(f"{where}: move {i + 1} ({move}) refused by pydraughts: {e!r}")
        result = game.game_ending
        if result in ("1-0", "0-1"):
            want = draughts.WHITE if result == "1-0" else draughts.BLACK
            if not board.is_over() or board.winner() != want:
                raise SystemExit(f"{where}: result {result}, pydraughts: over {board.is_over()}, winner {board.winner()}")
    print(f"{variant}: pydraughts read and replayed {len(games)} PDN games")


def main():
    boardlab = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for variant in ("chess", "antichess"):
            check_pgn(boardlab, tmp, variant)
        for variant in ("checkers", "international"):
            check_pdn(boardlab, tmp, variant)
    print("records: every PGN and PDN read back")


if __name__ == "__main__":
    main()
