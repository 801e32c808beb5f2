#!/usr/bin/env python3
"""boardlab against Fairy-Stockfish (pyffish) move for move: the legal moves, the game's end and
the FENs, for every shipped variant that names its Fairy-Stockfish counterpart (`[notation]
fairy_stockfish` in variants/*/variant.toml).

Usage: scripts/fen_oracle_test.py PATH/TO/boardlab [--games N] [--plies N] [--seed S]
                                  [--variants a,b,...] [--table FILE]

Also Othello, Connect Four and tic-tac-toe, which name none (their moves and FENs do not
translate one to one: Othello is `flipello` mirrored, the other two are only in Fairy-Stockfish's
example variants.ini, loaded here), through a translation of symbols, ranks and moves (EXTRA).

For each variant:
- at every ply the two programs agree on whether the game is over and how it ended (the winner,
  or a draw: Fairy-Stockfish's `game_result` when it lists no move, `is_immediate_game_end`,
  and `is_optional_game_end` for the ends its rules let a player claim), and, while it goes on,
  on the set of legal moves (boardlab's UCI form, translated for the EXTRA pairs);
- the start: boardlab's FEN (`boardlab fen V`) equals Fairy-Stockfish's (`get_fen` of
  `start_fen`, its canonical form: `start_fen` itself may leave out empty fields);
- N random games of at most N plies, each move drawn from the moves both programs list
  (`boardlab fen` prints its legal moves in UCI form, pyffish's `legal_moves`): after every move
  boardlab's FEN (boardlab playing the moves itself) equals Fairy-Stockfish's (`get_fen`), and
  boardlab reads Fairy-Stockfish's FEN and writes it back identically (`boardlab fen V --fen F`);
- a game boardlab ends also reads back finished from its FEN (`result:`), unless it ended by
  what only the moves tell (repetition, a move-count rule), which a FEN cannot carry.

Documented differences (docs/protocols.md, "FEN"), normalised before comparing and counted:
- clock: Fairy-Stockfish counts the half-move clock in every variant; boardlab keeps it only
  where the variant has a `quiet_moves` end, and writes 0 elsewhere;
- en passant: Fairy-Stockfish writes the cell only when an en passant capture is legal,
  boardlab whenever a double step passed it (the PGN standard's rule);
- the order of the kinds in a hand (the same pieces, another order);
- pawnsideways: boardlab restarts the clock on every pawn move, sideways steps too;
  Fairy-Stockfish only on a move that cannot be undone (the variant's README);
- Fairy-Stockfish's en passant field may list the double step's landing cell too (`h5h6`,
  pawnsideways); a captured royal piece goes to its hand (dōbutsu's lion, when the game is
  over: such a FEN is not read back, boardlab has no hand for a royal kind);
- amazons: boardlab's arrows are pieces of the shooter (`X`/`x`), Fairy-Stockfish's are walls
  (`*`, nobody's): compared as `*`; a FEN with walls is not read back (boardlab cannot tell
  whose arrow a wall is).
A difference in moves or ends that a variant has on purpose or that is a known open defect is
listed in KNOWN with its reason and counted apart (it does not fail the run).
Anything else is a mismatch: the script prints each kind with its first example, writes the
table (--table) and exits 1.
"""
import argparse
import collections
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pyffish as sf

ROOT = Path(__file__).resolve().parent.parent

# Variants whose half-move clock differs from Fairy-Stockfish's by a rule (their README says why).
CLOCK_DIFFERS = {"pawnsideways": "clock restarted by a sideways pawn step (README)"}

# Differences in moves or ends known per variant: (variant, kind) -> reason. The kinds are those
# of `compare_moves` and `compare_end`. Each is either the variant's reading (its README says
# so) or an open defect (marked so); neither fails the run, both are counted in the table.
KNOWN = {
    ("chess", "Fairy-Stockfish ends the game, boardlab plays on"): "README: a dead position (e.g. bishops on one colour) plays on",
    ("capablanca", "Fairy-Stockfish ends the game, boardlab plays on"): "README (chess's rules): a dead position plays on",
}


