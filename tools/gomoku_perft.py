#!/usr/bin/env python3
"""Gomoku perft, written apart from boardlab to check variants/gomoku*/perft.txt.

The rules, from the variants' README: a 15x15 board; the side to move places a stone on any
empty point; a stone that makes an unbroken line of five of its colour (across, down or
diagonally) through itself wins at once and the game has no more moves. Freestyle: a line of
five or more wins; exactly five (standard Gomoku): only a line of exactly five wins, an overline
does not. A full board without a win is a draw (no moves).

Positions are boardlab's position lines: rows from rank 15 down to rank 1, '/' between them,
digits for runs of empty points, X for white's stones, O for black's; then the side to move and
the ply. Run: python3 tools/gomoku_perft.py  (prints each check as a perft.txt line)
"""
import sys

N = 15
AXES = [(1, 0), (0, 1), (1, 1), (1, -1)]


def parse(text):
    rows, side, ply = text.split()
    board = {}
    ranks = rows.split('/')
    assert len(ranks) == N, len(ranks)
    for i, row in enumerate(ranks):
        y = N - 1 - i
        x, num = 0, ''
        for ch in row + '$':
            if ch.isdigit():
                num += ch
                continue
            if num:
                x += int(num)
                num = ''
            if ch in 'XO':
                board[(x, y)] = ch
                x += 1
        assert x == N, (row, x)
    return board, ('X' if side == 'white' else 'O'), int(ply)


def run(board, x, y, dx, dy, me):
    n = 1
    for s in (1, -1):
        cx, cy = x + s * dx, y + s * dy
        while 0 <= cx < N and 0 <= cy < N and board.get((cx, cy)) == me:
            n += 1
            cx, cy = cx + s * dx, cy + s * dy
    return n


def wins(board, x, y, me, exact):
    for dx, dy in AXES:
        n = run(board, x, y, dx, dy, me)
        if n == 5 or (n > 5 and not exact):
            return True
    return False


def perft(board, me, depth, exact, over=False):
    if depth == 0:
        return 1
    if over:
        return 0
    empties = [(x, y) for y in range(N) for x in range(N) if (x, y) not in board]
    if depth == 1:
        return len(empties)
    other = 'O' if me == 'X' else 'X'
    total = 0
    for (x, y) in empties:
        board[(x, y)] = me
        total += perft(board, other, depth - 1, exact, wins(board, x, y, me, exact))
        del board[(x, y)]
    return total


def text(board, side, ply):
    rows = []
    for y in range(N - 1, -1, -1):
        row, gap = '', 0
        for x in range(N):
            s = board.get((x, y))
            if s is None:
                gap += 1
                continue
            if gap:
                row += str(gap)
                gap = 0
            row += s
        if gap:
            row += str(gap)
        rows.append(row)
    return '/'.join(rows) + f' {side} {ply}'


def full_board(empty, overrides):
    """A full board with no line of five (runs of at most two in every direction: the colour of
    (x, y) is X when (x + 2y) mod 4 < 2), some points emptied, some stones overridden."""
    board = {(x, y): ('X' if (x + 2 * y) % 4 < 2 else 'O') for y in range(N) for x in range(N)}
    for c in empty:
        del board[c]
    board.update(overrides)
    return board


def cell(name):
    return (ord(name[0]) - ord('a'), int(name[1:]) - 1)


# The positions checked, each with the depths and whether the line must be exactly five.
CHECKS = []
# White has four in a row on rank 8 (f8-i8), open at both ends; black three on rank 9.
FOUR = {cell(c): 'X' for c in ['f8', 'g8', 'h8', 'i8']} | {cell(c): 'O' for c in ['f9', 'g9', 'h9', 'a1']}
CHECKS.append((text(FOUR, 'white', 8), [1, 2]))
# A broken line d8 e8 f8 . h8 i8: g8 makes six (an overline).
SIX = {cell(c): 'X' for c in ['d8', 'e8', 'f8', 'h8', 'i8']} | {cell(c): 'O' for c in ['d9', 'e9', 'f9', 'h9']}
CHECKS.append((text(SIX, 'black', 9), [1, 2]))
SIX[cell('a1')] = 'O'
CHECKS.append((text(SIX, 'white', 10), [1, 2]))


def standing(board):
    """The lines of five or more already on the board (a check position has none)."""
    out = []
    for (x, y), s in board.items():
        for dx, dy in AXES:
            if board.get((x - dx, y - dy)) != s and run(board, x, y, dx, dy, s) >= 5:
                out.append((x, y, dx, dy))
    return out


def near_full():
    # Twelve empty points; the stones around them overridden so that lines of five and six are
    # one stone away for both sides, in all four directions.
    empty = [cell(c) for c in ['c3', 'h8', 'h9', 'd12', 'm4', 'k11', 'o15', 'a1', 'e5', 'l2', 'g14', 'j6']]
    over = {}
    for c in ['e8', 'f8', 'g8', 'i8', 'j8']:            # h8 makes six across (white): e8-j8
        over[cell(c)] = 'X'
    for c in ['d8', 'k8']:
        over[cell(c)] = 'O'
    for c in ['h5', 'h6', 'h7', 'h10']:                  # h8 + h9 make vertical lines
        over[cell(c)] = 'O'
    for c in ['a4', 'b3', 'd1']:                         # c3 on an anti-diagonal with e1? (b4-c3-d2)
        over[cell(c)] = 'X'
    for c in ['b2', 'd4', 'f6', 'g7']:                   # e5 completes a1..g7 diagonal: a1 empty
        over[cell(c)] = 'O'
    for c in ['j10', 'l12', 'm13']:                      # k11 on the diagonal i9-m13
        over[cell(c)] = 'X'
    over[cell('i9')] = 'X'
    over[cell('j11')] = 'O'                              # else j7-j11 would stand as five
    board = full_board(empty, over)
    # Even the stones out (white has at most one more): turn white's first stones from the top rank to black's
    # where that makes no standing line.
    for y in range(N - 1, -1, -1):
        for x in range(N):
            xs = sum(1 for s in board.values() if s == 'X')
            if xs - (len(board) - xs) <= 1:
                break
            if board.get((x, y)) == 'X' and (x, y) not in over:
                board[(x, y)] = 'O'
                if standing(board):
                    board[(x, y)] = 'X'
    xs = sum(1 for s in board.values() if s == 'X')
    return board, xs, len(board) - xs


NEAR, NX, NO = near_full()
CHECKS.append((text(NEAR, "white" if NX == NO else "black", NX + NO), [1, 2, 3, 4, 5, 6]))


def main():
    for pos, depths in CHECKS:
        board, me, ply = parse(pos)
        xs = sum(1 for s in board.values() if s == 'X')
        assert not standing(board), (pos, standing(board))
        assert xs - (len(board) - xs) == (0 if me == 'X' else 1) and ply == len(board), pos
        for exact in (False, True):
            for d in depths:
                n = perft(dict(board), me, d, exact)
                tag = 'set=overline:does_not_win ' if exact else ''
                print(f'{d} {n} {tag}position="{pos}" # independent: tools/gomoku_perft.py')
    sys.stdout.flush()


if __name__ == '__main__':
    main()
