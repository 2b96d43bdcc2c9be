//! `cargo xtask bench [--quick] [--report-only]`: the criterion suites of `benches/` and the
//! report `target/bench-report.md` (also printed).
//!
//! - full mode (for people, about 10–15 minutes on 2 cores): `cargo bench -p benches` (every
//!   criterion suite, optimised) then the report program
//!   (`cargo run --profile dist -p benches --bin bench-report`, `benches/report/`, in the
//!   profile of the binaries that ship, as `cargo bench`'s profile is): perft and search speed per
//!   game, 1- and 2-thread time to depth, the 2-thread speedup at about a second a search
//!   (synthetic trees), the peer table against the `minimax` crate with every value checked,
//!   the benchmark games a user would write (Connect Four, Othello, Breakthrough: this
//!   engine, the `minimax` crate and a plain hand-written PVS, 1 and 2 threads, nodes, times,
//!   every value checked, the targets per position), every
//!   game's search overhead at 1 to 16 threads, the targets, and the search signature.
//! - `--quick` (CI smoke test, well under 2 minutes once built): the criterion suites run
//!   once each (`cargo test -p benches --bench suites`, criterion's test mode) and the report at
//!   small depths with one run each, both in the test profile that `cargo test` has already
//!   built. No timing is asserted; the report fails only when the engine returns a wrong
//!   value.
//! - `--report-only`: skip criterion.

use crate::cargo;

/// Runs the benchmark suites and writes the report.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut quick = false;
    let mut criterion = true;
    for a in args {
        match a.as_str() {
            "--quick" => quick = true,
            "--report-only" => criterion = false,
            other => {
                return Err(format!(
                    "unknown option `{other}` for bench (expected --quick, --report-only)"
                ))
            }
        }
    }
    let out = crate::project_root().join("target").join("bench-report.md");
    let out = out.to_string_lossy().into_owned();
    // The `arena` program for the report's figures of whole processes: the build that
    // ships (`dist`), or in quick mode the one `cargo test` built (skipped by the report if
    // absent).
    let arena = crate::project_root()
        .join("target")
        .join(if quick { "debug" } else { "dist" })
        .join("arena");
    let arena = arena.to_string_lossy().into_owned();
    if quick {
        if criterion {
            // Without `--bench`, criterion runs every benchmark once, untimed. Only the
            // criterion target: the library has no benchmark.
            cargo(&["test", "-p", "benches", "--bench", "suites"], &[])?;
        }
        cargo(
            &[
                "run",
                "--profile",
                "test",
                "-p",
                "benches",
                "--bin",
                "bench-report",
                "--",
                "--quick",
                "--out",
                &out,
                "--arena",
                &arena,
            ],
            &[],
        )
    } else {
        if criterion {
            cargo(&["bench", "-p", "benches"], &[])?;
        }
        cargo(&["build", "--profile", "dist", "-p", "plyforge-arena"], &[])?;
        cargo(
            &[
                "run",
                "--profile",
                "dist",
                "-p",
                "benches",
                "--bin",
                "bench-report",
                "--",
                "--out",
                &out,
                "--arena",
                &arena,
            ],
            &[],
        )
    }
}
