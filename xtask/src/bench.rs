//! `cargo xtask bench [--quick]`: runs the criterion suites of `benches/`.

use crate::cargo;

/// Runs the benchmark suites; `--quick` runs each once as a smoke test (no timing).
pub fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    for a in args {
        if a != "--quick" {
            return Err(format!("unknown option `{a}` for bench (expected --quick)"));
        }
    }
    if quick {
        // `--test` runs every benchmark function once, checking it works without timing it.
        cargo(&["bench", "-p", "benches", "--", "--test"], &[])
    } else {
        cargo(&["bench", "-p", "benches"], &[])
    }
}
