//! Raw TOML → [`Ruleset`], in named stages, one file per concern: options and settings
//! ([`settings`]), the board and players ([`board`]), zones ([`zones`]), piece kinds, their
//! movement and the capture policy ([`pieces`]), the start position, crown and display
//! ([`setup`]); end conditions, hooks and movement forms have modules of their own in
//! [`crate::rules`]. Each stage reports its problems as a [`LoadError`] pointing into the file
//! that wrote the offending value.

mod board;
pub(super) mod context;
mod custodian;
mod groups;
pub(crate) mod merge;
mod pieces;
mod push;
pub(super) mod settings;
mod setup;
// Sowing (mancala).
mod sowing;
pub(super) mod zones;

pub(super) use context::{R, V};
pub(crate) use merge::{Merged, Src};

use super::options::Options;
use super::{ends, hooks, movement, *};
use crate::piece::PieceCode;

/// Builds the ruleset of a merged variant with the given option overrides (`name`, `value`).
///
/// # Errors
/// The first problem found, pointing into the file that caused it.
pub(crate) fn validate(m: &Merged, overrides: &[(String, String)]) -> R<Ruleset> {
    let v = V { m, opts: settings::stage_options(&V { m, opts: Options::default() }, overrides)? };
    let (mut geometry, (player_names, first, forward)) = (board::stage_geometry(&v)?, board::stage_players(&v)?);
    let (zones, sowing) = (zones::stage_zones(&v, &mut geometry, &player_names)?, sowing::stage_sowing(&v, &geometry, &player_names)?);
    let (attributes, kinds, counters) = stage_names(&v, &player_names)?;
    let counter_names: Vec<&str> = counters.iter().map(|(n, _)| n.as_str()).collect();
    let setup = setup::stage_setup(&v, &geometry, &kinds, &player_names, attributes.len())?; // before the forms: `initial` reads it
    let ctx = movement::PieceCtx::new(&kinds, &counter_names, &zones, &forward, &attributes, &setup.board);
    let (pieces, dedup, drops) = pieces::stage_pieces(&v, &ctx, &mut geometry)?;
    let (captures, attacks) = (pieces::stage_captures(&v, &kinds, &geometry)?, super::attacks::Attacks::build(&mut geometry, &pieces));
    let ((check_illegal, no_giving_check), castling) = (pieces::stage_check(&v, &kinds)?, pieces::stage_castling(&v, &kinds, &geometry)?);
    let ends = ends::stage_ends(&v, &zones, &geometry, &kinds, (&counter_names, &player_names))?;
    let (crown, display_attribute) = (setup::stage_crown(&v, &attributes)?, setup::stage_display(&v, &attributes)?);
    let (fairy_stockfish, fen_checks) = (setup::stage_fairy_stockfish(&v)?, setup::stage_fen_checks(&v, &counter_names)?);
    let hooks = hooks::stage_hooks(&v, &kinds, &geometry, &zones, &counter_names)?;
    let (move_style, pdn) = setup::stage_move_style(&v, first);
    let rules = Ruleset {
        name: m.name.clone(),
        title: m.title.clone().unwrap_or_else(|| m.name.clone()),
        description: m.description.clone().unwrap_or_default(),
        royal_ends_game: ends.iter().any(|e| e.kind.royal_capture_ends_game()),
        check_illegal,
        no_giving_check,
        may_pass: pieces::stage_pass(&v)?,
        pie: super::pie::stage_pie(&v, &geometry)?,
        calm_forms: pieces.iter().any(|p| p.calm.contains(&true)),
        score: pieces::stage_score(&v, &kinds, &player_names)?,
        go: super::groups::GoKeys::default(), // read in `derive`
        facing: ends.iter().any(|e| matches!(e.kind, ends::EndKind::Facing { .. })),
        late_policy: None,
        castling,
        clock: ends.iter().find_map(|e| e.kind.clock_kinds()),
        landing_captures: pieces.iter().any(|p| p.quiet.iter().any(|f| f.captures())),
        attack_reach: Ruleset::attack_reach_of(&geometry, &pieces),
        attacks,
        drop_no_mate: pieces.iter().any(|p| p.drop.as_ref().is_some_and(|d| d.no_mate)),
        check_counter: ends.iter().find_map(|e| if let ends::EndKind::Checks { slot, .. } = e.kind { Some(slot) } else { None }),
        drop_mate_loses: pieces.iter().any(|p| p.drop.as_ref().is_some_and(|d| d.mate_loses)),
        royal_codes: ByPlayer::new(royal_codes(&kinds, Player::FIRST), royal_codes(&kinds, Player::SECOND)),
        promotion_choices: pieces.iter().any(|p| p.promote.as_ref().is_some_and(|x| !x.choices.is_empty())),
        push: pieces.iter().any(|p| p.push.is_some()),
        repetition: ends.iter().any(|e| e.kind.phase() == ends::Phase::AfterRecord),
        end_checks: end_checks(&ends),
        make_path: super::MakePath::General,
        zobrist: Zobrist::new(geometry.len(), PieceCode::count(kinds.len())),
        geometry,
        player_names,
        first,
        forward,
        kinds,
        attributes,
        counters,
        pieces,
        drops,
        captures,
        ends,
        setup,
        options: v.opts.clone(),
        hooks,
        move_limit: settings::move_limit(&v.opts),
        dedup,
        crown,
        display_attribute,
        fairy_stockfish,
        fen_checks,
        move_style,
        pdn,
        zones: zones.into_iter().collect(),
        eval: EvalModel::default(),
        setwise: None,
        sowing,
    };
    derive(&v, rules)
}

