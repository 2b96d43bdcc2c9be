//! The report of `cargo xtask bench` in its quick mode (small depths, one run each), as CI
//! runs it: every section runs and writes its part, and the program fails where the engine
//! returns a wrong value (against the check, or two threads against one). Run here by the
//! test suite so that CI builds it once, with the workspace's features; `cargo xtask bench
//! --quick` runs the same.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_quick_report_runs_and_checks_every_value() {
    let report = PathBuf::from(env!("CARGO_BIN_EXE_bench-report"));
    let dir = std::env::temp_dir().join(format!("quick-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.md");
    let mut cmd = Command::new(&report);
    cmd.arg("--quick").arg("--out").arg(&out);
    // The `arena` of the test suite's build, beside this program, for the figures of
    // whole processes (the report leaves that section out where it is not there).
    let arena = report.with_file_name(format!("arena{}", std::env::consts::EXE_SUFFIX));
    if arena.exists() {
        cmd.arg("--arena").arg(&arena);
    }
    let o = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "bench-report --quick failed ({}):\n{text}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let written = std::fs::read_to_string(&out).unwrap();
    for section in [
        "## Search signature",
        "## Games",
        "## Peer: Jumpy3 against the `minimax` crate",
        "## Games a user would write",
        "## How the threads share the search",
        "## Games at a clock against the peer",
        "## Targets",
    ] {
        assert!(
            written.contains(section),
            "no {section:?} in the report:\n{written}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
