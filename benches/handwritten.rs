//! A plain, hand-written English draughts move generator on an 8×8 array, independent of the
//! kernel: the yardstick for the kernel's speed and a cross-check of its perft counts.
//!
//! Counted the same two ways as the kernel: the last level counted (`bulk`), or every leaf made
//! and unmade.

const EMPTY: u8 = 0;
const WM: u8 = 1; // white man (moves up)
const WK: u8 = 2;
const BM: u8 = 3; // black man (moves down)
const BK: u8 = 4;

#[derive(Clone, Copy)]
pub struct Mv {
    from: u8,
    to: u8,
    len: u8,
    caps: [u8; 12],
    promote: bool,
}

pub struct Board {
    sq: [u8; 64],
    white: bool,
}

fn is_white(p: u8) -> bool {
    p == WM || p == WK
}

fn is_black(p: u8) -> bool {
    p == BM || p == BK
}

impl Board {
    pub fn start() -> Board {
        let mut sq = [EMPTY; 64];
        for r in 0..8 {
            for f in 0..8 {
                if (f + r) % 2 == 0 {
                    if r < 3 {
                        sq[r * 8 + f] = WM;
                    } else if r > 4 {
                        sq[r * 8 + f] = BM;
                    }
                }
            }
        }
        Board { sq, white: true }
    }

    fn dirs(p: u8) -> &'static [(i32, i32)] {
        match p {
            WM => &[(-1, 1), (1, 1)],
            BM => &[(-1, -1), (1, -1)],
            _ => &[(-1, 1), (1, 1), (-1, -1), (1, -1)],
        }
    }

    fn enemy(&self, p: u8) -> bool {
        if self.white { is_black(p) } else { is_white(p) }
    }

    fn jumps(&mut self, from: usize, at: usize, piece: u8, caps: &mut [u8; 12], n: usize, out: &mut Vec<Mv>) {
        let (f, r) = ((at % 8) as i32, (at / 8) as i32);
        let mut any = false;
        for &(df, dr) in Board::dirs(piece) {
            let (of, or) = (f + df, r + dr);
            let (lf, lr) = (f + 2 * df, r + 2 * dr);
            if !(0..8).contains(&lf) || !(0..8).contains(&lr) {
                continue;
            }
            let over = (or * 8 + of) as usize;
            let land = (lr * 8 + lf) as usize;
            if !self.enemy(self.sq[over]) || self.sq[land] != EMPTY || caps[..n].contains(&(over as u8)) {
                continue;
            }
            any = true;
            caps[n] = over as u8;
            let promote = (piece == WM && lr == 7) || (piece == BM && lr == 0);
            if promote {
                out.push(Mv { from: from as u8, to: land as u8, len: (n + 1) as u8, caps: *caps, promote });
            } else {
                self.jumps(from, land, piece, caps, n + 1, out);
            }
        }
        if !any && n > 0 {
            out.push(Mv { from: from as u8, to: at as u8, len: n as u8, caps: *caps, promote: false });
        }
    }

    pub fn moves(&mut self, out: &mut Vec<Mv>) {
        out.clear();
        for s in 0..64 {
            let p = self.sq[s];
            if p == EMPTY || self.enemy(p) {
                continue;
            }
            self.sq[s] = EMPTY;
            let mut caps = [0u8; 12];
            self.jumps(s, s, p, &mut caps, 0, out);
            self.sq[s] = p;
        }
        if !out.is_empty() {
            return;
        }
        for s in 0..64 {
            let p = self.sq[s];
            if p == EMPTY || self.enemy(p) {
                continue;
            }
            let (f, r) = ((s % 8) as i32, (s / 8) as i32);
            for &(df, dr) in Board::dirs(p) {
                let (tf, tr) = (f + df, r + dr);
                if (0..8).contains(&tf) && (0..8).contains(&tr) && self.sq[(tr * 8 + tf) as usize] == EMPTY {
                    let promote = (p == WM && tr == 7) || (p == BM && tr == 0);
                    out.push(Mv { from: s as u8, to: (tr * 8 + tf) as u8, len: 0, caps: [0; 12], promote });
                }
            }
        }
    }

    fn make(&mut self, m: &Mv) -> [u8; 64] {
        let saved = self.sq;
        let p = self.sq[m.from as usize];
        self.sq[m.from as usize] = EMPTY;
        for &c in &m.caps[..m.len as usize] {
            self.sq[c as usize] = EMPTY;
        }
        self.sq[m.to as usize] = if m.promote { if p == WM { WK } else { BK } } else { p };
        self.white = !self.white;
        saved
    }

    fn unmake(&mut self, saved: [u8; 64]) {
        self.sq = saved;
        self.white = !self.white;
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
        b.unmake(saved);
    }
    n
}

pub fn perft_start(depth: usize, bulk: bool) -> u64 {
    let mut b = Board::start();
    let mut lists: Vec<Vec<Mv>> = (0..=depth).map(|_| Vec::with_capacity(32)).collect();
    perft(&mut b, depth, &mut lists, bulk)
}
