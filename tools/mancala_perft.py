#!/usr/bin/env python3
"""Perft for Kalah(6,4) and Oware (Abapa), written from the rules in the variants' READMEs,
not from boardlab's code: an independent check of variants/kalah/perft.txt and
variants/oware/perft.txt.

    python3 tools/mancala_perft.py kalah DEPTH [--position "…"] [--divide]
    python3 tools/mancala_perft.py oware DEPTH [--position "…"]

A position is the counts of the 14 (Kalah) or 12+2 (Oware) cells and who moves, written as
boardlab's position text's `seeds=` field and side: `--position "south seeds=4,4,…"`.
Board (both games): south's pits 0..5 (b1..g1, left to right), north's pits 7..12 (g2..b2,
right to left), south's store 6 (h1), north's store 13 (a2). Sowing is counter-clockwise:
0, 1, …, 12, 13, 0.

Counting: every move (ply) is a node, an extra move included (Kalah's last seed in the own
store is a ply of the same player). A finished game has no moves: it counts as a leaf at its own
depth only (boardlab's perft convention).
"""
import sys

SOUTH, NORTH = 0, 1
PITS = {SOUTH: list(range(0, 6)), NORTH: list(range(7, 13))}
STORE = {SOUTH: 6, NORTH: 13}


def opposite(c):
    # b1 (0) faces b2 (12), c1 (1) faces c2 (11), …
    return 12 - c


# ---- Kalah: sow through the own store, not the opponent's; the last seed in the own
# store earns another move; the last seed in an own empty pit takes it and the opposite pit
# when that pit holds seeds; when either side is empty, each side's seeds go to its owner's
# store and the game is over.


def kalah_moves(s, p):
    return [c for c in PITS[p] if s[c] > 0]


def kalah_play(s, p, c):
    """Returns (new seeds, next player, over)."""
    s = list(s)
    n, s[c] = s[c], 0
    i = c
    while n > 0:
        i = (i + 1) % 14
        if i == STORE[1 - p]:
            continue
        s[i] += 1
        n -= 1
    nxt = 1 - p
    if i == STORE[p]:
        nxt = p
    elif i in PITS[p] and s[i] == 1 and s[opposite(i)] > 0:
        s[STORE[p]] += 1 + s[opposite(i)]
        s[i] = 0
        s[opposite(i)] = 0
    if any(sum(s[x] for x in PITS[q]) == 0 for q in (SOUTH, NORTH)):
        for q in (SOUTH, NORTH):
            s[STORE[q]] += sum(s[x] for x in PITS[q])
            for x in PITS[q]:
                s[x] = 0
        return s, nxt, True
    return s, nxt, False


# ---- Oware (Abapa): the 12 pits only; the origin pit is skipped on laps; the last seed in an
# opponent's pit making 2 or 3 takes it and the unbroken run of such pits before it on the
# opponent's side, unless that takes all the opponent's seeds (grand slam: the move is legal,
# nothing is captured); a player must leave the opponent seeds when the opponent has none; a
# store with more than 24 ends the game; a player with no legal move ends it, each side's
# seeds going to its owner.
RING = list(range(0, 6)) + list(range(7, 13))


def oware_sow(s, p, c):
    s = list(s)
    n, s[c] = s[c], 0
    k = RING.index(c)
    last = c
    while n > 0:
        k = (k + 1) % 12
        if RING[k] == c:
            continue
        s[RING[k]] += 1
        last = RING[k]
        n -= 1
    return s, last


def oware_capture(s, p, last):
    opp = PITS[1 - p]
    run = []
    k = RING.index(last)
    while RING[k] in opp and s[RING[k]] in (2, 3):
        run.append(RING[k])
        k = (k - 1) % 12
    taken = sum(s[x] for x in run)
    if not run or taken == sum(s[x] for x in opp):
        return s
    s = list(s)
    for x in run:
        s[x] = 0
    s[STORE[p]] += taken
    return s


def oware_moves(s, p):
    out = []
    starving = sum(s[x] for x in PITS[1 - p]) == 0
    for c in PITS[p]:
        if s[c] == 0:
            continue
        if starving:
            after, _ = oware_sow(s, p, c)
            if sum(after[x] for x in PITS[1 - p]) == 0:
                continue
        out.append(c)
    return out


def oware_play(s, p, c):
    after, last = oware_sow(s, p, c)
    after = oware_capture(after, p, last)
    nxt = 1 - p
    total = sum(after)
    over = after[STORE[p]] * 2 > total or not oware_moves(after, nxt)
    if over:
        for q in (SOUTH, NORTH):
            after[STORE[q]] += sum(after[x] for x in PITS[q])
            for x in PITS[q]:
                after[x] = 0
    return after, nxt, over


def perft(game, s, p, depth):
    moves_of, play = (kalah_moves, kalah_play) if game == "kalah" else (oware_moves, oware_play)
    if depth == 0:
        return 1
    n = 0
    for c in moves_of(s, p):
        t, q, over = play(s, p, c)
        # A finished game has no moves: it is a leaf at its own depth only.
        n += 1 if depth == 1 else 0 if over else perft(game, t, q, depth - 1)
    return n


# The position text's `seeds=` order is the variant's declared track, then the stores not on
# it: Kalah's is b1..g1, h1, g2..b2, a2 (cells 0..13); Oware's b1..g1, g2..b2, h1, a2.
def parse(game, text):
    words = text.split()
    p = {"south": SOUTH, "north": NORTH}[words[0]]
    s = None
    for w in words[1:]:
        if w.startswith("seeds="):
            c = [int(x) for x in w[6:].split(",")]
            s = c if game == "kalah" else c[:6] + [c[12]] + c[6:12] + [c[13]]
    return s, p


NAMES = ["b1", "c1", "d1", "e1", "f1", "g1", "h1", "g2", "f2", "e2", "d2", "c2", "b2", "a2"]


def main():
    args = sys.argv[1:]
    game, depth = args[0], int(args[1])
    if "--position" in args:
        s, p = parse(game, args[args.index("--position") + 1])
    else:
        s, p = [4] * 14, SOUTH
        s[6] = s[13] = 0
    if "--divide" in args:
        moves_of, play = (kalah_moves, kalah_play) if game == "kalah" else (oware_moves, oware_play)
        for c in moves_of(s, p):
            t, q, over = play(s, p, c)
            print(NAMES[c], 1 if depth == 1 else 0 if over else perft(game, t, q, depth - 1))
    print(perft(game, s, p, depth))


if __name__ == "__main__":
    main()
