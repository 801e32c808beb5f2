//! Games between random players where pieces are only placed, played on the cell sets
//! ([`crate::placewalk::PlaceWalk`]): the walk lists the kernel's moves in the kernel's order and
//! keeps its position key, so a game here draws the same moves from the same seed, and its
//! record is the one [`super::play_game`]'s kernel loop writes (a test holds whole studies
//! equal).

use super::line::line_step;
use super::{Config, Desk, Finished, GameSoFar, Seeds, SelfplayError};
use crate::placewalk::PlaceWalk;
use crate::variant::Variant;
use rand::RngExt;
use std::time::Instant;

/// Plays game `index` of a study of random players on `walk`.
///
/// # Errors
/// Ctrl-C was pressed.
pub(super) fn play_placed(cfg: &Config, index: u64, desk: &mut Desk<'_>, walk: &PlaceWalk, f: &mut Finished) -> Result<(), SelfplayError> {
    crate::interrupt::check()?;
    let Seeds { seed, mut rng, mut opening, .. } = desk.seeds(cfg, index);
    let Desk { v, start, pos, placed, branching, .. } = desk;
    let v: &Variant = v;
    branching.clear();
    placed.clear();
    let mut game = GameSoFar::new(cfg, index, seed, start.hash(), std::mem::take(&mut f.moves));
    let mut node = walk.node(start);
    let ended = loop {
        let open = walk.open_moves(&node);
        let n = open.n;
        if n == 0 {
            break None;
        }
        branching.push(n);
        let side = node.side();
        game.decides(side);
        let t = cfg.time_moves.then(Instant::now);
        // The draws of the kernel's loop: the opening's generator first, then the game's.
        let i = if game.plies < cfg.random_plies { opening.random_range(0..n as usize) } else { rng.random_range(0..n as usize) };
        let m = open.nth(i as u32);
        placed.push(m);
        let first = side == crate::piece::Player::FIRST;
        game.chose_writing(cfg, |s| s.push_str(walk.text(&node, m)), first, t.map(|t| t.elapsed().as_secs_f64()));
        let out = walk.play(&v.rules, &mut node, m);
        game.line = line_step(game.line, node.hash());
        if out.is_some() {
            break out;
        }
    };
    match ended {
        Some(e) => game.finish(cfg, (e.winner, e.reason, None), branching, &[], f),
        // No move: the rules' own judgement of that, on the kernel's position.
        None => {
            pos.clone_from(start);
            let mut at = walk.node(start);
            for &m in placed.iter() {
                v.make(pos, &walk.move_of(&at, m))?;
                walk.play(&v.rules, &mut at, m);
            }
            let o = v.outcome(pos)?.expect("a finished game has a result");
            game.finish(cfg, (o.winner, &o.reason, o.margin), branching, &[], f);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Config, Desk, Finished, GameRecord, Names, play_game, play_on_kernel};
    use crate::Variant;

    /// Games on the sets are the kernel's games record for record: the moves, the branching,
    /// the line, the result and its reason, with and without random openings, swapped seats
    /// and every move written; also where a game ends with no move (judged by the kernel).
    #[test]
    fn games_on_the_sets_are_the_kernels() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let mut names: Vec<String> = vec!["tic-tac-toe".into(), "connect-four".into()];
        names.extend(crate::placewalk::tests::made_variants(&dir));
        for name in &names {
            let v = Variant::load(name, &[]).unwrap();
            assert!(v.place_walk().is_some(), "{name}");
            for (plies, alternate, record) in [(0, false, false), (3, true, true)] {
                let cfg = Config { random_plies: plies, alternate, record_moves: record, opening_plies: 3, ..Config::new(200, 11) };
                let (mut on_sets, mut on_kernel) = (Desk::new(&v), Desk::new(&v));
                let seats = Names::of(&v, &cfg);
                // (Each side reuses one game, as a study's threads do.)
                let (mut a, mut b) = (Finished::default(), Finished::default());
                let (mut ra, mut rb) = (GameRecord::default(), GameRecord::default());
                for i in 0..cfg.games {
                    play_game(&cfg, i, &mut on_sets, &mut a).unwrap();
                    play_on_kernel(&cfg, i, &mut on_kernel, &mut b).unwrap();
                    a.record_into(&v, &seats, &mut ra);
                    b.record_into(&v, &seats, &mut rb);
                    assert_eq!(ra, rb, "{name}: game {i}");
                    assert_eq!(a.view(&seats), ra.view(), "{name}: game {i}");
                }
            }
        }
    }
}
