//! Jumpy3 against the `minimax` crate, in one process: the same positions at the same
//! depths, every value checked; and the peer's other options.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use benches::check::{alphabeta, engine_to_check, Repetition};
use benches::measure::{fmt_duration, measure, Timing};
use benches::peer::{ours, TABLE_MIB};
use minimax::{
    IterativeOptions, IterativeSearch, ParallelOptions, ParallelSearch, Replacement, Strategy,
};
use plyforge::jumpy3::{Estimate, Position};
use plyforge::search::Limits;

use crate::jumpy3_peer::{
    applied, from_position, peer_to_check, Board, CountingSheetEval, SheetEval,
};
use crate::{jumpy3_peer, ratio, runs, table, Report, RootValue};

fn peer_options() -> IterativeOptions {
    IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20)
}

/// A peer value that stands for "the search panicked".
const PANICKED: i32 = i32::MIN;

/// Runs a peer search and returns its root value on the check's scale, or [`PANICKED`]: its
/// `ParallelSearch` may panic ("Probably some race condition ate the best entry") when the
/// root's table entry is overwritten, which must not end the report.
fn peer_value<S: Strategy<jumpy3_peer::Jumpy3> + RootValue>(s: &mut S, board: &Board) -> i32 {
    std::panic::catch_unwind(AssertUnwindSafe(|| {
        s.choose_move(board);
        peer_to_check(s.root_value())
    }))
    .unwrap_or(PANICKED)
}

impl RootValue for IterativeSearch<SheetEval> {
    fn root_value(&self) -> minimax::Evaluation {
        IterativeSearch::root_value(self)
    }
}

impl RootValue for ParallelSearch<SheetEval> {
    fn root_value(&self) -> minimax::Evaluation {
        ParallelSearch::root_value(self)
    }
}

