#!/usr/bin/env python3
"""An independent perft for Hex and Y with the pie rule, written from their rules
(variants/hex/README.md: the standard rules of Hex as at HexWiki and in Browne's "Hex
Strategy"; variants/y/README.md: Y as Schensted and Titus published it), not from boardlab's
code. It checks the counts in variants/hex/perft.txt and variants/y/perft.txt.

    python3 tools/hex_perft.py 3                      # Hex 11 x 11, from the empty board
    python3 tools/hex_perft.py 4 --size 4             # a 4 x 4 board
    python3 tools/hex_perft.py 3 --position "11/11/... red 12"
    python3 tools/hex_perft.py 3 --game y --size 9    # Y on a triangle of side 9

The rules as this program reads them:
- an n x n rhombus of hexagons, cells a1..; cell (file f, rank r) touches (f+-1, r), (f, r+-1),
  (f+1, r-1) and (f-1, r+1): the six neighbours when each rank is drawn half a cell to the
  right of the rank below it;
- red moves first and joins rank 1 to rank n; blue joins file a to the last file;
- a move places a stone of the mover's on any empty cell;
- the pie rule: on the second move of the game only, blue may instead `swap`: the red stone is
  replaced by a blue stone on the cell mirrored across the a1 diagonal (file and rank
  exchanged), and red moves next (the players have in effect exchanged sides);
- a player whose stones form a chain joining its two edges has won; a won position has no moves
  (perft counts it as a leaf).

Y (`--game y`): the cells (f, r) with f + r < n of the same grid (a triangle of hexagons with the
same neighbours); both players join all three sides (file a, rank 1, and the cells with
f + r = n - 1); the swap gives red's stone to blue on the same cell (the sides are the same for
both, so nothing is mirrored).

Position text (as boardlab's position line): ranks from the top (rank n first), `/` between
them, `R` a red stone, `B` or `b` a blue one, a number for that many empty cells; then the side
to move (`red`/`blue`); then, optionally, the ply (the swap is offered only at ply 1). Plain
Python, no dependency.
"""

import argparse
import sys

NEIGHBOURS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


class Hex:
    def __init__(self, n, y=False):
        self.n = n
        self.y = y
        self.board = {}  # (f, r) -> 'R' or 'B'
        self.side = "R"
        self.ply = 0
        self.won = None

    def parse(self, text):
        parts = text.split()
        rows = parts[0].split("/")
        if len(rows) != self.n:
            raise SystemExit(f"expected {self.n} ranks, got {len(rows)}")
        for i, row in enumerate(rows):
            r = self.n - 1 - i
            width = self.n - r if self.y else self.n
            f = 0
            num = ""
            for ch in row + "|":
                if ch.isdigit():
                    num += ch
                    continue
                if num:
                    f += int(num)
                    num = ""
                if ch == "|":
                    break
                if ch.upper() not in "RB":
                    raise SystemExit(f"unknown mark {ch!r}")
                self.board[(f, r)] = ch.upper()
                f += 1
            if f != width:
                raise SystemExit(f"rank {r + 1} has {f} cells, not {width}")
        self.side = {"red": "R", "blue": "B"}[parts[1]]
        self.ply = int(parts[2]) if len(parts) > 2 else 0
        # A position already won is over (judged for the player not to move, who moved last).
        for colour in "RB":
            if any(self.joined(c) for c, s in self.board.items() if s == colour):
                self.won = colour

    def joined(self, cell):
        """Whether the chain through `cell` joins its colour's two edges."""
        colour = self.board[cell]
        seen = {cell}
        stack = [cell]
        low = high = slant = False
        while stack:
            f, r = stack.pop()
            if self.y:
                low |= f == 0
                high |= r == 0
                slant |= f + r == self.n - 1
                if low and high and slant:
                    return True
            else:
                k = r if colour == "R" else f
                low |= k == 0
                high |= k == self.n - 1
                if low and high:
                    return True
            for df, dr in NEIGHBOURS:
                x = (f + df, r + dr)
                if x not in seen and self.board.get(x) == colour:
                    seen.add(x)
                    stack.append(x)
        return False

    def moves(self):
        if self.won:
            return []
        out = [(f, r) for r in range(self.n) for f in range(self.n) if (f, r) not in self.board and (not self.y or f + r < self.n)]
        if self.ply == 1 and self.side == "B":
            out.append("swap")
        return out

    def make(self, m):
        undo = (dict(self.board), self.side, self.ply, self.won)
        if m == "swap" and self.y:
            self.board = {c: ("B" if s == "R" else "R") for c, s in self.board.items()}
        elif m == "swap":
            self.board = {(r, f): ("B" if s == "R" else "R") for (f, r), s in self.board.items()}
        else:
            self.board[m] = self.side
            if self.joined(m):
                self.won = self.side
        self.side = "B" if self.side == "R" else "R"
        self.ply += 1
        return undo

    def unmake(self, undo):
        self.board, self.side, self.ply, self.won = undo


def perft(g, depth):
    if depth == 0:
        return 1
    ms = g.moves()
    if depth == 1:
        return len(ms)
    total = 0
    for m in ms:
        u = g.make(m)
        total += perft(g, depth - 1)
        g.unmake(u)
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("depth", type=int)
    ap.add_argument("--game", choices=["hex", "y"], default="hex")
    ap.add_argument("--size", type=int, default=None, help="default 11 for Hex, 9 for Y")
    ap.add_argument("--position", help="position text; default the empty board, red to move")
    ap.add_argument("--moves", default="", help="moves from the position, comma-separated (a1, swap)")
    args = ap.parse_args()
    g = Hex(args.size or (9 if args.game == "y" else 11), args.game == "y")
    if args.position:
        g.parse(args.position)
    for t in filter(None, args.moves.split(",")):
        t = t.strip().lstrip("@")
        m = "swap" if t == "swap" else (ord(t[0]) - ord("a"), int(t[1:]) - 1)
        if m not in g.moves():
            raise SystemExit(f"{t} is not legal")
        g.make(m)
    for d in range(1, args.depth + 1):
        print(d, perft(g, d))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
