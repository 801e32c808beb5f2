//! Search benchmarks: positions per second of the default machine player (`ab`, alpha-beta
//! with its node budget) in every shipped variant (each added variant joins by itself), with a yardstick timed in the same run: the
//! same variant's random playouts (moves listed, made and undone per second), so the ratio says
//! how much of the kernel's raw speed the search keeps (the evaluation, the table, ordering).
//! Also the seconds one default move takes, median and worst over the positions sampled.
//! Run with `cargo bench --bench search`.
//!
//! Positions: the start, and the positions after 10, 30 and 60 plies of seeded random games
//! (seeds 1-4), so the figures cover the opening, the middle and later play.

mod playout;

use boardlab::ai::{self, Budget, Engine};
use boardlab::{Position, Variant};
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// Positions to search: the start and some reached by random play (games still going).
fn positions(v: &Variant) -> Vec<Position> {
    let mut out = vec![v.start()];
    let mut moves = Vec::new();
    for seed in 1..=4u64 {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut pos = v.start();
        for ply in 1..=60 {
            v.legal_moves(&mut pos, &mut moves).expect("no script error");
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            v.make(&mut pos, &m).expect("no script error");
            if matches!(ply, 10 | 30 | 60) && pos.result().is_none() {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// Random playouts from the start for about a second: plies (each listed and made) per second.
fn yardstick(v: &Variant) -> f64 {
    let mut moves = Vec::new();
    let mut plies = 0u64;
    let t = Instant::now();
    let mut seed = 0;
    while t.elapsed().as_secs_f64() < 1.0 {
        plies += playout::random_game(v, seed, 1000, &mut moves);
        seed += 1;
    }
    plies as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    let budget = ai::DEFAULT_BUDGET;
    println!("search summary: {} (one thread) over the start and positions after 10/30/60 random plies", Engine::DEFAULT);
    println!(
        "  {:<16} {:>5} {:>12} {:>14} {:>8} {:>10} {:>10} {:>7}",
        "variant", "pos.", "nodes/s", "playout ply/s", "ratio", "median s", "worst s", "depth"
    );
    for name in boardlab::shipped_names() {
        let name = name.as_str();
        let v = Variant::load(name, &[]).expect("shipped variant loads");
        let ps = positions(&v);
        let mut secs = Vec::new();
        let (mut nodes, mut total, mut depths) = (0u64, 0f64, Vec::new());
        for p in &ps {
            let mut work = p.clone();
            let t = Instant::now();
            let r = ai::search::search(&v, &mut work, budget, &mut ai::rng(1)).expect("no script error");
            let s = t.elapsed().as_secs_f64();
            secs.push(s);
            total += s;
            nodes += r.nodes;
            depths.push(r.depth);
        }
        secs.sort_by(f64::total_cmp);
        depths.sort();
        let nps = nodes as f64 / total;
        let ys = yardstick(&v);
        println!(
            "  {name:<16} {:>5} {:>12.0} {:>14.0} {:>8.3} {:>10.3} {:>10.3} {:>7}",
            ps.len(),
            nps,
            ys,
            nps / ys,
            secs[secs.len() / 2],
            secs[secs.len() - 1],
            depths[depths.len() / 2]
        );
    }
    // A fixed depth, for comparing search speed across changes independently of the budget
    // (depth 2 where the start has more than 500 moves: Amazons' 2176 would take hours at 4).
    println!("fixed depth (ab:d4 from the start, ab:d2 above 500 moves): nodes, seconds");
    let mut moves = Vec::new();
    for name in boardlab::shipped_names() {
        let name = name.as_str();
        let v = Variant::load(name, &[]).expect("shipped variant loads");
        let mut pos = v.start();
        v.legal_moves(&mut pos, &mut moves).expect("no script error");
        let depth = if moves.len() > 500 { 2 } else { 4 };
        let t = Instant::now();
        let r = ai::search::search(&v, &mut pos, Budget::Depth(depth), &mut ai::rng(1)).expect("no script error");
        println!("  {name:<16} d{depth} {:>10} nodes {:>8.3} s", r.nodes, t.elapsed().as_secs_f64());
    }
}