fn values(v: &[i32]) -> String {
    let set: BTreeSet<i32> = v.iter().copied().collect();
    set.iter()
        .map(|&v| {
            if v == PANICKED {
                "panicked".to_string()
            } else {
                v.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

struct PeerCase {
    label: String,
    position: Position,
    depth: u32,
}

fn peer_cases(quick: bool) -> Vec<PeerCase> {
    let list = benches::data::jumpy3();
    let mut v = Vec::new();
    let start = list[0].position;
    let depths: &[u32] = if quick {
        &[8, 12]
    } else {
        &[8, 12, 16, 20, 24]
    };
    for &d in depths {
        v.push(PeerCase {
            label: "start".into(),
            position: start,
            depth: d,
        });
    }
    let mid_depth = if quick { 10 } else { 18 };
    for e in list.iter().skip(1) {
        if quick && e.label != "sheet-d9a" {
            continue;
        }
        v.push(PeerCase {
            label: e.label.clone(),
            position: e.position,
            depth: mid_depth,
        });
    }
    v
}

/// The peer's searches of `board` to `depth`: `IterativeSearch` (1 thread) and
/// `ParallelSearch` (2 threads) timed over `n` runs with their values, and the iterative
/// search's node count (untimed).
fn theirs(n: usize, depth: u32, board: &Board) -> (Timing, Vec<i32>, Timing, Vec<i32>, u64) {
    let (it, itv) = measure(
        n,
        || {
            let mut s = IterativeSearch::new(SheetEval::default(), peer_options());
            s.set_max_depth(depth as u8);
            s
        },
        |s| peer_value(s, board),
    );
    let (par, parv) = measure(
        n,
        || {
            let mut s = ParallelSearch::new(
                SheetEval::default(),
                peer_options(),
                ParallelOptions::new().with_num_threads(2),
            );
            s.set_max_depth(depth as u8);
            s
        },
        |s| peer_value(s, board),
    );
    // Their node count: one more IterativeSearch, untimed, counting the moves applied.
    let their_nodes = {
        let mut s = IterativeSearch::new(CountingSheetEval::default(), peer_options());
        s.set_max_depth(depth as u8);
        applied();
        s.choose_move(board);
        applied()
    };
    (it, itv, par, parv, their_nodes)
}

/// One position of the peer table: both engines at 1 and 2 threads, the values checked;
/// the row, with the differences from the checks noted in `differences` (and ours in the
/// report's errors).
fn peer_row(
    rep: &mut Report,
    case: &PeerCase,
    target_depth: u32,
    differences: &mut Vec<String>,
) -> Vec<String> {
    let (p, depth) = (case.position, case.depth);
    let board = from_position(&p);
    let n = runs(rep.quick);
    let ours_time = |threads: usize| {
        let (t, r) = measure(
            n,
            || ours(threads),
            |s| s.run(&p, &[], Limits::depth(depth), |_| {}),
        );
        let v: Vec<i32> = r.iter().map(|r| engine_to_check(r.score)).collect();
        (t, v, r[0].nodes)
    };
    let (o1, o1v, ours_nodes) = ours_time(1);
    let (o2, o2v, _) = ours_time(2);
    let (it, itv, par, parv, their_nodes) = theirs(n, depth, &board);
    // The checks, both at once (nothing is being timed now).
    let (plain, with_rep) = std::thread::scope(|sc| {
        let a = sc.spawn(|| alphabeta(&p, &Estimate::Sheet, depth, Repetition::Ignore).0);
        let b = alphabeta(&p, &Estimate::Sheet, depth, Repetition::FirstRecurrence).0;
        (a.join().expect("check thread"), b)
    });
    let mut notes = Vec::new();
    for (who, vals, want, which) in [
        ("ours 1t", &o1v, with_rep, "with repetition"),
        ("ours 2t", &o2v, with_rep, "with repetition"),
        ("IterativeSearch", &itv, plain, "without repetition"),
        ("ParallelSearch", &parv, plain, "without repetition"),
    ] {
        if vals.iter().any(|&v| v != want) {
            let msg = format!(
                "{} depth {depth}: {who} value {} ≠ check {which} {want}",
                case.label,
                values(vals)
            );
            notes.push(format!("{who} ≠ check"));
            if who.starts_with("ours") {
                rep.errors.push(msg.clone());
            }
            differences.push(msg);
        }
    }
    if case.label == "start" && depth == target_depth {
        rep.targets.peer = Some((o1.min(), it.min(), o2.min(), par.min()));
        rep.targets.peer_values = Some(format!(
            "ours {} (1t) / {} (2t), IterativeSearch {}, ParallelSearch {}; check: {with_rep} with \
             the repetition rule, {plain} without",
            values(&o1v),
            values(&o2v),
            values(&itv),
            values(&parv)
        ));
    }
    vec![
        case.label.clone(),
        depth.to_string(),
        ours_nodes.to_string(),
        their_nodes.to_string(),
        fmt_duration(o1.min()),
        fmt_duration(it.min()),
        format!("{:.2}", ratio(o1.min(), it.min())),
        fmt_duration(o2.min()),
        fmt_duration(par.min()),
        format!("{:.2}", ratio(o2.min(), par.min())),
        format!("{} / {}", values(&o1v), values(&o2v)),
        format!("{} / {}", values(&itv), values(&parv)),
        format!("{with_rep} / {plain}"),
        if notes.is_empty() {
            "ok".to_string()
        } else {
            notes.join("; ")
        },
    ]
}

/// The comparison with the peer engine (minimax-rs) in one process: for each position, our
/// engine and the peer's iterative and parallel searches, the values checked equal, the
/// table and the ratios.
pub(crate) fn peer_section(rep: &mut Report) {
    let target_depth = if rep.quick { 12 } else { 24 };
    rep.targets.peer_depth = target_depth;
    let mut rows = Vec::new();
    let mut differences = Vec::new();
    for case in peer_cases(rep.quick) {
        let row = peer_row(rep, &case, target_depth, &mut differences);
        rows.push(row);
    }
    peer_text(rep, &rows, &differences);
}

/// The peer table with what it measures, and the values that differ from their checks.
fn peer_text(rep: &mut Report, rows: &[Vec<String>], differences: &[String]) {
    let md = &mut rep.md;
    let _ = writeln!(md, "## Peer: Jumpy3 against the `minimax` crate\n");
    let _ = writeln!(
        md,
        "Both sides search the same positions to the same depth with the same evaluation, the \
         sheet's estimate (`i + j − 15` from White's view, a win ±100), and a {TABLE_MIB} MiB \
         table. Ours: `jumpy3::engine_config()` with `Estimate::Sheet`, on `jumpy3::Position`. \
         Theirs (minimax 0.6.0): the rules written again for its `Game` trait \
         (`benches/peer/jumpy3_peer.rs`, checked move for move against `jumpy3` by \
         `tests/peer.rs`), `IterativeOptions::new()` (its defaults: principal-variation \
         search, two-tier table) with 1 thread, and `ParallelSearch` (Young Brothers Wait) with \
         `ParallelOptions::new().with_num_threads(2)`. Times are the fastest of {} run(s) (background load only ever adds time), each \
         engine built (table allocated) before the clock starts. The ratio is ours/theirs \
         (below 1: ours is faster).\n\n\
         Values are on the sheet's scale (wins ±100). The check is plain alpha-beta \
         (`benches/src/check.rs`: no table, full window, equal to minimax; it reproduces the \
         course implementations' reference figures), once with the repetition rule as the engine applies \
         it (a position repeating one on the path is a draw) and once without, as the \
         `minimax` crate sees the game (its `Game` trait has no history). Ours is checked \
         against the first, theirs against the second.\n",
        runs(rep.quick)
    );
    table(
        md,
        &[
            "position",
            "depth",
            "our nodes (1t)",
            "their nodes (Iterative)",
            "ours 1t",
            "IterativeSearch 1t",
            "ours/theirs",
            "ours 2t",
            "ParallelSearch 2t",
            "ours/theirs",
            "values ours 1t / 2t",
            "values Iterative / Parallel",
            "check with / without repetition",
            "notes",
        ],
        rows,
    );
    if differences.is_empty() {
        let _ = writeln!(md, "Every value equals its check.\n");
    } else {
        let _ = writeln!(md, "Values that differ from their check:\n");
        for d in differences {
            let _ = writeln!(md, "- {d}");
        }
        md.push('\n');
    }
}

/// The peer's other `IterativeOptions` at the target depth from the start, so that the
/// targets also compare against its fastest setting.
pub(crate) fn peer_options_section(rep: &mut Report) {
    let depth = rep.targets.peer_depth;
    let board = from_position(&Position::start());
    let base = peer_options;
    let variants: [(&str, IterativeOptions); 6] = [
        ("defaults (the table above)", base()),
        ("with_countermoves()", base().with_countermoves()),
        (
            "with_countermove_history()",
            base().with_countermove_history(),
        ),
        (
            "with_aspiration_window(4)",
            base().with_aspiration_window(4),
        ),
        ("with_mtdf()", base().with_mtdf()),
        (
            "with_replacement_strategy(DepthPreferred)",
            base().with_replacement_strategy(Replacement::DepthPreferred),
        ),
    ];
    let mut rows = Vec::new();
    let mut best: Option<(&str, Duration)> = None;
    for (name, o) in variants {
        let (t, v) = measure(
            1,
            || {
                let mut s = IterativeSearch::new(SheetEval::default(), o);
                s.set_max_depth(depth as u8);
                s
            },
            |s| peer_value(s, &board),
        );
        if best.map_or(true, |(_, b)| t.min() < b) {
            best = Some((name, t.min()));
        }
        rows.push(vec![format!("`{name}`"), fmt_duration(t.min()), values(&v)]);
    }
    rep.targets.peer_best = best.map(|(n, t)| (n.to_string(), t));
    let md = &mut rep.md;
    let _ = writeln!(
        md,
        "The peer's other options, `IterativeSearch` from the start at depth {depth}, one run \
         each (null-move pruning and quiescence are left out: they change the value):\n"
    );
    table(md, &["IterativeOptions", "time", "value"], &rows);
}
