//! The picture of a tuning run (`arena tune … --svg FILE`): each parameter's value over the
//! iterations (its start dashed), and the verification's log-likelihood ratio over its game
//! pairs between the test's bounds, with its Elo and verdict. A plain SVG file that any
//! browser opens.

use std::fmt::Write as _;

use plyforge::params::show_number;

use super::verify::Verified;
use crate::sprt::Verdict;
use crate::svg::{escape, tick};

/// What the picture shows.
pub struct Picture<'a> {
    /// The title line.
    pub title: String,
    /// Each parameter's name.
    pub names: Vec<&'a str>,
    /// Each parameter's start value.
    pub start: Vec<f64>,
    /// θ after each iteration (the first entry is the start).
    pub path: &'a [Vec<f64>],
    /// The tuned engine's specification.
    pub tuned: String,
    /// The verification, if there was one.
    pub verified: Option<Verified>,
}

const WIDTH: f64 = 900.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 30.0;
const PANEL: f64 = 120.0;
const GAP: f64 = 46.0;
const TOP: f64 = 70.0;

/// One line chart: `ys` against their index, in the box at `top`; `marks` are dashed
/// horizontal lines (value, label).
fn chart(
    out: &mut String,
    top: f64,
    label: &str,
    ys: &[f64],
    marks: &[(f64, String)],
    colour: &str,
    x_label: &str,
) {
    let w = WIDTH - LEFT - RIGHT;
    let mut lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let mut hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    for (m, _) in marks {
        lo = lo.min(*m);
        hi = hi.max(*m);
    }
    if !lo.is_finite() {
        lo = 0.0;
        hi = 1.0;
    }
    if hi - lo < 1e-9 {
        lo -= 1.0;
        hi += 1.0;
    }
    let pad = (hi - lo) * 0.08;
    let (lo, hi) = (lo - pad, hi + pad);
    let n = ys.len().max(2) - 1;
    let x = |i: usize| LEFT + w * i as f64 / n as f64;
    let y = |v: f64| top + PANEL * (1.0 - (v - lo) / (hi - lo));
    let _ = writeln!(
        out,
        r##"<text x="{LEFT}" y="{:.1}" class="label">{}</text>"##,
        top - 8.0,
        escape(label)
    );
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{top:.1}" width="{w:.1}" height="{PANEL}" class="frame"/>"##
    );
    for v in [lo + pad, hi - pad] {
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" class="tick" text-anchor="end">{}</text>"##,
            LEFT - 6.0,
            y(v) + 4.0,
            escape(&tick(v, hi - lo - 2.0 * pad))
        );
    }
    for (m, text) in marks {
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{:.1}" y2="{:.1}" class="mark"/>"##,
            LEFT + w,
            y(*m),
            y(*m)
        );
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" class="tick" text-anchor="end">{}</text>"##,
            LEFT + w - 4.0,
            y(*m) - 4.0,
            escape(text)
        );
    }
    let mut d = String::new();
    for (i, &v) in ys.iter().enumerate() {
        let _ = write!(
            d,
            "{}{:.1},{:.1}",
            if i == 0 { "M" } else { " L" },
            x(i),
            y(v)
        );
    }
    let _ = writeln!(
        out,
        r##"<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.6"/>"##
    );
    let _ = writeln!(
        out,
        r##"<text x="{LEFT}" y="{:.1}" class="tick">0</text><text x="{:.1}" y="{:.1}" class="tick" text-anchor="end">{} {}</text>"##,
        top + PANEL + 14.0,
        LEFT + w,
        top + PANEL + 14.0,
        ys.len().saturating_sub(1),
        escape(x_label)
    );
}

