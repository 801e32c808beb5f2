//! A study's one-page picture: result bars, the length histogram, a typical game's evaluation
//! curve, and every quality metric, for one rule set or two side by side.

use super::Report;
use super::compare::metric_difference;
use std::fmt::Write;

/// A one-page SVG of one or two reports: the result bars, the length histogram and the
/// evaluation curve of a typical game of each, then every quality metric side by side.
pub fn svg(reports: &[&Report]) -> String {
    let w = (420 * reports.len() as u32 + 40).max(460);
    let rows = reports.first().map_or(0, |r| r.quality.measures.len()) as u32;
    let h = TABLE_TOP + 40 + 18 * rows + 20;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let colours = ["#4a7ab5", "#b5524a", "#999999"];
    for (k, r) in reports.iter().enumerate() {
        let x0 = 20 + 420 * k as u32;
        let _ = writeln!(s, "<text x=\"{x0}\" y=\"24\" font-size=\"15\" font-weight=\"bold\">{} — {} games</text>", esc(&r.title), r.n);
        // Result bars.
        let wins = |k: usize| format!("{} wins", esc(&r.names[k]));
        for (i, (name, sh)) in [(wins(0), r.first), (wins(1), r.second), ("draws".into(), r.draws)].iter().enumerate() {
            let y = 44 + i as u32 * 30;
            let len = (sh.p * 300.0).round();
            let _ = writeln!(s, "<text x=\"{x0}\" y=\"{}\">{name}</text>", y + 15);
            let _ = writeln!(s, "<rect x=\"{}\" y=\"{y}\" width=\"{len}\" height=\"20\" fill=\"{}\"/>", x0 + 75, colours[i]);
            let (lo, hi) = ((sh.lo * 300.0).round(), (sh.hi * 300.0).round());
            let _ = writeln!(
                s,
                "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"black\"/>",
                x0 + 75 + lo as u32,
                x0 + 75 + hi as u32,
                y + 10,
                y + 10
            );
            // The share after the bar and its interval, so the whisker never strikes it through.
            let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{:.1}%</text>", x0 + 80 + len.max(hi) as u32, y + 15, sh.p * 100.0);
        }
        // Length histogram.
        let rows = r.histogram(20);
        let top = rows.iter().map(|r| r.2).max().unwrap_or(1).max(1) as f64;
        let (hx, hy, hw, hh) = (x0 + 10, 160u32, 380u32, 300u32);
        let _ = writeln!(
            s,
            "<text x=\"{x0}\" y=\"{}\">game length (plies): mean {:.1}, median {:.1}</text>",
            hy - 8,
            r.length.mean,
            r.length.median
        );
        let bw = hw as f64 / rows.len().max(1) as f64;
        for (i, (a, b, c, capped)) in rows.iter().enumerate() {
            let h = (*c as f64 / top * hh as f64).round();
            let (fill, label) = if *capped { ("#b0b0b0", "move limit".to_string()) } else { ("#6a9a5b", format!("{a}–{b}")) };
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h}\" fill=\"{fill}\"><title>{label}: {c}</title></rect>",
                hx as f64 + i as f64 * bw,
                (hy + hh) as f64 - h,
                (bw - 1.0).max(1.0)
            );
        }
        let _ = writeln!(s, "<line x1=\"{hx}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"black\"/>", hx + hw, hy + hh, hy + hh);
        let _ = writeln!(s, "<text x=\"{hx}\" y=\"{}\">{}</text>", hy + hh + 16, r.length.min);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", hx + hw, hy + hh + 16, r.length.max);
        svg_curve(&mut s, r, x0);
    }
    svg_metrics(&mut s, reports);
    s.push_str("</svg>\n");
    s
}

/// Where the SVG's metric table starts.
const TABLE_TOP: u32 = 730;

