//! Project automation, run as `cargo xtask <task>` (alias in `.cargo/config.toml`).
//!
//! - `cargo xtask ci`: format check, clippy with warnings denied (also on the facade with
//!   each game alone), the whole test suite, the
//!   docs with warnings denied, every crate packaged and built from its package alone, a
//!   program outside the workspace on one game crate, and the benchmarks once, quickly, so
//!   they never rot (in the test suite: `cargo test` runs each criterion benchmark once and
//!   `benches/tests/quick_report.rs` the report's quick mode, built once with the rest).
//!   Fails fast; each step's time is printed.
//! - `cargo xtask package`: the packaging step of `ci` alone.
//! - `cargo xtask python`: the Python package alone (also part of `ci`): a venv under
//!   `target/`, `pip install ./python`, mypy and pytest.
//! - `cargo xtask example`: the example games outside the workspace built as a user builds
//!   them: `examples/games` (6×6 Othello and Breakthrough) with its lints and tests, and the
//!   example of a user's own game (`examples/connect-four`) with its tests, its `arena`
//!   commands and its web page in a browser (also part of `ci`).
//! - `cargo xtask web`: the browser tests of `arena web` alone (also part of `ci`): installs
//!   chromium, chromium-driver and Selenium where missing; screenshots in
//!   `target/web-screenshots/`.
//! - `cargo xtask bench [--quick] [--report-only]`: the benchmark suites and
//!   `target/bench-report.md`.
//! - `cargo xtask fuzz [--seconds N] [--dev] [TARGET...]`: every fuzz target of `fuzz/` for N
//!   seconds (default 30; `--dev`: built without optimisation); `ci` runs each for 10 s, `--dev`.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod bench;
#[cfg(test)]
mod circles;
mod example;
mod fuzz;
mod matches;
mod python;
#[cfg(test)]
mod tidy;
mod web;

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("bench") => bench::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("python") => python::alone(),
        Some("package") => package(),
        Some("web") => web::run_browser_tests(),
        Some("example") => example::run(),
        _ => {
            eprintln!(
                "usage: cargo xtask ci | package | python | web | example | fuzz [--seconds N] [--dev] [TARGET...] | bench [--quick] [--report-only]"
            );
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

/// `cargo clippy ARGS -- -D warnings` (every warning an error) with extra environment.
pub fn clippy(args: &[&str], envs: &[(&str, &str)]) -> Result<(), String> {
    let mut all = vec!["clippy"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "-D", "warnings"]);
    cargo(&all, envs)
}

fn ci() -> Result<(), String> {
    type Step = (&'static str, fn() -> Result<(), String>);
    let steps: Vec<Step> = vec![
        ("format", || cargo(&["fmt", "--all", "--check"], &[])),
        ("clippy", || clippy(&["--workspace", "--all-targets"], &[])),
        ("one game alone", one_game_builds),
        ("matches", matches::ci),
        ("tests", || cargo(&["test", "--workspace"], &[])),
        ("browser", web::run_browser_tests),
        ("examples", example::run),
        ("docs", || {
            cargo(
                &["doc", "--workspace", "--no-deps"],
                &[("RUSTDOCFLAGS", "-D warnings")],
            )
        }),
        ("packages", package),
        ("python", python::ci),
        ("fuzz", fuzz::ci),
    ];
    let start = std::time::Instant::now();
    let mut times = Vec::new();
    for (name, step) in steps {
        let t = std::time::Instant::now();
        let result = step();
        times.push((name, t.elapsed().as_secs()));
        // Each step's time, so that a slow one shows in the log of a run that fails too.
        let line: Vec<String> = times.iter().map(|(n, s)| format!("{n} {s} s")).collect();
        eprintln!(
            "xtask: ci after {} s: {}",
            start.elapsed().as_secs(),
            line.join(", ")
        );
        result?;
    }
    Ok(())
}

/// The facade built with one game alone (`--no-default-features --features GAME`), as a
/// user who wants one game gets it, and with none (a user's own games only): it must build,
/// and without warnings (code shared by some games only is behind their features).
fn one_game_builds() -> Result<(), String> {
    // No game at all: the facade for a user's own games alone.
    clippy(&["-p", "plyforge", "--no-default-features"], &[])?;
    for game in default_games()? {
        clippy(
            &[
                "-p",
                "plyforge",
                "--no-default-features",
                "--features",
                &game,
            ],
            &[],
        )?;
    }
    Ok(())
}

/// The games compiled into the facade by default: its `default` features, in order (each a
/// game crate under `crates/`), read from `crates/plyforge/Cargo.toml` so that no list of
/// games is kept here.
pub fn default_games() -> Result<Vec<String>, String> {
    let path = project_root().join("crates/plyforge/Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("default = ["))
        .ok_or_else(|| format!("{}: no `default = [...]` feature list", path.display()))?;
    let list = line
        .split_once('[')
        .and_then(|(_, r)| r.split_once(']'))
        .map(|(l, _)| l)
        .unwrap_or("");
    Ok(list
        .split(',')
        .map(|g| g.trim().trim_matches('"').to_string())
        .filter(|g| !g.is_empty())
        .collect())
}

/// The test-data folders of every game the fuzz targets fuzz, in the fuzz crate's order:
/// the default games' (`crates/GAME/tests/data`), then the example of a user's game.
pub fn game_data_dirs(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut dirs: Vec<PathBuf> = default_games()?
        .iter()
        .map(|g| root.join("crates").join(g).join("tests").join("data"))
        .collect();
    dirs.push(root.join("examples/connect-four/game/tests/data"));
    Ok(dirs)
}

/// Removes what an earlier `cargo package` left: its build folders and the copies of this
/// workspace's packages it unpacked into cargo's registry folder. Cargo verifies a package against its siblings through a
/// temporary local registry, and unpacks each sibling under `$CARGO_HOME/registry/src/`
/// by name and version; a copy from an earlier run with the same version would be reused
/// as it was (a run here built `plyforge-chaosclock` against a stale `plyforge-search`).
/// None of our packages is on crates.io, so every `plyforge*` folder there is such a copy.
fn forget_packaged_copies() -> Result<(), String> {
    // And the build folder of the verification: it too takes a registry package of the
    // same version for the one it built before.
    for dir in ["package", "package-verify"] {
        let built = project_root().join("target").join(dir);
        if built.exists() {
            std::fs::remove_dir_all(&built)
                .map_err(|e| format!("cannot remove {}: {e}", built.display()))?;
        }
    }
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return Ok(());
    };
    let Ok(registries) = std::fs::read_dir(&src) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        let Ok(entries) = std::fs::read_dir(registry.path()) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with("plyforge") {
                std::fs::remove_dir_all(entry.path())
                    .map_err(|e| format!("cannot remove {}: {e}", entry.path().display()))?;
            }
        }
    }
    Ok(())
}

/// The real test of `cargo add`: every library crate and the program packaged as crates.io
/// would get them, and each built from its package alone (`cargo package` verifies by
/// building the unpacked package, with the workspace's other packages from their own
/// packages); then a program outside the workspace that depends on one game crate alone
/// builds and runs.
fn package() -> Result<(), String> {
    forget_packaged_copies()?;
    let verify = project_root().join("target").join("package-verify");
    let verify = verify.to_str().ok_or("the target path is not UTF-8")?;
    cargo(
        &[
            "package",
            "--workspace",
            "--exclude",
            "benches",
            "--exclude",
            "xtask",
            "--allow-dirty",
            "--target-dir",
            verify,
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