/// The picture as SVG text.
pub fn render(p: &Picture<'_>) -> String {
    let panels =
        p.names.len() + usize::from(p.verified.as_ref().is_some_and(|v| !v.llr.is_empty()));
    let height = TOP + panels as f64 * (PANEL + GAP) + 60.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0}" viewBox="0 0 {WIDTH} {height:.0}" font-family="sans-serif">"##
    );
    out.push_str(
        r##"<style>
.title { font-size: 18px; font-weight: bold; fill: #222; }
.sub { font-size: 12px; fill: #444; }
.label { font-size: 13px; font-weight: bold; fill: #222; }
.tick { font-size: 11px; fill: #555; }
.frame { fill: #fafafa; stroke: #bbb; }
.mark { stroke: #999; stroke-dasharray: 5 4; }
</style>
<rect width="100%" height="100%" fill="white"/>
"##,
    );
    let _ = writeln!(
        out,
        r##"<text x="20" y="28" class="title">{}</text>"##,
        escape(&p.title)
    );
    let _ = writeln!(
        out,
        r##"<text x="20" y="48" class="sub">tuned: {}</text>"##,
        escape(&p.tuned)
    );
    let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
    ];
    let mut top = TOP + 18.0;
    for (i, name) in p.names.iter().enumerate() {
        let ys: Vec<f64> = p.path.iter().map(|t| t[i]).collect();
        let end = ys.last().copied().unwrap_or(p.start[i]);
        let label = format!("{name}: {} → {}", show_number(p.start[i]), show_number(end));
        chart(
            &mut out,
            top,
            &label,
            &ys,
            &[(p.start[i], "start".to_string())],
            colours[i % colours.len()],
            "iterations",
        );
        top += PANEL + GAP;
    }
    if let Some(v) = &p.verified {
        let verdict = match v.verdict {
            Verdict::H1 => "H1 accepted (the tuned values are better)",
            Verdict::H0 => "H0 accepted (not better by the test's margin)",
            Verdict::Continue => "no verdict yet",
        };
        let elo = match v.elo {
            Some((e, w)) => format!("{e:+.1} ± {w:.1} Elo"),
            None => "Elo not known".to_string(),
        };
        let nelo = v.nelo.map_or(String::new(), |n| format!(", {n:+.1} nElo"));
        match v.sprt {
            Some(s) if !v.llr.is_empty() => {
                let label = format!(
                    "verification: LLR {:.2} in [{:.2}, {:.2}] after {} pairs; {elo}{nelo}; {verdict}",
                    v.llr.last().copied().unwrap_or(0.0),
                    s.lower(),
                    s.upper(),
                    v.llr.len()
                );
                let mut ys = vec![0.0];
                ys.extend(&v.llr);
                chart(
                    &mut out,
                    top,
                    &label,
                    &ys,
                    &[
                        (s.lower(), format!("H0 {:.2}", s.lower())),
                        (s.upper(), format!("H1 {:.2}", s.upper())),
                    ],
                    "#444",
                    "game pairs",
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    r##"<text x="20" y="{:.1}" class="label">verification: {} games; {}</text>"##,
                    top,
                    v.games,
                    escape(&elo)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::Sprt;

    #[test]
    fn ticks_are_rounded_to_the_span() {
        assert_eq!(tick(96.2101, 3.79), "96.2");
        assert_eq!(tick(96.2101, 40.0), "96");
        assert_eq!(tick(0.40213, 0.05), "0.402");
        assert_eq!(tick(-0.0001, 2.0), "0");
    }

    #[test]
    fn the_picture_has_a_panel_per_parameter_and_the_test() {
        let path = vec![vec![1.0, 10.0], vec![1.5, 9.0], vec![2.0, 8.5]];
        let p = Picture {
            title: "Jumpy3 tune <x>".to_string(),
            names: vec!["a", "b"],
            start: vec![1.0, 10.0],
            path: &path,
            tuned: "engine,a=2,b=9".to_string(),
            verified: Some(Verified {
                sprt: Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap()),
                llr: vec![0.1, 0.5, 3.1],
                verdict: Verdict::H1,
                elo: Some((25.0, 12.0)),
                nelo: Some(30.0),
                games: 6,
            }),
        };
        let svg = render(&p);
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<path ").count(), 3);
        assert!(svg.contains("a: 1 → 2"));
        assert!(svg.contains("b: 10 → 8.5"));
        assert!(svg.contains("H1 accepted"));
        assert!(svg.contains("+25.0 ± 12.0 Elo"));
        assert!(svg.contains("&lt;x&gt;"), "text is escaped");
    }
}
