//! A game just played ([`Finished`]), as a study hands it from the thread that played it to
//! the thread that tallies it: what its record would say, less the text every game of the
//! study shares (the variant, its options, the players' and the engines' names, the result as a
//! name), which the study keeps once ([`Names`]). A study that writes no records tallies its
//! games from [`Finished::view`] and makes no record at all; one that writes them makes each
//! with [`Finished::record_into`], the one place a played game becomes a [`GameRecord`].

use super::game::Game;
use super::line::Line;
use super::{Config, GameRecord, MoveTimes};
use crate::outcome::Winner;
use crate::piece::Player;
use crate::variant::Variant;
use std::sync::Arc;

/// One game as it ended; a study's threads keep theirs from game to game, so that a game
/// writes over an earlier one's lists and strings in their room and allocates nothing.
#[derive(Clone, Debug)]
pub(crate) struct Finished {
    pub(super) index: u64,
    pub(super) seed: u64,
    /// Whether the study's second engine took the first seat ([`Config::players`]).
    pub(super) swapped: bool,
    /// The winner, or `None` for a draw.
    pub(super) winner: Option<Player>,
    pub(super) reason: Arc<str>,
    pub(super) margin: Option<u32>,
    pub(super) plies: u32,
    /// The moves' texts: every move, or the opening's; the first `written` are this game's
    /// (the rest are an earlier game's strings, kept for their room).
    pub(super) moves: Vec<String>,
    pub(super) written: usize,
    pub(super) branching: Vec<u32>,
    pub(super) line: u64,
    pub(super) times: [Option<MoveTimes>; 2],
    /// The evaluation of each decision's position, where the study evaluates.
    pub(super) eval: Option<Vec<i32>>,
    pub(super) turns: u32,
    pub(super) near_forced: Option<u32>,
    pub(super) random_plies: u32,
}

impl Default for Finished {
    fn default() -> Finished {
        Finished {
            index: 0,
            seed: 0,
            swapped: false,
            winner: None,
            reason: Arc::from(""),
            margin: None,
            plies: 0,
            moves: Vec::new(),
            written: 0,
            branching: Vec::new(),
            line: 0,
            times: [None, None],
            eval: None,
            turns: 0,
            near_forced: None,
            random_plies: 0,
        }
    }
}

/// The text a study's games share: the variant's players' names, the first seat's first, and
/// the study's engines' as records write them (its first engine's first).
#[derive(Clone, Debug)]
pub(crate) struct Names {
    players: [String; 2],
    engines: [String; 2],
}

impl Names {
    /// The names of `v`'s players and of `cfg`'s engines.
    pub(crate) fn of(v: &Variant, cfg: &Config) -> Names {
        Names {
            players: Player::both().map(|p| v.rules.player_name(p).to_string()),
            engines: [cfg.first, cfg.second].map(|e| e.to_string()),
        }
    }

    /// The seats' engines' names (first, second).
    fn seats(&self, swapped: bool) -> (&str, &str) {
        let [a, b] = &self.engines;
        if swapped { (b, a) } else { (a, b) }
    }

    /// The result as records write it: the winner's name, or `draw`.
    fn result(&self, winner: Option<Player>) -> &str {
        winner.map_or("draw", |p| &self.players[p.index()])
    }
}

impl Finished {
    /// Notes how the game ended (the reason shared, not copied: most games end for the reason
    /// an earlier one on this slot did, and keep it without counting its owners).
    pub(super) fn ended(&mut self, (winner, reason, margin): super::Ended) {
        self.winner = match winner {
            Winner::Player(p) => Some(p),
            Winner::Draw => None,
        };
        if !Arc::ptr_eq(&self.reason, reason) {
            self.reason = reason.clone();
        }
        self.margin = margin;
    }

    /// The game's moves' texts kept (every move, or the opening's).
    fn texts(&self) -> &[String] {
        &self.moves[..self.written]
    }

    /// What a report reads of this game (as of its record: a test holds the two equal).
    pub(crate) fn view<'a>(&'a self, names: &'a Names) -> Game<'a> {
        let (first, second) = names.seats(self.swapped);
        Game {
            index: self.index,
            names: [&names.players[0], &names.players[1]],
            first,
            second,
            digest: self.line,
            result: names.result(self.winner),
            winner: self.winner.map(Player::index),
            reason: &self.reason,
            margin: self.margin,
            plies: self.plies,
            moves: self.texts(),
            branching: &self.branching,
            eval: self.eval.as_deref(),
            turns: Some(self.turns),
            near_forced: self.near_forced,
            random_plies: self.random_plies,
        }
    }

    /// The game's record, written over `rec` (a record of an earlier game, whose strings and
    /// lists keep their room).
    pub(crate) fn record_into(&self, v: &Variant, names: &Names, rec: &mut GameRecord) {
        // Every field named: a new one does not compile until it is written here.
        let GameRecord {
            index,
            seed,
            variant,
            options,
            study,
            players,
            result,
            reason,
            margin,
            plies,
            moves,
            branching,
            line,
            first,
            second,
            first_time,
            second_time,
            eval,
            turns,
            near_forced,
            random_plies,
        } = rec;
        *index = self.index;
        *seed = self.seed;
        set(variant, v.name());
        if !options.iter().map(|(a, b)| (a.as_str(), b.as_str())).eq(v.overrides.iter().map(|(a, b)| (a.as_str(), b.as_str()))) {
            *options = v.overrides.iter().cloned().collect();
        }
        *study = None;
        for (name, p) in players.iter_mut().zip(&names.players) {
            set(name, p);
        }
        set(result, names.result(self.winner));
        set(reason, &self.reason);
        *margin = self.margin;
        *plies = self.plies;
        moves.truncate(self.written);
        for (i, t) in self.texts().iter().enumerate() {
            match moves.get_mut(i) {
                Some(m) => set(m, t),
                None => moves.push(t.clone()),
            }
        }
        branching.clone_from(&self.branching);
        *line = Line::Digest(self.line);
        let seats = names.seats(self.swapped);
        set(first, seats.0);
        set(second, seats.1);
        first_time.clone_from(&self.times[0]);
        second_time.clone_from(&self.times[1]);
        match (eval, &self.eval) {
            (Some(e), Some(mine)) => e.clone_from(mine),
            (e, mine) => *e = mine.clone(),
        }
        *turns = Some(self.turns);
        *near_forced = self.near_forced;
        *random_plies = self.random_plies;
    }
}

/// Writes `value` over `s`, in its room where it fits.
fn set(s: &mut String, value: &str) {
    if !super::same(s, value) {
        s.clear();
        s.push_str(value);
    }
}
