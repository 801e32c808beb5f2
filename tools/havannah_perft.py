#!/usr/bin/env python3
"""An independent perft for Havannah with the pie rule, written from the rules
(variants/havannah/README.md: Christian Freeling's rules as mindsports.nl and Wikipedia's
"Havannah" state them), not from boardlab's code. It checks the counts in
variants/havannah/perft.txt.

    python3 tools/havannah_perft.py 3                          # base 8, from the empty board
    python3 tools/havannah_perft.py 2 --moves h8,swap          # after an opening and the swap
    python3 tools/havannah_perft.py 4 --position "8/9/... white 120"
    python3 tools/havannah_perft.py --random 7 --before 6      # a position 6 plies before the
                                                               # end of a random game (seed 7)

The rules as this program reads them:
- a hexagon of hexagons, `base` cells a side, on the grid of files a.. and ranks 1..
  (n = 2 * base - 1 of each): the cells (f, r), both counted from 0, with
  base - 1 <= f + r <= 3 * (base - 1); cell (f, r) touches (f+-1, r), (f, r+-1), (f+1, r-1)
  and (f-1, r+1) (each rank drawn half a cell right of the rank below);
- the six corners are the cells with three neighbours; the other rim cells (four neighbours)
  make the six edges, the rim between two corners: r = 0, f = n - 1, f + r = 3 (base - 1), r = n - 1, f = 0,
  f + r = base - 1 (a corner lies on two of these lines and belongs to no edge);
- white moves first; a move places a stone of the mover's on any empty cell;
- the pie rule: on the second move of the game only, black may instead `swap`: white's stone
  becomes black's, on its cell, and white moves next;
- after a move, the mover wins if the chain (stones of its colour joined through neighbours)
  through the new stone
    * joins two corners (a bridge), or
    * touches three edges (a fork), or
    * is a ring: some cell not in the chain cannot reach the rim's outside through cells not in
      the chain (whatever those cells hold); this program tests it over the whole board, a
      flood from every rim cell outside the chain;
- a full board with no winner is a draw; a finished game has no moves (perft counts it as a
  leaf).

Position text (as boardlab's position line): ranks from the top (rank n first), `/` between
them, each rank listing only its cells, `W` a white stone, `B` a black one, a number for that
many empty cells; then the side to move (`white`/`black`); then, optionally, the ply (the swap
is offered only at ply 1). Plain Python, no dependency.
"""

import argparse
import random
import sys

STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


