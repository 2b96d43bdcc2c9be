//! Project automation, run as `cargo xtask <task>` (alias in `.cargo/config.toml`).
//!
//! - `cargo xtask ci`: format check, clippy with warnings denied, the whole test suite, the
//!   docs with warnings denied, every crate packaged and built from its package alone, a
//!   program outside the workspace on one game crate, and a quick run of the benchmarks so
//!   they never rot. Fails fast.
//! - `cargo xtask bench [--quick] [--report-only]`: the benchmark suites and
//!   `target/bench-report.md`.
//! - `cargo xtask fuzz [--seconds N] [TARGET...]`: every fuzz target of `fuzz/` for N seconds
//!   (default 30); `ci` runs each for 20 s.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod bench;
mod fuzz;

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("bench") => bench::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        _ => {
            eprintln!("usage: cargo xtask ci | cargo xtask bench [--quick] [--report-only] | cargo xtask fuzz [--seconds N] [TARGET...]");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (the parent of this crate's folder).
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the root")
        .to_path_buf()
}

/// Runs `cargo ARGS` at the project root with extra environment, failing on a non-zero exit.
pub fn cargo(args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("$ cargo {}", args.join(" "));
    let status = Command::new(&cargo)
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(project_root())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

fn ci() -> Result<(), String> {
    cargo(&["fmt", "--all", "--check"], &[])?;
    cargo(
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    cargo(&["test", "--workspace"], &[])?;
    cargo(
        &["doc", "--workspace", "--no-deps"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    package()?;
    fuzz::ci()?;
    bench::run(&["--quick".to_string()])
}

/// The real test of `cargo add`: every library crate and the program packaged as crates.io
/// would get them, and each built from its package alone (`cargo package` verifies by
/// building the unpacked package, with the workspace's other packages from their own
/// packages); then a program outside the workspace that depends on one game crate alone
/// builds and runs.
fn package() -> Result<(), String> {
    cargo(
        &[
            "package",
            "--workspace",
            "--exclude",
            "benches",
            "--exclude",
            "xtask",
            "--allow-dirty",
        ],
        &[],
    )?;
    let target = project_root().join("target").join("standalone");
    let target = target.to_str().ok_or("the target path is not UTF-8")?;
    cargo(
        &[
            "run",
            "--release",
            "--manifest-path",
            "examples/standalone-jumpy3/Cargo.toml",
            "--target-dir",
            target,
        ],
        &[],
    )
}
