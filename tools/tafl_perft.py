#!/usr/bin/env python3
"""An independent perft for Brandubh and Copenhagen Hnefatafl, written from the published rules
(variants/brandubh/README.md and variants/hnefatafl/README.md), not from boardlab's code. It
checks the counts in those variants' perft.txt.

    python3 tools/tafl_perft.py brandubh 4
    python3 tools/tafl_perft.py hnefatafl 3
    python3 tools/tafl_perft.py brandubh 2 --position "3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3 attackers"
    python3 tools/tafl_perft.py brandubh 2 --rule two_sides

Board text: ranks from the top, a letter per piece (A attacker, D defender, K king), a digit for
that many empty squares, ranks separated by `/`, then the side to move (black: the attackers,
white: the king's side). A position after a move
that ended the game (king captured, king in a corner) has no moves; a side with no move has
lost, so its position has no moves either. Plain Python, no dependency; depth 1 is counted
without making the moves (captures do not change how many moves there are).
"""

import argparse
import sys

ORTHO = [(0, 1), (1, 0), (0, -1), (-1, 0)]


class Game:
    def __init__(self, name, rule):
        self.name = name
        if name == "brandubh":
            self.n = 7
            self.start = "3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3 black"
            self.shieldwall = False
            self.encirclement = False
            # The king must be surrounded only on the throne and next to it (throne_guard), or
            # nowhere: two attackers take him anywhere (two_sides).
            c = self.n // 2
            area = [(c, c), (c - 1, c), (c + 1, c), (c, c - 1), (c, c + 1)]
            self.guard = set(area) if rule == "throne_guard" else set()
            self.edge_immune = False
        elif name == "hnefatafl":
            self.n = 11
            self.start = (
                "3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3 black"
            )
            self.shieldwall = True
            # The side whose pieces can no longer reach the edge has lost (the attackers'
            # ring about the king and all his defenders).
            self.encirclement = True
            # The king is always captured by surrounding, and never on the board edge.
            self.guard = {(f, r) for f in range(11) for r in range(11)}
            self.edge_immune = True
        else:
            raise SystemExit("unknown game " + name)
        m = self.n - 1
        self.throne = (m // 2, m // 2)
        self.corners = {(0, 0), (0, m), (m, 0), (m, m)}

    def on(self, f, r):
        return 0 <= f < self.n and 0 <= r < self.n

    def restricted(self, sq):
        return sq == self.throne or sq in self.corners

    def on_edge(self, f, r):
        return f in (0, self.n - 1) or r in (0, self.n - 1)


def side_of(p):
    return "attackers" if p == "A" else "defenders"


def parse(game, text):
    rows, side = text.split()[:2]
    # boardlab names the attackers black and the king's side white.
    side = {"black": "attackers", "white": "defenders"}.get(side, side)
    board = {}
    ranks = rows.split("/")
    assert len(ranks) == game.n, "wrong number of ranks"
    for i, row in enumerate(ranks):
        r = game.n - 1 - i
        f = 0
        num = ""
        for ch in row + "$":
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            if ch == "$":
                break
            board[(f, r)] = ch
            f += 1
        assert f == game.n, "rank %d has %d squares" % (r + 1, f)
    return board, side


def moves(game, board, side):
    out = []
    for (f, r), p in board.items():
        if side_of(p) != side:
            continue
        for df, dr in ORTHO:
            nf, nr = f + df, r + dr
            while game.on(nf, nr) and (nf, nr) not in board:
                # Empty squares are passed (the empty throne too); only the king stops on a
                # restricted square.
                if p == "K" or not game.restricted((nf, nr)):
                    out.append(((f, r), (nf, nr)))
                nf, nr = nf + df, nr + dr
    return out


def hostile(game, board, sq, victim_side):
    """Whether square sq may stand in for an enemy of victim_side."""
    if sq in game.corners:
        return True
    if sq == game.throne:
        return victim_side == "attackers" or sq not in board
    return False


def friend_or_hostile(game, board, sq, mover_side):
    """Whether sq closes a capture for mover_side: its piece (king included), or a hostile square."""
    if not game.on(*sq):
        return False
    p = board.get(sq)
    if p is not None and side_of(p) == mover_side:
        return True
    victim = "defenders" if mover_side == "attackers" else "attackers"
    if p is not None and side_of(p) == victim:
        return False
    return hostile(game, board, sq, victim)


def king_taken(game, board, ksq, mover_side):
    """The king on ksq after an attacker moved next to him: surrounded, or enclosed by two."""
    f, r = ksq
    for df, dr in ORTHO:
        s = (f + df, r + dr)
        if not game.on(*s):
            if game.edge_immune:
                return False
            return False  # (no rule here lets the edge close a side)
        if not friend_or_hostile(game, board, s, mover_side):
            return False
    return True


def captures(game, board, to, mover_side):
    taken = set()
    f, r = to
    for df, dr in ORTHO:
        n = (f + df, r + dr)
        p = board.get(n)
        if p is None or side_of(p) == mover_side:
            continue
        beyond = (f + 2 * df, r + 2 * dr)
        if p == "K" and n in game.guard:
            if king_taken(game, board, n, mover_side):
                taken.add(n)
        elif friend_or_hostile(game, board, beyond, mover_side):
            taken.add(n)
    if game.shieldwall and game.on_edge(f, r):
        taken |= shieldwall(game, board, to, mover_side)
    return taken


def shieldwall(game, board, to, mover_side):
    """Rows along the edge bracketed by the piece on `to` and a friend or a corner beyond."""
    taken = set()
    f, r = to
    m = game.n - 1
    # Each edge `to` lies on: (direction along the edge, inward direction).
    edges = []
    if r == 0:
        edges.append(((1, 0), (0, 1)))
    if r == m:
        edges.append(((1, 0), (0, -1)))
    if f == 0:
        edges.append(((0, 1), (1, 0)))
    if f == m:
        edges.append(((0, 1), (-1, 0)))
    for (af, ar), (inf, inr) in edges:
        for sign in (1, -1):
            row = []
            cf, cr = f + sign * af, r + sign * ar
            while game.on(cf, cr):
                p = board.get((cf, cr))
                if p is None or side_of(p) == mover_side:
                    break
                front = board.get((cf + inf, cr + inr))
                if front is None or side_of(front) != mover_side:
                    break
                row.append((cf, cr))
                cf, cr = cf + sign * af, cr + sign * ar
            end = (cf, cr)
            if len(row) < 2 or not game.on(*end):
                continue
            p = board.get(end)
            closes = (p is not None and side_of(p) == mover_side) or (p is None and end in game.corners)
            if closes:
                taken |= {sq for sq in row if board[sq] != "K"}
    return taken


def play(game, board, side, mv):
    """The board after mv, and whether the game is over."""
    frm, to = mv
    b = dict(board)
    p = b.pop(frm)
    b[to] = p
    for sq in captures(game, b, to, side):
        del b[sq]
    king = [sq for sq, q in b.items() if q == "K"]
    over = not king or king[0] in game.corners
    if game.encirclement and not over:
        over = shut_in(game, b, "defenders" if side == "attackers" else "attackers")
    return b, over


def shut_in(game, board, side):
    """Copenhagen's encirclement: no piece of `side` can reach the board edge by rook steps
    through squares not held by the enemy (its own pieces do not block it)."""
    todo = [sq for sq, p in board.items() if side_of(p) == side]
    seen = set(todo)
    while todo:
        f, r = todo.pop()
        if game.on_edge(f, r):
            return False
        for df, dr in ORTHO:
            n = (f + df, r + dr)
            if game.on(*n) and n not in seen and (n not in board or side_of(board[n]) == side):
                seen.add(n)
                todo.append(n)
    return bool(seen)


def perft(game, board, side, depth):
    ms = moves(game, board, side)
    if depth == 1:
        return len(ms)
    other = "defenders" if side == "attackers" else "attackers"
    total = 0
    for mv in ms:
        b, over = play(game, board, side, mv)
        if not over:
            total += perft(game, b, other, depth - 1)
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=["brandubh", "hnefatafl"])
    ap.add_argument("depth", type=int)
    ap.add_argument("--position")
    ap.add_argument("--rule", default="throne_guard", choices=["throne_guard", "two_sides"])
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    game = Game(a.game, a.rule)
    board, side = parse(game, a.position or game.start)
    if a.divide:
        other = "defenders" if side == "attackers" else "attackers"
        for mv in sorted(moves(game, board, side)):
            b, over = play(game, board, side, mv)
            n = 1 if a.depth == 1 else (0 if over else perft(game, b, other, a.depth - 1))
            name = lambda s: "abcdefghijk"[s[0]] + str(s[1] + 1)
            print(name(mv[0]) + "-" + name(mv[1]), n)
    print(perft(game, board, side, a.depth) if a.depth > 0 else 1)


if __name__ == "__main__":
    sys.exit(main())
