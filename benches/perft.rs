//! Perft benchmarks: English draughts through the kernel and through a hand-written bitboard
//! generator (`handwritten.rs`) in the same run, depths 9 to 11 (`BOARDLAB_BENCH_CHECKERS_MAX`
//! lowers the deepest), with both speeds and the ratio of their times; every other shipped
//! game through the kernel (chess from its start, depth 5); the cost of an empty script hook
//! call. Run with `cargo bench`.
//!
//! The summary at the top is timed with `Instant` over whole perft runs (leaf nodes per second,
//! single thread); divan then times each workload again on its own.

mod handwritten;
mod playout;

use boardlab::{Variant, perft};
use std::time::Instant;

fn kernel_perft(name: &str, depth: u32) -> u64 {
    let v = Variant::load(name, &[]).expect("shipped variant loads");
    let mut pos = v.start();
    perft::perft(&v, &mut pos, depth).expect("no script error")
}

/// Runs `f` until at least a second has passed; returns (count, leaves per second).
fn rate(f: impl Fn() -> u64) -> (u64, f64) {
    let t = Instant::now();
    let mut leaves = 0;
    let mut count = 0;
    while t.elapsed().as_secs_f64() < 1.0 {
        count = f();
        leaves += count;
    }
    (count, leaves as f64 / t.elapsed().as_secs_f64())
}

fn kernel_perft_made(name: &str, depth: u32) -> u64 {
    let v = Variant::load(name, &[]).expect("shipped variant loads");
    let mut pos = v.start();
    perft::perft_made(&v, &mut pos, depth).expect("no script error")
}

/// Perft by the general kernel (positions made and undone) even where the walk of placements would do.
fn general_perft(name: &str, depth: u32, made: bool) -> u64 {
    let v = Variant::load(name, &[]).expect("shipped variant loads");
    let mut pos = v.start();
    perft::perft_general(&v, &mut pos, depth, made).expect("no script error")
}

