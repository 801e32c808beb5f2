//! A seeded random game, shared by the benchmarks (the yardstick of `search.rs`, the playouts
//! of `perft.rs`).

use boardlab::{MoveList, Variant};
use rand::{RngExt, SeedableRng};

/// Plays a random game from the start with the seed, at most `cap` plies: the plies played.
pub fn random_game(v: &Variant, seed: u64, cap: u32, moves: &mut MoveList) -> u64 {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut pos = v.start();
    let mut plies = 0;
    while plies < cap as u64 {
        v.legal_moves(&mut pos, moves).expect("no script error");
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        v.make(&mut pos, &m).expect("no script error");
        plies += 1;
    }
    plies
}
