//! The targets, met or missed, with the figures.

use std::fmt::Write as _;

use benches::measure::fmt_duration;

use crate::{ratio, Report};

pub(crate) fn targets_section(rep: &mut Report) {
    let quick = rep.quick;
    let t = &rep.targets;
    let md = &mut rep.md;
    let _ = writeln!(md, "## Targets\n");
    if quick {
        let _ = writeln!(
            md,
            "Quick mode: the figures below are at depth {} and not an assessment (run \
             `cargo xtask bench` for the full report).\n",
            t.peer_depth
        );
    }
    let verdict = |ok: bool| match (quick, ok) {
        (true, _) => "not assessed in quick mode",
        (false, true) => "met",
        (false, false) => "MISSED",
    };
    if let Some((o1, it, o2, par)) = t.peer {
        let r1 = ratio(it, o1);
        let r2 = ratio(par, o2);
        let _ = writeln!(
            md,
            "- Jumpy3 from the start, depth {}, 1 thread: ours {} vs IterativeSearch {}: \
             theirs/ours {r1:.2} (target ≥ 3): **{}**",
            t.peer_depth,
            fmt_duration(o1),
            fmt_duration(it),
            verdict(r1 >= 3.0)
        );
        if let Some((name, best)) = &t.peer_best {
            let r = ratio(*best, o1);
            let _ = writeln!(
                md,
                "- The same against the peer's fastest option set measured (`{name}`, {}, one \
                 run): theirs/ours {r:.2}: **{}**",
                fmt_duration(*best),
                verdict(r >= 3.0)
            );
        }
        let _ = writeln!(
            md,
            "- Jumpy3 from the start, depth {}, 2 threads: ours {} vs ParallelSearch {}: \
             theirs/ours {r2:.2} (target ≥ 3): **{}**",
            t.peer_depth,
            fmt_duration(o2),
            fmt_duration(par),
            verdict(r2 >= 3.0)
        );
    }
    if let Some(v) = &t.peer_values {
        let _ = writeln!(md, "- Values at that depth: {v}.");
    }
    if let Some((depth, per_search, s)) = t.synthetic {
        let _ = writeln!(
            md,
            "- Synthetic two-player trees, depth {depth} ({} a search on 1 thread): 2-thread \
             speedup in time to depth (medians) {s:.2}× (target ≥ 1.7× at about 1 s): **{}**",
            fmt_duration(per_search),
            verdict(s >= 1.7)
        );
    }
    for (g, s) in &t.speedups {
        let _ = writeln!(
            md,
            "- {g}: 2-thread speedup in time to depth {s:.2}× (target ≥ 1.7×): **{}**",
            verdict(*s >= 1.7)
        );
    }
    md.push('\n');
    for (title, list) in [
        ("Games a user would write, search overhead", &t.user_games),
        (
            "Every position of the games a user would write",
            &t.positions,
        ),
        ("As a user meets it (see that section)", &t.user),
    ] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(md, "{title}:\n");
        for (what, figure, target, met) in list {
            let _ = writeln!(
                md,
                "- {what}: {figure} (target {target}): **{}**",
                verdict(*met)
            );
        }
        md.push('\n');
    }
}