fn summary() {
    // The yardstick first proves itself against Aart Bik's published counts.
    for (d, &n) in handwritten::BIK.iter().enumerate().take(9) {
        assert_eq!(handwritten::perft_start(d + 1, true), n, "the hand-written generator misses Bik's count at depth {}", d + 1);
    }
    println!(
        "perft summary (leaf nodes per second, one thread; `counted`: the last level is counted, not made; `made`: every leaf made and unmade)"
    );
    println!("  English draughts, the kernel against the hand-written bitboard generator (benches/handwritten.rs) in this run:");
    let deepest = std::env::var("BOARDLAB_BENCH_CHECKERS_MAX").ok().and_then(|d| d.parse().ok()).unwrap_or(11u32);
    for bulk in [true, false] {
        let mode = if bulk { "counted" } else { "made" };
        for depth in 9..=deepest {
            let (k, kr) = rate(|| if bulk { kernel_perft("checkers", depth) } else { kernel_perft_made("checkers", depth) });
            let (h, hr) = rate(|| handwritten::perft_start(depth as usize, bulk));
            assert_eq!(k, h, "kernel and hand-written checkers perft disagree");
            assert_eq!(k, handwritten::BIK[depth as usize - 1], "checkers perft {depth} is not Bik's count");
            println!(
                "    checkers depth {depth:>2} = {k:>9} ({mode:>7}): kernel {:>6.2} M/s, bitboard {:>6.2} M/s: the kernel takes {:.2}x its time",
                kr / 1e6,
                hr / 1e6,
                hr / kr
            );
        }
    }
    for (name, depth) in [
        ("basileus", 4),
        ("bivouac", 4),
        ("hostile-bivouac", 4),
        ("lielow", 4),
        ("lielow-ludii", 4),
        ("pyramida", 5),
        ("international", 7),
        ("russian", 8),
        ("othello", 7),
        ("breakthrough", 5),
        ("dobutsu", 7),
        ("chess", 5),
        ("capablanca", 4),
        ("shatranj", 4),
        ("antichess", 4),
    ] {
        let (c, cr) = rate(|| kernel_perft(name, depth));
        let (m, mr) = rate(|| kernel_perft_made(name, depth));
        assert_eq!(c, m);
        println!("  {name} depth {depth} = {c}: counted {:.3} M/s, made {:.3} M/s", cr / 1e6, mr / 1e6);
    }
    // A script hook's cost per call: checkers with an after_move hook that does nothing, run
    // after every move, against plain checkers (every node of a made perft is one make), both
    // through the general kernel.
    {
        let makes: u64 = (1..=7).map(|d| kernel_perft("checkers", d)).sum();
        let time = |name: &str| {
            let t = Instant::now();
            let mut runs = 0;
            while t.elapsed().as_secs_f64() < 1.0 {
                general_perft(name, 7, true);
                runs += 1;
            }
            t.elapsed().as_secs_f64() / runs as f64
        };
        let (hooked, plain) = (time("benches/empty-hook"), time("checkers"));
        println!(
            "  an empty after_move hook: {:.2} µs a call (checkers perft 7 made: {:.3} s with it, {:.3} s without; {makes} makes)",
            (hooked - plain) / makes as f64 * 1e6,
            hooked,
            plain
        );
    }
    println!("self-play (random players, move_limit 1000; games per second)");
    for (name, games) in [("checkers", 20000), ("basileus", 10000), ("lielow", 20000), ("bivouac", 200), ("pyramida", 200)] {
        let mut line = format!("  {name:<10}");
        for threads in [1, 2] {
            let cfg = boardlab::selfplay::Config { threads, ..boardlab::selfplay::Config::new(games, 1) };
            let t = Instant::now();
            let r = boardlab::selfplay::run(name, &[], &cfg, false).expect("self-play runs");
            let secs = t.elapsed().as_secs_f64();
            line.push_str(&format!("  {threads} thread{}: {:>8.0} games/s", if threads == 1 { "" } else { "s" }, r.n as f64 / secs));
        }
        println!("{line}");
    }
    for name in [
        "basileus",
        "checkers",
        "bivouac",
        "hostile-bivouac",
        "lielow",
        "lielow-ludii",
        "pyramida",
        "pyramida-calm",
        "tic-tac-toe",
        "connect-four",
        "international",
        "russian",
        "othello",
        "breakthrough",
        "dobutsu",
    ] {
        let (games, plies, secs) = playouts(name, 200);
        println!(
            "  {name}: {games} random playouts (move_limit 1000) in {secs:.2} s: {:.0} playouts/s, {:.2} M plies/s",
            games as f64 / secs,
            plies as f64 / secs / 1e6
        );
    }
}

/// Seeded random playouts, cut at 1000 plies: (games, plies, seconds).
fn playouts(name: &str, games: u64) -> (u64, u64, f64) {
    let v = Variant::load(name, &[("move_limit".into(), "1000".into())]).expect("shipped variant loads");
    let mut moves = Vec::new();
    let t = Instant::now();
    let plies = (0..games).map(|seed| playout::random_game(&v, seed, u32::MAX, &mut moves)).sum();
    (games, plies, t.elapsed().as_secs_f64())
}

fn main() {
    summary();
    divan::main();
}

#[divan::bench(sample_count = 5)]
fn checkers_kernel_depth7() -> u64 {
    kernel_perft("checkers", 7)
}

#[divan::bench(sample_count = 5)]
fn checkers_handwritten_depth7() -> u64 {
    handwritten::perft_start(7, true)
}

#[divan::bench(sample_count = 5)]
fn basileus_kernel_depth4() -> u64 {
    kernel_perft("basileus", 4)
}

#[divan::bench(sample_count = 5)]
fn chess_kernel_depth4() -> u64 {
    kernel_perft("chess", 4)
}

#[divan::bench(sample_count = 3)]
fn pyramida_kernel_depth4() -> u64 {
    kernel_perft("pyramida", 4)
}
