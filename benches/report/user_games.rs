//! The benchmark games a user would write (Connect Four, Othello, Breakthrough): this
//! engine, the `minimax` crate and a plain hand-written alpha-beta.

use std::fmt::Write as _;

use crate::{ratio, runs, user_compare, Report};

/// The benchmark games a user would write: this engine, the `minimax`
/// crate and a plain hand-written alpha-beta on each position of each game's list; every
/// value checked; the targets per position.
pub(crate) fn user_games_section(rep: &mut Report) {
    let opts = user_compare::Opts {
        runs: runs(rep.quick),
        quick: rep.quick,
        overhead: true,
        ..user_compare::Opts::default()
    };
    let r = user_compare::run(&opts);
    rep.errors.extend(r.errors.iter().cloned());
    for (game, [ours1, ours2, peer1, peer2, plain], [n_ours, n_peer, _]) in r.totals() {
        let t = &mut rep.targets.user_games;
        let peer = ratio(peer1, ours1);
        t.push((
            format!(
                "{game}: minimax 1t / ours 1t (time), nodes ours / minimax {n_ours} / {n_peer}"
            ),
            format!("{peer:.2}×"),
            "≥ 2× with no more nodes",
            peer >= 2.0 && n_ours <= n_peer,
        ));
        let p = ratio(plain, ours1);
        t.push((
            format!("{game}: plain alpha-beta / ours (time)"),
            format!("{p:.2}×"),
            "≥ 1×",
            p >= 1.0,
        ));
        let s2 = ratio(ours1, ours2);
        t.push((
            format!("{game}: 2-thread speedup"),
            format!("{s2:.2}×"),
            "≥ 1.8×",
            s2 >= 1.8,
        ));
        let p2 = ratio(peer2, ours2);
        t.push((
            format!("{game}: minimax ParallelSearch 2t / ours 2t"),
            format!("{p2:.2}×"),
            "(figure)",
            true,
        ));
    }
    for row in &r.rows {
        let (t, n) = (&row.times, &row.nodes);
        let (peer, plain) = (ratio(t[2], t[0]), ratio(t[4], t[0]));
        rep.targets.positions.push((
            format!(
                "{} {} depth {}, 1 thread: minimax / ours, plain / ours (time); nodes ours / \
                 plain {} / {}",
                row.game, row.label, row.depth, n[0], n[2]
            ),
            format!("{peer:.2}×, {plain:.2}×"),
            "≥ 2×, ≥ 1× with no more nodes",
            peer >= 2.0 && plain >= 1.0 && n[0] <= n[2],
        ));
        let two = ratio(t[0], t[1]);
        rep.targets.positions.push((
            format!(
                "{} {} depth {}: ours 1 thread / 2 threads (time)",
                row.game, row.label, row.depth
            ),
            format!("{two:.2}×"),
            "≥ 1×",
            two >= 1.0,
        ));
    }
    for (game, totals) in &r.overhead {
        let one = totals[0].1.max(1) as f64;
        let at16 = totals.last().map_or(0, |t| t.1) as f64 / one;
        rep.targets.positions.push((
            format!("{game}: search overhead over its positions, nodes at 16 threads / 1 thread"),
            format!("{at16:.2}×"),
            "≤ 1.5×",
            at16 <= 1.5,
        ));
    }
    let md = &mut rep.md;
    let _ = writeln!(md, "## Games a user would write\n");
    let _ = writeln!(
        md,
        "Connect Four (`examples/connect-four/game`), 6×6 Othello and 6×6 Breakthrough \
         (`examples/games`, Breakthrough's captures as noisy moves) from \
         the positions of `benches/data/connect_four.txt`, `othello.txt` and \
         `breakthrough.txt`: this engine at its defaults (`Config::default()`, the evaluation \
         through `SideToMove`; quiescence off for Breakthrough, as the others search none), \
         the `minimax` crate at its defaults (`IterativeOptions::new()`; `ParallelSearch` with \
         2 threads), both with a {} MiB table, and the plain hand-written alpha-beta of \
         `benches/src/plain.rs` (PVS, iterative deepening, two-slot table, table move then the \
         game's order). The programs run in turn, {} round(s); times are each program's \
         fastest; ratios above 1 mean ours is faster; nodes per second side by side (ours and \
         plain). The values (side to move's view; the peer's wins as ±MATE) must all agree, \
         or the report fails. Last lines: this engine's total nodes to the same depths at 1 \
         to 16 threads (the parallel search's overhead).\n",
        user_compare::TABLE_MIB,
        runs(rep.quick)
    );
    md.push_str(&r.markdown());
    md.push('\n');
}
