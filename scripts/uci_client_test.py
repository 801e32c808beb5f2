#!/usr/bin/env python3
"""boardlab's `uci` driven by a real client: python-chess's engine module.

Usage: scripts/uci_client_test.py PATH/TO/boardlab

- a 40-ply chess game: boardlab (white, depth 2, then a clock) against seeded random moves;
  every bestmove must be legal in python-chess (which raises on an illegal one anyway);
- boardlab against itself for 40 plies, each side with a different limit kind
  (depth, nodes, time, clock);
- an analysis (`go infinite` then `stop`) whose principal variation python-chess replays;
- antichess through UCI_Variant (python-chess's AntichessBoard sets it itself), 20 plies.
Exits non-zero with a message on the first failure.
"""
import random
import sys

import chess
import chess.engine
import chess.variant


def check_move(board, result, who):
    move = result.move
    if move is None:
        raise SystemExit(f"{who}: no move in {board.fen()}")
    if move not in board.legal_moves:
        raise SystemExit(f"{who}: illegal bestmove {move} in {board.fen()}")
    board.push(move)


def game_against_random(engine, plies=40):
    board = chess.Board()
    rng = random.Random(1)
    limits = [chess.engine.Limit(depth=2), chess.engine.Limit(white_clock=30, black_clock=30, white_inc=0.1, black_inc=0.1)]
    for ply in range(plies):
        if board.is_game_over():
            break
        if ply % 2 == 0:
            check_move(board, engine.play(board, limits[(ply // 2) % 2]), "boardlab against random")
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return board


def game_against_itself(engine, plies=40):
    board = chess.Board()
    limits = [chess.engine.Limit(depth=2), chess.engine.Limit(nodes=2000), chess.engine.Limit(time=0.05)]
    for ply in range(plies):
        if board.is_game_over():
            break
        check_move(board, engine.play(board, limits[ply % len(limits)]), "boardlab against itself")
    return board


def analysis(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with engine.analysis(board) as run:
        for info in run:
            if info.get("depth", 0) >= 2 and info.get("pv"):
                break
    info = run.info
    replay = board.copy()
    for move in info.get("pv", []):
        if move not in replay.legal_moves:
            raise SystemExit(f"analysis: pv move {move} illegal in {replay.fen()}")
        replay.push(move)
    if "score" not in info:
        raise SystemExit(f"analysis: no score in {info}")
    return info


def antichess(engine, plies=20):
    board = chess.variant.AntichessBoard()
    rng = random.Random(2)
    for ply in range(plies):
        if board.is_game_over():
            break
        if ply % 2 == 0:
            check_move(board, engine.play(board, chess.engine.Limit(depth=2)), "antichess")
        else:
            board.push(rng.choice(list(board.legal_moves)))
    return board


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    with chess.engine.SimpleEngine.popen_uci([sys.argv[1], "uci"]) as engine:
        if "UCI_Variant" not in engine.options:
            raise SystemExit("no UCI_Variant option")
        b = game_against_random(engine)
        print(f"against random: {b.ply()} plies, {b.fen()}")
        b = game_against_itself(engine)
        print(f"against itself: {b.ply()} plies, {b.fen()}")
        info = analysis(engine)
        print(f"analysis: depth {info.get('depth')}, score {info.get('score')}, pv {' '.join(m.uci() for m in info.get('pv', []))}")
        b = antichess(engine)
        print(f"antichess: {b.ply()} plies, {b.fen()}")
    print("python-chess: all checks passed")


if __name__ == "__main__":
    main()
