//! A study's identity, carried by every record it writes, so that records of different studies
//! are never counted as one: the kind of run, a digest of the rules as loaded, the engines, the
//! seed, the games asked for, the shard and the random opening plies. The rule set itself (the
//! variant and the options given, the move limit among them) is the record's own `variant` and
//! `options`.
//!
//! Two records belong to one study when everything but the shard agrees. Two rule sets played
//! with everything else equal (the same seeds and players: `selfplay --compare`) are a
//! comparison, which `report` prints side by side; anything else is another study.

use super::{Config, GameRecord};
use crate::variant::Variant;
use serde::{Deserialize, Serialize};

/// What a study is, besides its rule set (see the module's documentation).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Study {
    /// `selfplay` or `arena`.
    pub(crate) kind: String,
    /// [`rules_digest`] of the variant as loaded.
    pub(crate) rules: String,
    /// Self-play: the first seat's engine, then the second's. Arena: every engine, in order.
    pub(crate) engines: Vec<String>,
    pub(crate) seed: u64,
    /// Games asked for (per pair in an arena).
    pub(crate) games: u64,
    /// `I/N` when the study was played as shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) shard: Option<String>,
    /// Random opening decisions asked for (`--random-plies`).
    #[serde(default, skip_serializing_if = "super::is_zero")]
    pub(crate) random_plies: u32,
}

impl Study {
    /// The study of the configurations `cfgs` played together on `v` (one for self-play, one a
    /// pair for an arena of `arena` engines).
    pub(crate) fn of(v: &Variant, cfgs: &[Config], arena: Option<&[crate::ai::Engine]>) -> Study {
        let c = &cfgs[0];
        let (kind, engines) = match arena {
            Some(es) => ("arena", es.iter().map(ToString::to_string).collect()),
            None => ("selfplay", vec![c.first.to_string(), c.second.to_string()]),
        };
        Study {
            kind: kind.into(),
            rules: rules_digest(v),
            engines,
            seed: c.seed,
            games: c.games,
            shard: c.shard.map(|(i, n)| format!("{i}/{n}")),
            random_plies: c.random_plies,
        }
    }

    /// The shard as (I, N), when it reads as one.
    pub(crate) fn shard(&self) -> Option<(u64, u64)> {
        let (i, n) = self.shard.as_deref()?.split_once('/')?;
        Some((i.parse().ok()?, n.parse().ok()?))
    }
}

/// A digest of the rules as loaded (16 hex digits, FNV-1a): every file of the `extends` chain,
/// the script, and the options given. The same text gives the same digest on every machine, so
/// shards played anywhere agree, and a variant edited between two runs is told apart.
pub(crate) fn rules_digest(v: &Variant) -> String {
    let mut h = Fnv::default();
    for f in &v.merged.files {
        h.write(f.text.as_bytes());
        h.write(&[0]);
    }
    if let Some(s) = &v.script {
        h.write(s.file.text.as_bytes());
    }
    h.write(&[0]);
    let mut opts = v.overrides.clone();
    opts.sort();
    for (k, x) in opts {
        h.write(format!("{k}={x}\n").as_bytes());
    }
    format!("{:016x}", h.0)
}

/// 64-bit FNV-1a: a stable hash (std's hashers may change between Rust releases).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// How the studies of two records differ, rule set aside (empty: one study, or a comparison of
/// two rule sets). With `shard`, a different shard counts too (for `--resume-from`).
pub(crate) fn differences(a: &GameRecord, b: &GameRecord, shard: bool) -> Vec<String> {
    let none = Study::default();
    let (x, y) = (a.study.as_ref().unwrap_or(&none), b.study.as_ref().unwrap_or(&none));
    let mut d = Vec::new();
    let mut differ = |what: &str, p: String, q: String| {
        if p != q {
            d.push(format!("{what} {p} against {q}"));
        }
    };
    if a.study.is_none() != b.study.is_none() {
        let says = |s: &Option<Study>| if s.is_some() { "a study" } else { "none (an older file)" };
        differ("study recorded:", says(&a.study).into(), says(&b.study).into());
        return d;
    }
    differ("kind", x.kind.clone(), y.kind.clone());
    if a.variant == b.variant && a.options == b.options {
        differ("rules digest (the variant's files changed)", x.rules.clone(), y.rules.clone());
    }
    differ("engines", x.engines.join(" "), y.engines.join(" "));
    differ("seed", x.seed.to_string(), y.seed.to_string());
    differ("games", x.games.to_string(), y.games.to_string());
    differ("random plies", x.random_plies.to_string(), y.random_plies.to_string());
    let count = |s: &Study| s.shard().map_or("none".to_string(), |(_, n)| n.to_string());
    differ("shard count", count(x), count(y));
    if shard && count(x) == count(y) {
        let show = |s: &Study| s.shard.clone().unwrap_or_else(|| "none".into());
        differ("shard", show(x), show(y));
    }
    // The move limit is an option: a comparison of rule sets may not differ in it.
    let limit = |g: &GameRecord| g.options.get("move_limit").cloned().unwrap_or_else(|| "none".into());
    differ("move limit", limit(a), limit(b));
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_published_vectors() {
        // FNV-1a 64 test vectors (Fowler, Noll, Vo): "" and "a".
        let mut h = Fnv::default();
        assert_eq!(h.0, 0xcbf2_9ce4_8422_2325);
        h.write(b"a");
        assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn the_digest_follows_the_rules_and_options() {
        let a = Variant::load("checkers", &[]).unwrap();
        let b = Variant::load("checkers", &[("move_limit".into(), "50".into())]).unwrap();
        let c = Variant::load("russian", &[]).unwrap();
        assert_eq!(rules_digest(&a), rules_digest(&Variant::load("checkers", &[]).unwrap()));
        assert_ne!(rules_digest(&a), rules_digest(&b));
        assert_ne!(rules_digest(&a), rules_digest(&c));
        assert_eq!(rules_digest(&a).len(), 16);
    }

    #[test]
    fn studies_that_differ_say_how() {
        let rec = |seed: u64, shard: Option<&str>| GameRecord {
            variant: "x".into(),
            study: Some(Study {
                kind: "selfplay".into(),
                rules: "r".into(),
                engines: vec!["random".into(), "random".into()],
                seed,
                games: 10,
                shard: shard.map(Into::into),
                random_plies: 0,
            }),
            ..GameRecord::default()
        };
        assert!(differences(&rec(1, Some("0/2")), &rec(1, Some("1/2")), false).is_empty());
        assert_eq!(differences(&rec(1, Some("0/2")), &rec(1, Some("1/2")), true), ["shard 0/2 against 1/2"]);
        assert_eq!(differences(&rec(1, None), &rec(2, None), false), ["seed 1 against 2"]);
        assert_eq!(differences(&rec(1, Some("0/2")), &rec(1, Some("0/3")), true), ["shard count 2 against 3"]);
        assert_eq!(differences(&rec(1, None), &GameRecord { variant: "x".into(), ..GameRecord::default() }, false).len(), 1);
    }
}
