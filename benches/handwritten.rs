//! A hand-written bitboard English draughts move generator, independent of the kernel: the
//! yardstick for the kernel's speed and a cross-check of its perft counts.
//!
//! One `u64` per colour and one for kings (square = rank × 8 + file, a1 = 0, white moving up);
//! set-wise shifts find every quiet move and whether any capture exists before a single piece
//! is looked at; capture chains are followed per piece without allocation; moves are 16-byte
//! records (the captured pieces as a mask). The rules are the kernel's checkers: men move and
//! capture diagonally forward, kings both ways, one cell at a time; captures are compulsory
//! (any chain, not the longest); a chain goes on while it can, a man reaching the far row is
//! crowned and stops; jumped pieces stay on the board until the move ends (no piece is jumped
//! twice), and the moving piece's start counts as empty.
//!
//! Counted the same two ways as the kernel: the last level counted (`bulk`), or every leaf made
//! and unmade. The bench checks it against Aart Bik's published counts ([`BIK`]) before it times
//! anything.

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

/// A move: the captured pieces as a mask, start and landing squares, and whether a man is
/// crowned (16 bytes).
#[derive(Clone, Copy)]
pub struct Mv {
    caps: u64,
    from: u8,
    to: u8,
    crown: bool,
}

#[derive(Clone, Copy)]
pub struct Board {
    white: u64,
    black: u64,
    kings: u64,
    white_to_move: bool,
}

/// One diagonal step of every square in `bb`: 0 north-east, 1 north-west, 2 south-east, 3
/// south-west (squares that would leave the board are dropped).
#[inline(always)]
fn shift(bb: u64, d: usize) -> u64 {
    match d {
        0 => (bb & NOT_H) << 9,
        1 => (bb & NOT_A) << 7,
        2 => (bb & NOT_H) >> 7,
        _ => (bb & NOT_A) >> 9,
    }
}

/// The reverse of [`shift`] for a direction.
#[inline(always)]
fn unshift(bb: u64, d: usize) -> u64 {
    match d {
        0 => bb >> 9,
        1 => bb >> 7,
        2 => bb << 7,
        _ => bb << 9,
    }
}

impl Board {
    pub fn start() -> Board {
        let (mut white, mut black) = (0u64, 0u64);
        for s in 0..64 {
            let (f, r) = (s % 8, s / 8);
            if (f + r) % 2 == 0 {
                if r < 3 {
                    white |= 1 << s;
                } else if r > 4 {
                    black |= 1 << s;
                }
            }
        }
        Board { white, black, kings: 0, white_to_move: true }
    }

    /// The side to move's pieces, the opponent's, its men's directions and its far row.
    #[inline(always)]
    fn sides(&self) -> (u64, u64, [usize; 2], u64) {
        if self.white_to_move { (self.white, self.black, [0, 1], RANK_8) } else { (self.black, self.white, [2, 3], RANK_1) }
    }

    /// Follows a capture chain of the piece that started on `from` and now stands on `at`.
    #[allow(clippy::too_many_arguments)]
    fn jumps(from: u8, at: u64, king: bool, caps: u64, (opp, empty, far): (u64, u64, u64), men: [usize; 2], out: &mut Vec<Mv>) {
        let mut any = false;
        let dirs: &[usize] = if king { &[0, 1, 2, 3] } else { &men };
        for &d in dirs {
            let over = shift(at, d) & opp & !caps;
            if over == 0 {
                continue;
            }
            let land = shift(over, d) & empty;
            if land == 0 {
                continue;
            }
            any = true;
            if !king && land & far != 0 {
                out.push(Mv { caps: caps | over, from, to: land.trailing_zeros() as u8, crown: true });
            } else {
                Board::jumps(from, land, king, caps | over, (opp, empty, far), men, out);
            }
        }
        if !any && caps != 0 {
            out.push(Mv { caps, from, to: at.trailing_zeros() as u8, crown: false });
        }
    }

    pub fn moves(&self, out: &mut Vec<Mv>) {
        out.clear();
        let (own, opp, men, far) = self.sides();
        let empty = !(own | opp);
        let own_men = own & !self.kings;
        let own_kings = own & self.kings;
        // Whether any capture exists, for all pieces at once.
        let mut jumpers = 0u64;
        for d in 0..4 {
            let movers = if men.contains(&d) { own } else { own_kings };
            jumpers |= unshift(unshift(shift(shift(movers, d) & opp, d) & empty, d), d);
        }
        if jumpers != 0 {
            let mut bb = jumpers;
            while bb != 0 {
                let s = bb.trailing_zeros();
                bb &= bb - 1;
                let at = 1u64 << s;
                Board::jumps(s as u8, at, own_kings & at != 0, 0, (opp, empty | at, far), men, out);
            }
            return;
        }
        for d in 0..4 {
            let movers = if men.contains(&d) { own } else { own_kings };
            let mut targets = shift(movers, d) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let from = unshift(1u64 << to, d).trailing_zeros() as u8;
                let crown = own_men & (1u64 << from) != 0 && (1u64 << to) & far != 0;
                out.push(Mv { caps: 0, from, to: to as u8, crown });
            }
        }
    }

    #[inline(always)]
    fn make(&mut self, m: &Mv) -> Board {
        let saved = *self;
        let (from, to) = (1u64 << m.from, 1u64 << m.to);
        let king = self.kings & from != 0 || m.crown;
        if self.white_to_move {
            self.white ^= from | to;
            self.black &= !m.caps;
        } else {
            self.black ^= from | to;
            self.white &= !m.caps;
        }
        self.kings &= !(m.caps | from);
        if king {
            self.kings |= to;
        }
        self.white_to_move = !self.white_to_move;
        saved
    }
}

/// Perft with one reusable move list per level; with `bulk`, the last level counts the moves
/// instead of making them (as the kernel's `perft` does).
pub fn perft(b: &mut Board, depth: usize, lists: &mut [Vec<Mv>], bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = lists.split_first_mut().unwrap();
    b.moves(list);
    if bulk && depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for m in list.iter() {
        let saved = b.make(m);
        n += perft(b, depth - 1, rest, bulk);
        *b = saved;
    }
    n
}

pub fn perft_start(depth: usize, bulk: bool) -> u64 {
    let mut b = Board::start();
    let mut lists: Vec<Vec<Mv>> = (0..=depth).map(|_| Vec::with_capacity(32)).collect();
    perft(&mut b, depth, &mut lists, bulk)
}

/// Aart Bik's published perft counts for English draughts from the start, depths 1 to 11.
pub const BIK: [u64; 11] = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128];