# Fairy-Stockfish's tic-tac-toe and Connect Four: not built in, but in its example
# variants.ini (src/variants.ini), from which these sections are copied.
VARIANTS_INI = """
[tictactoe]
maxRank = 3
maxFile = 3
immobile = p
startFen = 3/3/3[PPPPPpppp] w - - 0 1
pieceDrops = true
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 3

[cfour]
maxRank = 6
maxFile = 7
immobile = p
startFen = 7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1
pieceDrops = true
enclosingDrop = top
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 4
nMoveRule = 0
"""


class Pair:
    """A boardlab variant and its Fairy-Stockfish counterpart, with the translation between
    them: none for the variants that name it (`[notation] fairy_stockfish`); for the others
    (EXTRA) boardlab's symbols become Fairy-Stockfish's, the ranks may be mirrored, and
    Fairy-Stockfish's supply of pieces in hand is left out."""

    def __init__(self, variant, fs, symbols=None, mirror=False):
        self.variant, self.fs, self.symbols, self.mirror = variant, fs, symbols or {}, mirror
        self.back = {b: a for a, b in self.symbols.items()}
        self.translated = bool(symbols) or mirror

    def _cell(self, cell, ranks):
        return cell[0] + str(ranks + 1 - int(cell[1:])) if self.mirror else cell

    def move_to_fs(self, m, ranks, fs_legal, board=None):
        """boardlab's UCI move as Fairy-Stockfish writes it: drops and passes for the EXTRA pairs;
        in the shogi family (where Fairy-Stockfish writes a promotion as `+`), boardlab's
        promotion letter becomes `+` (or nothing when the piece keeps its kind, as `d3b1b`
        declining, needs `board`: the cells' letters), and a move whose promotion is forced,
        which boardlab writes without a letter, gets the `+` Fairy-Stockfish gives it (or, in
        any variant, the one letter Fairy-Stockfish writes for it)."""
        if any(x.endswith("+") for x in fs_legal) and "@" not in m and m != "0000":
            core = m.rstrip("abcdefghijklmnopqrstuvwxyz") if m[-1].isalpha() and m[-2].isdigit() else m
            if core != m and board is not None:
                keeps = board.get(re.match(r"[a-z]+\d+", core).group(0), "").lower() == m[-1]
                return core if keeps else core + "+"
            if core + "+" in fs_legal and core not in fs_legal:
                return core + "+"
        if m == "0000":
            # Fairy-Stockfish writes a forced pass as a move from a cell to itself (`c2c2`).
            return next((x for x in sorted(fs_legal) if "@" not in x and len(x) % 2 == 0 and x[: len(x) // 2] == x[len(x) // 2 :]), m)
        if m not in fs_legal and "@" not in m and m != "0000":
            # A forced promotion boardlab writes without a letter (no choice), Fairy-Stockfish
            # with the kind's (shatranj's pawn to a ferz: `e2f1` and `e2f1q`).
            forced = [x for x in fs_legal if x.startswith(m) and len(x) == len(m) + 1 and x[-1].isalpha()]
            if len(forced) == 1:
                return forced[0]
        if not self.translated or "@" not in m:
            return m
        letter, cell = m.split("@")
        return self.symbols.get(letter, letter).upper() + "@" + self._cell(cell, ranks)

    def _board(self, board, table):
        rows = board.split("/")
        if self.mirror:
            rows.reverse()
        return "/".join("".join(table.get(c, c) for c in row) for row in rows)

    def fen_to_fs(self, fen):
        if not self.translated:
            return fen
        board, hand, rest = split(fen)
        return " ".join([self._board(board, self.symbols)] + rest)

    def fen_from_fs(self, fen):
        """Fairy-Stockfish's FEN in boardlab's symbols, its hand left out."""
        if not self.translated:
            return fen
        board, hand, rest = split(fen)
        return " ".join([self._board(board, self.back)] + rest)


# Pairs that name no Fairy-Stockfish counterpart (docs/variant-format.md, Notation), compared
# through the translation above.
EXTRA = [
    Pair("othello", "flipello", {"X": "P", "O": "p"}, mirror=True),
    Pair("connect-four", "cfour", {"D": "P", "d": "p"}),
    Pair("tic-tac-toe", "tictactoe", {"X": "P", "O": "p"}),
]


def royal_letters(variant):
    """The letters (both cases) of the variant's royal kinds, following `extends`."""
    data = tomllib.loads((ROOT / "variants" / variant / "variant.toml").read_text())
    out = set()
    if "extends" in data:
        out |= royal_letters(data["extends"])
    for piece in data.get("pieces", {}).values():
        if piece.get("royal") and isinstance(piece.get("symbol"), str):
            out |= {piece["symbol"].upper(), piece["symbol"].lower()}
    return out


def player_names(variant):
    """The two players' names, the first moving first, following `extends`."""
    data = tomllib.loads((ROOT / "variants" / variant / "variant.toml").read_text())
    names = data.get("players", {}).get("names")
    if names:
        return names
    return player_names(data["extends"]) if "extends" in data else ["white", "black"]


def named_variants():
    """(boardlab name, Fairy-Stockfish name) for every shipped variant that names one."""
    out = []
    for toml in sorted((ROOT / "variants").glob("*/variant.toml")):
        data = tomllib.loads(toml.read_text())
        fs = data.get("notation", {}).get("fairy_stockfish")
        if fs:
            out.append((toml.parent.name, fs))
    return out


# The options that select Fairy-Stockfish's reading where a variant reads a rule differently on
# purpose (its README says which and why): boardlab is run with these `--set`s.
FS_READING = {
    "shogi": ["drop_mate=loses"],
    "minishogi": ["drop_mate=loses"],
    "xiangqi": ["no_capture_draw=true"],
    "dobutsu": ["try_rule=standing"],
    "othello": ["passes_played=true"],
}


class Boardlab:
    def __init__(self, exe, pair):
        self.exe, self.variant, self.pair = exe, pair.variant, pair
        variant = pair.variant
        self.sets = [a for s in FS_READING.get(variant, []) for a in ("--set", s)]
        resolved = subprocess.run([exe, "check", variant, "--resolved"] + self.sets, capture_output=True, text=True).stdout
        self.keeps_clock = "quiet_moves" in resolved
        self.royal = royal_letters(variant)
        self.players = player_names(variant)

    def fen(self, fen=None, moves=()):
        """(FEN, legal moves in UCI form, result line or None); raises on an error."""
        cmd = [self.exe, "fen", self.variant] + self.sets
        if fen:
            cmd += ["--fen", fen]
        if moves:
            cmd += ["--moves", " ".join(moves)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"boardlab {' '.join(cmd[1:])[:160]}: {r.stderr.strip()[:200]}")
        lines = r.stdout.split("\n")
        result = lines[2][len("result: "):] if len(lines) > 2 and lines[2].startswith("result: ") else None
        return lines[0], set(lines[1].split()), result


def cells(fen):
    """The letters on the board of a FEN by cell name (`a1`), files from `a`, ranks from 1."""
    board = split(fen)[0]
    out = {}
    rows = board.split("/")
    for i, row in enumerate(rows):
        rank, f = len(rows) - i, 0
        for num, letter in re.findall(r"(\d+)|(\+?[A-Za-z])", row):
            if num:
                f += int(num)
            else:
                out[f"{chr(ord('a') + f)}{rank}"] = letter[-1]
                f += 1
    return out


def split(fen):
    """(board, hand or None, the other fields)"""
    fields = fen.split()
    board, hand = fields[0], None
    m = re.fullmatch(r"(.*)\[(.*)\]", board)
    if m:
        board, hand = m.group(1), m.group(2)
    return board, hand, fields[1:]


def normalise(ours, theirs, bl, notes):
    """Both FENs with the documented differences taken out; `notes` counts each one used."""
    b1, h1, f1 = split(ours)
    b2, h2, f2 = split(theirs)
    if h1 is None and h2 is not None and bl.pair.translated:
        notes["Fairy-Stockfish's supply of pieces in hand left out"] += 1
        h2 = None
    if h2 is not None and any(c in bl.royal for c in h2):
        notes["a captured royal piece in Fairy-Stockfish's hand (game over)"] += 1
        h2 = "".join(c for c in h2 if c not in bl.royal)
    if "*" in b2 or "*" in b1:
        b1 = re.sub("[Xx]", "*", b1)
    if h1 is not None and h2 is not None:
        s1, s2 = "".join(sorted(h1.replace("-", ""))), "".join(sorted(h2.replace("-", "")))
        if s1 == s2 and h1 != h2:
            notes["hand order"] += 1
        h1, h2 = s1, s2
    # fields: side castling ep [checks] clock move
    if len(f1) >= 3 and len(f2) >= 3 and f1[2] != "-" and len(f2[2]) > len(f1[2]) and f1[2] in f2[2]:
        notes["Fairy-Stockfish lists the landing cell in the en passant field too"] += 1
        f2 = f2[:2] + [f1[2]] + f2[3:]
    if len(f1) >= 3 and len(f2) >= 3 and f1[2] != "-" and f2[2] == "-":
        notes["en passant cell written without a legal capture"] += 1
        f1 = f1[:2] + ["-"] + f1[3:]
    if bl.variant in CLOCK_DIFFERS and len(f1) >= 2 and len(f2) >= 2 and f1[-2] != f2[-2]:
        notes[CLOCK_DIFFERS[bl.variant]] += 1
        f1, f2 = f1[:-2] + ["0"] + f1[-1:], f2[:-2] + ["0"] + f2[-1:]
    if not bl.keeps_clock and len(f1) >= 2 and len(f2) >= 2 and f1[-2] != f2[-2]:
        notes["clock not kept (no quiet_moves rule)"] += 1
        f1, f2 = f1[:-2] + ["0"] + f1[-1:], f2[:-2] + ["0"] + f2[-1:]
    return (b1, h1, f1), (b2, h2, f2)


class Tally:
    def __init__(self, variant, fs, translated=False):
        self.variant, self.fs = variant, fs + ("*" if translated else "")
        self.games = self.positions = self.mismatches = 0
        self.kinds = collections.OrderedDict()
        self.notes = collections.Counter()
        self.finished = self.finished_read = 0
        self.known = collections.OrderedDict()
        self.moves_compared = 0

    def mismatch(self, kind, example):
        reason = KNOWN.get((self.variant, kind))
        if reason is not None:
            entry = self.known.setdefault(kind, [0, example, reason])
            entry[0] += 1
            return
        self.mismatches += 1
        if kind not in self.kinds:
            self.kinds[kind] = [0, example]
        self.kinds[kind][0] += 1


def compare(t, bl, ours, theirs, what):
    a, b = normalise(bl.pair.fen_to_fs(ours), theirs, bl, t.notes)
    if a != b:
        t.mismatch(what, f"boardlab {ours} | Fairy-Stockfish {theirs}")
        return False
    return True


def run_variant(exe, pair, games, plies, rng):
    fs = pair.fs
    t = Tally(pair.variant, fs, pair.translated)
    bl = Boardlab(exe, pair)
    start = sf.start_fen(fs)
    canonical = sf.get_fen(fs, start, [])
    ours, _, _ = bl.fen()
    ranks = ours.split()[0].count("/") + 1
    t.positions += 1
    compare(t, bl, ours, canonical, "start FEN")
    if start != canonical:
        t.notes["Fairy-Stockfish's start_fen leaves out empty fields"] += 1
    for _ in range(games):
        t.games += 1
        moves, fs_moves = [], []
        for _ply in range(plies):
            try:
                ours, our_moves, result = bl.fen(moves=moves)
            except RuntimeError as e:
                t.mismatch("boardlab refused Fairy-Stockfish's moves", str(e))
                break
            theirs = sf.get_fen(fs, start, fs_moves)
            if moves:
                t.positions += 1
                compare(t, bl, ours, theirs, "FEN after a move")
                read_back(t, bl, theirs)
            fs_legal = set(sf.legal_moves(fs, start, fs_moves))
            if not compare_end(t, bl, ours, result, fs, start, fs_moves, fs_legal):
                break
            if result is None:
                compare_moves(t, pair, ours, our_moves, ranks, fs_legal)
            if result is not None:
                t.finished += 1
                try:
                    _, _, again = bl.fen(fen=ours)
                    t.finished_read += again is not None
                except RuntimeError as e:
                    t.mismatch("boardlab cannot read its own FEN", str(e))
                break
            board = cells(ours)
            both = sorted(m for m in our_moves if pair.move_to_fs(m, ranks, fs_legal, board) in fs_legal)
            if not both:
                if our_moves or fs_legal:
                    t.notes["game stopped: no move both list (" + " ".join(sorted(our_moves))[:20] + " | " + " ".join(sorted(fs_legal))[:20] + ")"] += 1
                break
            m = rng.choice(both)
            moves.append(m)
            fs_moves.append(pair.move_to_fs(m, ranks, fs_legal, board))
    return t


def fs_end(fs, start, fs_moves, fs_legal):
    """Fairy-Stockfish's end of the game, from the side to move's view: None (it goes on), or
    (value, how): a negative value loses, 0 draws, a positive value wins."""
    if not fs_legal:
        return sf.game_result(fs, start, fs_moves), "no legal move"
    ended, value = sf.is_immediate_game_end(fs, start, fs_moves)
    if ended:
        return value, "immediate end"
    ended, value = sf.is_optional_game_end(fs, start, fs_moves)
    if ended:
        return value, "claimable end"
    return None


def our_value(result, fen, bl):
    """boardlab's `result:` line from the view of the side to move in `fen`: -1, 0 or 1."""
    if result.startswith("draw"):
        return 0
    winner = result.split(" wins", 1)[0]
    to_move = bl.players[0] if fen.split()[1] == "w" else bl.players[1]
    return 1 if winner == to_move else -1


def compare_end(t, bl, ours, result, fs, start, fs_moves, fs_legal):
    """Whether both programs agree that the game goes on or how it ended; records a mismatch
    otherwise and returns False when the game cannot go on."""
    theirs = fs_end(fs, start, fs_moves, fs_legal)
    where = f"at {ours} after {' '.join(fs_moves)[-80:]}"
    if result is None and theirs is None:
        return True
    if result is not None and theirs is None:
        t.mismatch("boardlab ends the game, Fairy-Stockfish plays on", f"boardlab `{result}` {where}")
        return False
    if result is None:
        t.mismatch("Fairy-Stockfish ends the game, boardlab plays on", f"Fairy-Stockfish {theirs[1]} ({theirs[0]}) {where}")
        return False
    value = (theirs[0] > 0) - (theirs[0] < 0)
    if value != our_value(result, ours, bl):
        t.mismatch("results differ", f"boardlab `{result}`, Fairy-Stockfish {theirs[1]} ({theirs[0]}) {where}")
    return True


def compare_moves(t, pair, ours, our_moves, ranks, fs_legal):
    """The two programs' legal moves as sets, boardlab's translated to Fairy-Stockfish's form."""
    t.moves_compared += 1
    board = cells(ours)
    translated = {pair.move_to_fs(m, ranks, fs_legal, board) for m in our_moves}
    only_ours, only_theirs = sorted(translated - fs_legal), sorted(fs_legal - translated)
    if only_ours:
        t.mismatch("moves only boardlab lists", f"{' '.join(only_ours)[:60]} at {ours}")
    if only_theirs:
        t.mismatch("moves only Fairy-Stockfish lists", f"{' '.join(only_theirs)[:60]} at {ours}")


def read_back(t, bl, theirs):
    """boardlab reads Fairy-Stockfish's FEN (translated for the EXTRA pairs) and writes it back."""
    if any(c in bl.royal for c in (split(theirs)[1] or "")):
        t.notes["a FEN with a royal piece in hand not read back"] += 1
        return
    if "*" in theirs:
        t.notes["walls (*) not read back"] += 1
        return
    given = bl.pair.fen_from_fs(theirs)
    try:
        back, _, _ = bl.fen(fen=given)
    except RuntimeError as e:
        t.mismatch("boardlab cannot read Fairy-Stockfish's FEN", str(e))
        return
    if back != given and compare(t, bl, back, theirs, "read and written back"):
        t.notes["read back: only documented differences"] += 1


def table(tallies, args):
    lines = [
        f"boardlab FEN vs Fairy-Stockfish (pyffish {'.'.join(map(str, sf.version()))}): "
        f"{args.games} games of at most {args.plies} plies per variant, seed {args.seed}",
        "",
        f"{'variant':<14} {'FS name':<14} {'games':>5} {'positions':>9} {'move sets':>9} {'mismatches':>10} {'known':>5}  finished games read back finished",
    ]
    for t in tallies:
        lines.append(
            f"{t.variant:<14} {t.fs:<14} {t.games:>5} {t.positions:>9} {t.moves_compared:>9} {t.mismatches:>10} "
            f"{sum(k[0] for k in t.known.values()):>5}  {t.finished_read}/{t.finished}"
        )
    if any(t.fs.endswith("*") for t in tallies):
        lines.append("* not named in [notation]: compared through the script's translation (EXTRA)")
    lines.append("")
    for t in tallies:
        for kind, (n, example) in t.kinds.items():
            lines.append(f"MISMATCH {t.variant}: {kind} ({n}): {example}")
    for t in tallies:
        for kind, (n, example, reason) in t.known.items():
            lines.append(f"known {t.variant}: {kind} ({n}; {reason}): {example}")
    lines.append("documented differences normalised (counts over all positions):")
    for t in tallies:
        if t.notes:
            lines.append(f"  {t.variant}: " + "; ".join(f"{k} {n}" for k, n in sorted(t.notes.items())))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("boardlab")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--plies", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variants", default="")
    p.add_argument("--table")
    args = p.parse_args()
    wanted = set(filter(None, args.variants.split(",")))
    sf.load_variant_config(VARIANTS_INI)
    pairs = [Pair(v, fs) for v, fs in named_variants()] + EXTRA
    pairs = [p for p in pairs if not wanted or p.variant in wanted]
    if not pairs:
        raise SystemExit("no variant names a Fairy-Stockfish counterpart")
    known = set(sf.variants())
    tallies = []
    for pair in pairs:
        if pair.fs not in known:
            raise SystemExit(f"{pair.variant}: Fairy-Stockfish has no variant `{pair.fs}`")
        tallies.append(run_variant(args.boardlab, pair, args.games, args.plies, random.Random(args.seed)))
        variant = pair.variant
        t = tallies[-1]
        print(f"{variant}: {t.positions} positions, {t.mismatches} mismatches", file=sys.stderr)
    text = table(tallies, args)
    if args.table:
        Path(args.table).write_text(text)
    print(text, end="")
    if any(t.mismatches for t in tallies):
        sys.exit(1)


if __name__ == "__main__":
    main()
