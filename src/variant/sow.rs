//! Sowing moves named and explained (`[sowing]`): a pit's name is the move (`c1`), `why` on a
//! pit says what its sowing does or why it is not legal, in the rules' words.

use super::Variant;
use super::play::PlayError;
use crate::explain::IllegalReason;
use crate::geometry::Cell;
use crate::notation::{Move, MoveKind};
use crate::rules::sowing::{SowCapture, Sowing};
use crate::state::Position;

impl Variant {
    /// The sowing a pit's name names (`None`: the rules do not sow, or the text is no cell).
    pub(crate) fn find_sow(&self, pos: &mut Position, text: &str) -> Option<Result<Move, PlayError>> {
        self.rules.sowing.as_ref()?;
        let cell = self.rules.geometry.parse_cell(&text.trim().to_ascii_lowercase()).ok()?;
        let mut legal = Vec::new();
        if let Err(e) = self.legal_moves(pos, &mut legal) {
            return Some(Err(e.into()));
        }
        if let Some(m) = legal.iter().find(|m| m.kind == MoveKind::Sow && m.from == cell.0) {
            return Some(Ok(*m));
        }
        let why = self.explain_sow(pos, cell.0).unwrap_or(IllegalReason::Filtered);
        Some(Err(PlayError::Illegal(why)))
    }

    /// Why the pit `cell` cannot be sown now (`None` where the rules do not sow).
    pub(crate) fn explain_sow(&self, pos: &Position, cell: u16) -> Option<IllegalReason> {
        let sw = self.rules.sowing.as_ref()?;
        let (g, me) = (&self.rules.geometry, pos.side());
        let name = g.name(Cell(cell));
        let who = |p| self.rules.player_name(p);
        let why = if let Some(r) = pos.result() {
            return Some(IllegalReason::GameOver(r.describe(&self.rules.player_names)));
        } else if !sw.pits[me].contains(&cell) {
            match sw.owner[cell as usize] {
                Some(p) if sw.store[p] == cell => format!("{name} is {}'s store: a move starts from one of {}'s pits", who(p), who(me)),
                Some(p) if p != me => format!("{name} is {}'s pit; {} is to move", who(p), who(me)),
                _ => format!("{name} is not one of {}'s pits", who(me)),
            }
        } else if pos.seeds()[cell as usize] == 0 {
            format!("{name} is empty: there is nothing to sow")
        } else if sw.feed && sw.side_seeds(pos.seeds(), me.other()) == 0 {
            format!("{} has no seeds, and a move must give it some: sowing {name} does not reach its pits", who(me.other()))
        } else {
            format!("sowing {name} would take every seed {} has (a grand slam, not allowed here)", who(me.other()))
        };
        Some(IllegalReason::Refused(why))
    }

    /// What a legal sowing does, for `why`: the seeds sown, where the last lands, what it
    /// captures, an extra move.
    pub(crate) fn sow_note(&self, pos: &Position, m: &Move) -> String {
        let Some(sw) = self.rules.sowing.as_ref().filter(|_| m.kind == MoveKind::Sow) else {
            return String::new();
        };
        let g = &self.rules.geometry;
        let mut seeds = pos.seeds().to_vec();
        let n = seeds[m.from as usize];
        let sown = sw.sow(&mut seeds, pos.side(), m.from);
        let mut s = format!(": it sows {n} seed{}, the last in {}", if n == 1 { "" } else { "s" }, g.name(Cell(sown.last)));
        if sown.captured > 0 {
            s.push_str(&format!(", and captures {} into the store", sown.captured));
        } else if let SowCapture::Counts { .. } = sw.capture
            && grand_slam_spared(sw, pos, m.from)
        {
            s.push_str(", and captures nothing: it would take every seed of the opponent (a grand slam)");
        }
        if sown.extra {
            s.push_str("; the last seed in the store earns another move");
        }
        s
    }
}

/// Whether sowing `from` would capture, were a grand slam allowed, and does not.
fn grand_slam_spared(sw: &Sowing, pos: &Position, from: u16) -> bool {
    let SowCapture::Counts { counts, .. } = sw.capture else { return false };
    let all = Sowing { capture: SowCapture::Counts { counts, grand_slam: crate::rules::sowing::GrandSlam::Capture }, ..sw.clone() };
    let mut seeds = pos.seeds().to_vec();
    all.sow(&mut seeds, pos.side(), from).captured > 0
}