/// What the rules derive from the rest once it is read: the capture policy's place, the
/// evaluation, the cell-set tables and the make path; and what they cannot combine, refused.
fn derive(v: &V, mut rules: Ruleset) -> R<Ruleset> {
    custodian::refuse_unseen_threats(v, rules.check_illegal, rules.no_giving_check)?;
    move_policy_after_check(&mut rules);
    super::promoted::twin_letters(&mut rules);
    groups::stage(v, &mut rules)?; // before the evaluation: its territory term reads the count
    rules.eval = super::eval::stage_eval(v, &rules)?;
    rules.setwise = super::setwise::Setwise::of(&rules);
    rules.make_path = rules.make_path_of();
    Ok(rules)
}

/// Under the check rule, moves the capture policy after the check test
/// ([`super::Ruleset::late_policy`]): move generation then lists every move.
fn move_policy_after_check(rules: &mut Ruleset) {
    if rules.check_illegal && (rules.captures.compulsory || rules.captures.maximum) {
        let p = &mut rules.captures;
        rules.late_policy = Some(super::LatePolicy { compulsory: p.compulsory, maximum: p.maximum });
        (p.compulsory, p.maximum) = (false, false);
    }
}

/// The attribute names, the piece kinds, and the counters with their start values.
type Vocabulary = (Vec<String>, Vec<KindDef>, Vec<(String, i32)>);

/// The names the later stages refer to: the attributes, the piece kinds, and the counters
/// (those `[counters]` declares, and a counter `<kind>_in_hand` for each kind dropped from a
/// hand, empty at the start unless `[counters]` declares it with the starting count).
fn stage_names(v: &V, players: &ByPlayer<String>) -> R<Vocabulary> {
    let attributes = pieces::stage_attributes(v)?;
    let kinds = pieces::stage_kinds(v, players, &attributes)?;
    let mut counters =
        v.m.counters.iter().map(|(k, c)| Ok((k.clone(), v.int32(c.file, &c.val, &format!("counter `{k}`"))?))).collect::<R<Vec<_>>>()?;
    for k in pieces::hand_kinds(v)? {
        let name = super::hand_counter(&k);
        if !counters.iter().any(|(n, _)| *n == name) {
            counters.push((name, 0));
        }
    }
    Ok((attributes, kinds, counters))
}

/// After which moves make checks the end conditions: never, where none is checked after a
/// move; after royal moves, where each of those asks only about royal pieces; else always.
fn end_checks(ends: &[EndRule]) -> super::EndChecks {
    let after: Vec<_> = ends.iter().filter(|e| e.kind.phase() == ends::Phase::AfterMove).collect();
    if after.is_empty() {
        super::EndChecks::Never
    } else if after.iter().all(|e| e.kind.reads_royal_effects_only()) {
        super::EndChecks::RoyalMoves
    } else {
        super::EndChecks::Every
    }
}

/// The codes of `p`'s royal kinds, a bit per code.
fn royal_codes(kinds: &[KindDef], p: Player) -> CodeSet {
    (0..kinds.len()).filter(|&k| kinds[k].royal).fold(0, |s, k| s | 1u128 << PieceCode::new(KindId(k as u8), p).index())
}
