#!/usr/bin/env python3
"""An independent perft for Go under the rules of variants/go/README.md (Tromp-Taylor's rules:
capture of groups without liberties, suicide illegal, positional superko, passing, two passes
in a row end the game), written from the rules, not from boardlab's code. It checks the counts
in variants/go/perft.txt and variants/go19/perft.txt.

    python3 tools/go_perft.py 3                     # 9 x 9, from the empty board
    python3 tools/go_perft.py 2 --size 19
    python3 tools/go_perft.py 4 --position "9/9/9/9/9/9/9/XO7/1XO6 white"

Board text (boardlab's position line): ranks from the top, X a black stone, O a white one, a
number for that many empty points, ranks separated by `/`, then the player to move. The game's
history starts at the given position: the superko rule compares each new board with the boards
since then on the path. A move is a stone on an empty point, or a pass. After a stone, every
enemy group next to it without an empty neighbour is removed; then the stone's own group must
have an empty neighbour (else the move is a suicide: illegal). A stone whose resulting board
equals any earlier board of the game is illegal (positional superko; a pass is always legal).
Two passes in a row end the game: the position after them has no moves. Plain Python.

`--ko simple` (variants/go-japanese) replaces superko by the simple ko rule: a stone is
illegal only if the board after it equals the board as it was before the opponent's last move
(an immediate retake); earlier boards may come back.
"""

import argparse

DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def parse(text, n):
    rows, side = text.split()
    board = {}
    ranks = rows.split("/")
    assert len(ranks) == n, "a board of %d ranks" % n
    for i, row in enumerate(ranks):
        r = n - 1 - i
        f = 0
        num = ""
        for ch in row + "$":
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            if ch in "XO":
                board[(f, r)] = ch
                f += 1
        assert f == n, "rank %d has %d points" % (n - i, f)
    return board, ("X" if side == "black" else "O")


class Go:
    def __init__(self, n):
        self.n = n
        self.points = [(f, r) for r in range(n) for f in range(n)]
        self.nbrs = {
            p: [(p[0] + dx, p[1] + dy) for dx, dy in DIRS if 0 <= p[0] + dx < n and 0 <= p[1] + dy < n]
            for p in self.points
        }

    def group(self, board, p):
        """The group of the stone on p and whether it has a liberty."""
        colour = board[p]
        seen = {p}
        todo = [p]
        free = False
        while todo:
            q = todo.pop()
            for x in self.nbrs[q]:
                c = board.get(x)
                if c is None:
                    free = True
                elif c == colour and x not in seen:
                    seen.add(x)
                    todo.append(x)
        return seen, free

    def play(self, board, p, colour):
        """The board after colour's stone on p, or None for a suicide."""
        b = dict(board)
        b[p] = colour
        for x in self.nbrs[p]:
            if b.get(x) not in (None, colour):
                stones, free = self.group(b, x)
                if not free:
                    for s in stones:
                        del b[s]
        _, free = self.group(b, p)
        return b if free else None

    def moves(self, board, colour, seen):
        """The legal stones (boards after them) of colour; `seen` holds the boards a stone may
        not bring back (every earlier one, or under simple ko the one before the opponent's
        last move)."""
        out = []
        for p in self.points:
            if p in board:
                continue
            b = self.play(board, p, colour)
            if b is not None and frozenset(b.items()) not in seen:
                out.append(b)
        return out

    def perft_simple(self, board, colour, depth, before, passed):
        """Leaves at depth under simple ko: `before` is the board before the last move (None at
        the start)."""
        if depth == 0:
            return 1
        other = "O" if colour == "X" else "X"
        seen = {} if before is None else {frozenset(before.items()): 1}
        stones = self.moves(board, colour, seen)
        if depth == 1:
            return len(stones) + 1
        total = sum(self.perft_simple(b, other, depth - 1, board, False) for b in stones)
        if not passed:
            total += self.perft_simple(board, other, depth - 1, board, True)
        return total

    def perft(self, board, colour, depth, seen, passed):
        """Leaves at depth. `seen`: the boards so far (a multiset as a dict); `passed`: the
        previous move was a pass."""
        if depth == 0:
            return 1
        other = "O" if colour == "X" else "X"
        stones = self.moves(board, colour, seen)
        if depth == 1:
            return len(stones) + 1
        total = 0
        for b in stones:
            key = frozenset(b.items())
            seen[key] = seen.get(key, 0) + 1
            total += self.perft(b, other, depth - 1, seen, False)
            seen[key] -= 1
            if seen[key] == 0:
                del seen[key]
        # The pass: after a pass, a second one ends the game: a leaf at its own depth only (at
        # depth 1, counted above), no moves after it.
        if not passed:
            total += self.perft(board, other, depth - 1, seen, True)
        return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("depth", type=int)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--position", default=None)
    ap.add_argument("--ko", choices=["positional", "simple"], default="positional")
    a = ap.parse_args()
    n = a.size
    text = a.position or ("/".join([str(n)] * n) + " black")
    board, colour = parse(text, n)
    g = Go(n)
    if a.ko == "simple":
        print(g.perft_simple(board, colour, a.depth, None, False))
        return
    seen = {frozenset(board.items()): 1}
    print(g.perft(board, colour, a.depth, seen, False))


if __name__ == "__main__":
    main()