/// The evaluation curve of a report's typical game ([`super::tally::Tally::typical`]), below
/// its histogram: white's evaluation in pieces at each decision, on a scale symmetric about 0.
fn svg_curve(s: &mut String, r: &Report, x0: u32) {
    let (cx, top, cw, ch) = (x0 + 10, 520u32, 380u32, 160u32);
    let mid = top + ch / 2;
    let Some(g) = r.tally.typical() else {
        let _ = writeln!(s, "<text x=\"{x0}\" y=\"{}\">evaluation: unavailable (the games carry none)</text>", top - 8);
        return;
    };
    let e = &g.eval;
    let unit = super::quality::UNITS_PER_PIECE as f64;
    let scale = (e.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0) as f64 / unit).max(1.0);
    let _ = writeln!(s, "<text x=\"{x0}\" y=\"{}\">evaluation along game #{} (the median length)</text>", top - 8, g.index);
    let _ = writeln!(s, "<rect x=\"{cx}\" y=\"{top}\" width=\"{cw}\" height=\"{ch}\" fill=\"none\" stroke=\"#cccccc\"/>");
    let _ = writeln!(s, "<line x1=\"{cx}\" x2=\"{}\" y1=\"{mid}\" y2=\"{mid}\" stroke=\"#999999\" stroke-dasharray=\"4 3\"/>", cx + cw);
    let points: Vec<String> = e
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let px = cx as f64 + i as f64 * cw as f64 / (e.len().max(2) - 1) as f64;
            let py = mid as f64 - x as f64 / unit / scale * (ch / 2) as f64;
            format!("{px:.1},{py:.1}")
        })
        .collect();
    let _ = writeln!(s, "<polyline points=\"{}\" fill=\"none\" stroke=\"#4a7ab5\" stroke-width=\"1.5\"/>", points.join(" "));
    let label =
        |y: u32, t: String, anchor: &str, x: u32| format!("<text x=\"{x}\" y=\"{y}\" font-size=\"10\" text-anchor=\"{anchor}\">{t}</text>");
    let _ = writeln!(s, "{}", label(top + 12, format!("+{scale:.1} {} ahead", esc(&g.names[0])), "start", cx + 4));
    let _ = writeln!(s, "{}", label(top + ch - 4, format!("−{scale:.1} {} ahead", esc(&g.names[1])), "start", cx + 4));
    let _ = writeln!(s, "{}", label(top + ch + 14, "ply 1".into(), "start", cx));
    let end = if g.result == "draw" { "a draw".to_string() } else { format!("{} won", esc(&g.result)) };
    let _ = writeln!(s, "{}", label(top + ch + 14, format!("ply {}: {end}", e.len()), "end", cx + cw));
}

/// Every quality metric of the reports side by side (with the difference for two; in bold
/// with a star when significant).
fn svg_metrics(s: &mut String, reports: &[&Report]) {
    let y0 = TABLE_TOP;
    // Right edges of the value columns.
    let cols: &[u32] = if reports.len() == 2 { &[430, 620, 860] } else { &[430] };
    let _ = writeln!(s, "<text x=\"20\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">quality (95% intervals)</text>", y0 + 4);
    let heads: &[&str] = if reports.len() == 2 { &["A", "B", "B − A (bold *: significant)"] } else { &["value"] };
    for (x, t) in cols.iter().zip(heads) {
        let _ = writeln!(s, "<text x=\"{x}\" y=\"{}\" text-anchor=\"end\" font-weight=\"bold\">{t}</text>", y0 + 24);
    }
    let Some(first) = reports.first() else { return };
    let right = cols.last().copied().unwrap_or(430);
    for (i, m) in first.quality.measures.iter().enumerate() {
        let y = y0 + 42 + 18 * i as u32;
        if i % 2 == 0 {
            let _ = writeln!(s, "<rect x=\"14\" y=\"{}\" width=\"{}\" height=\"18\" fill=\"#f2f2f2\"/>", y - 13, right - 8);
        }
        let _ = writeln!(s, "<text x=\"20\" y=\"{y}\">{}</text>", esc(m.name));
        for (k, r) in reports.iter().enumerate() {
            let mk = &r.quality.measures[i];
            let t = if mk.unavailable.is_some() {
                "unavailable".to_string()
            } else {
                format!("{} [{} – {}]", mk.show(mk.value), mk.show(mk.lo), mk.show(mk.hi))
            };
            let _ = writeln!(s, "<text x=\"{}\" y=\"{y}\" text-anchor=\"end\">{t}</text>", cols[k]);
        }
        if let [a, b] = reports {
            let judge = !a.dominated_by_limit() && !b.dominated_by_limit();
            let diff = metric_difference(&a.quality.measures[i], &b.quality.measures[i], judge);
            let (diff, bold) = match diff.trim().strip_suffix("significant") {
                Some(d) => (format!("{} *", d.trim()), " font-weight=\"bold\""),
                None => (diff.trim().to_string(), ""),
            };
            let _ = writeln!(s, "<text x=\"{}\" y=\"{y}\" text-anchor=\"end\"{bold}>{}</text>", cols[2], esc(&diff));
        }
    }
}

/// `s` as SVG text.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