class Havannah:
    def __init__(self, base):
        self.base = base
        self.n = 2 * base - 1
        lo, hi = base - 1, 3 * (base - 1)
        self.cells = [(f, r) for r in range(self.n) for f in range(self.n) if lo <= f + r <= hi]
        self.on = set(self.cells)
        self.near = {c: [(c[0] + a, c[1] + b) for a, b in STEPS if (c[0] + a, c[1] + b) in self.on] for c in self.cells}
        self.corners = {c for c in self.cells if len(self.near[c]) == 3}
        self.rim = {c for c in self.cells if len(self.near[c]) < 6}
        n = self.n
        sides = [lambda f, r: r == 0, lambda f, r: f == n - 1, lambda f, r: f + r == hi,
                 lambda f, r: r == n - 1, lambda f, r: f == 0, lambda f, r: f + r == lo]
        self.edge = {}
        for c in self.rim - self.corners:
            (i,) = [i for i, s in enumerate(sides) if s(*c)]
            self.edge[c] = i
        assert len(self.corners) == 6 and len(self.edge) == 6 * (base - 2)
        self.board = {}
        self.side = "W"
        self.ply = 0
        self.over = False

    def name(self, c):
        return f"{chr(97 + c[0])}{c[1] + 1}"

    def cell(self, text):
        c = (ord(text[0]) - 97, int(text[1:]) - 1)
        if c not in self.on:
            raise SystemExit(f"{text} is not a cell")
        return c

    def parse(self, text):
        parts = text.split()
        rows = parts[0].split("/")
        if len(rows) != self.n:
            raise SystemExit(f"expected {self.n} ranks, got {len(rows)}")
        for i, row in enumerate(rows):
            r = self.n - 1 - i
            files = [f for f in range(self.n) if (f, r) in self.on]
            k, num = 0, ""
            for ch in row + "|":
                if ch.isdigit():
                    num += ch
                    continue
                if num:
                    k += int(num)
                    num = ""
                if ch == "|":
                    break
                if ch not in "WB":
                    raise SystemExit(f"unknown mark {ch!r}")
                self.board[(files[k], r)] = ch
                k += 1
            if k != len(files):
                raise SystemExit(f"rank {r + 1} has {k} cells, not {len(files)}")
        self.side = {"white": "W", "black": "B"}[parts[1]]
        self.ply = int(parts[2]) if len(parts) > 2 else 0
        # A position already won is over (any chain of either colour).
        self.over = len(self.board) == len(self.cells) or any(self.wins(c) for c in self.board)

    def text(self):
        rows = []
        for r in reversed(range(self.n)):
            row, empty = "", 0
            for f in range(self.n):
                if (f, r) not in self.on:
                    continue
                s = self.board.get((f, r))
                if s is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += s
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows) + " " + {"W": "white", "B": "black"}[self.side] + f" {self.ply}"

    def chain(self, cell):
        colour = self.board[cell]
        seen, stack = {cell}, [cell]
        while stack:
            for x in self.near[stack.pop()]:
                if x not in seen and self.board.get(x) == colour:
                    seen.add(x)
                    stack.append(x)
        return seen

    def kind(self, cell):
        """The win the chain through `cell` makes: 'ring', 'bridge', 'fork' or None."""
        chain = self.chain(cell)
        if len(chain & self.corners) >= 2:
            return "bridge"
        if len({self.edge[c] for c in chain if c in self.edge}) >= 3:
            return "fork"
        # Outside: every cell not in the chain reached from the rim through cells not in it.
        out = [c for c in self.rim if c not in chain]
        seen = set(out)
        while out:
            for x in self.near[out.pop()]:
                if x not in seen and x not in chain:
                    seen.add(x)
                    out.append(x)
        if len(seen) + len(chain) < len(self.cells):
            return "ring"
        return None

    def wins(self, cell):
        return self.kind(cell) is not None

    def moves(self):
        if self.over:
            return []
        ms = [c for c in self.cells if c not in self.board]
        if self.ply == 1:
            ms.append("swap")
        return ms

    def play(self, m):
        """Plays `m`; returns what undo needs."""
        undo = (m, self.side, self.ply, self.over)
        if m == "swap":
            for c in self.board:
                self.board[c] = "B"
        else:
            self.board[m] = self.side
            self.over = self.wins(m) or len(self.board) == len(self.cells)
        self.side = "B" if self.side == "W" else "W"
        self.ply += 1
        return undo

    def undo(self, u):
        m, self.side, self.ply, self.over = u
        if m == "swap":
            for c in self.board:
                self.board[c] = "W"
        else:
            del self.board[m]

    def perft(self, depth):
        ms = self.moves()
        if depth == 1:
            return len(ms)
        total = 0
        for m in ms:
            u = self.play(m)
            total += self.perft(depth - 1)
            self.undo(u)
        return total


def random_position(h, seed, before):
    """Plays a random game (seeded) and returns the position `before` plies before its end,
    with the end's kind."""
    rng = random.Random(seed)
    line = []
    while not h.over:
        m = rng.choice([c for c in h.cells if c not in h.board])
        line.append(m)
        h.play(m)
    last = line[-1]
    kind = h.kind(last) if last in h.board else None
    for _ in range(before):
        m = line.pop()
        h.over = False
        del h.board[m]
        h.side = "B" if h.side == "W" else "W"
        h.ply -= 1
    return h.text(), kind, len(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("depth", type=int, nargs="?", default=0)
    ap.add_argument("--base", type=int, default=8)
    ap.add_argument("--moves", default="")
    ap.add_argument("--position")
    ap.add_argument("--random", type=int, help="a random game's seed: print a position near its end")
    ap.add_argument("--before", type=int, default=6)
    a = ap.parse_args()
    h = Havannah(a.base)
    if a.random is not None:
        text, kind, ply = random_position(h, a.random, a.before)
        print(f'position="{text}"  # the game ended by {kind} at ply {ply + a.before}')
        return
    if a.position:
        h.parse(a.position)
    for m in filter(None, a.moves.split(",")):
        m = m.lstrip("@")
        move = "swap" if m == "swap" else h.cell(m)
        if move not in h.moves():
            raise SystemExit(f"{m} is not legal here")
        h.play(move)
    for d in range(1, a.depth + 1):
        print(d, h.perft(d))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
