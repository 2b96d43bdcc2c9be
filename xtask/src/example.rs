//! `cargo xtask example` (also part of `ci`): the example games, outside the workspace as a
//! user's crates are, each checked as a user builds it.
//!
//! - `examples/games`, 6×6 Othello and Breakthrough on `plyforge-search` alone (the benches
//!   and the arena example `breakthrough` use them): format, lints and tests.
//! - `examples/connect-four`, a user's own game — a game crate on `plyforge-search` alone and
//!   a program of a few lines that registers it with the facade and runs `arena`: format,
//!   lints, tests, and the commands a user would type: `moves`, `apply` (and a malformed
//!   position: exit code 2 and a message), `analyse`, `match --out` then `merge`, `bench`,
//!   and `web` with a browser test that plays a move on `/connect-four`
//!   (`crates/arena/tests/browser/test_user_game.py`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::{cargo, clippy, project_root};

const MANIFEST: &str = "examples/connect-four/Cargo.toml";
/// The crate of 6×6 Othello and Breakthrough.
const GAMES_MANIFEST: &str = "examples/games/Cargo.toml";

/// Runs the example's program with `args` (after the build), returning its output.
fn run_example(bin: &Path, args: &[&str]) -> Result<Output, String> {
    eprintln!("$ connect-four-arena {}", args.join(" "));
    Command::new(bin)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))
}

/// The output's stdout, failing unless it succeeded.
fn ok(bin: &Path, args: &[&str]) -> Result<String, String> {
    let out = run_example(bin, args)?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(format!(
            "connect-four-arena {} failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(text)
}

fn expect(cond: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

/// The examples: `examples/games`, then Connect Four's build, tests, commands and browser.
pub fn run() -> Result<(), String> {
    games()?;
    let root = project_root();
    cargo(
        &["fmt", "--all", "--check", "--manifest-path", MANIFEST],
        &[],
    )?;
    cargo(&["build", "--release", "--manifest-path", MANIFEST], &[])?;
    clippy(
        &[
            "--release",
            "--manifest-path",
            MANIFEST,
            "--workspace",
            "--all-targets",
        ],
        &[],
    )?;
    cargo(
        &[
            "test",
            "--release",
            "--manifest-path",
            MANIFEST,
            "--workspace",
        ],
        &[],
    )?;
    let bin: PathBuf = root.join("examples/connect-four/target/release/connect-four-arena");
    commands(&bin)?;
    browser(&root, &bin)
}

/// `examples/games`: a library alone, so its format, its lints and its tests (with the
/// examples of its documentation).
fn games() -> Result<(), String> {
    cargo(
        &["fmt", "--all", "--check", "--manifest-path", GAMES_MANIFEST],
        &[],
    )?;
    clippy(&["--manifest-path", GAMES_MANIFEST, "--all-targets"], &[])?;
    cargo(&["test", "--manifest-path", GAMES_MANIFEST], &[])
}

/// The commands of the issue that asked for the example, and their answers.
fn commands(bin: &Path) -> Result<(), String> {
    // The first as the README types it, through cargo.
    let cargo_bin = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("$ cargo run --release --manifest-path {MANIFEST} -- moves connect-four start");
    let out = Command::new(cargo_bin)
        .args(["run", "-q", "--release", "--manifest-path", MANIFEST, "--"])
        .args(["moves", "connect-four", "start"])
        .current_dir(project_root())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let moves = String::from_utf8_lossy(&out.stdout).into_owned();
    expect(out.status.success(), || {
        format!("cargo run: {}", String::from_utf8_lossy(&out.stderr))
    })?;
    expect(moves.lines().count() == 7, || {
        format!("7 moves from the start: {moves:?}")
    })?;
    let after = ok(bin, &["apply", "connect-four", "start", "4"])?;
    expect(
        after.trim() == "......./......./......./......./......./...x... o",
        || format!("apply 4: {after:?}"),
    )?;
    let bad = run_example(bin, &["apply", "connect-four", "......./x o", "4"])?;
    let err = String::from_utf8_lossy(&bad.stderr);
    expect(
        bad.status.code() == Some(2) && err.contains("position"),
        || {
            format!(
                "a malformed position: exit {:?}, {err:?}",
                bad.status.code()
            )
        },
    )?;
    let bad = run_example(bin, &["apply", "connect-four", "start", "9"])?;
    let err = String::from_utf8_lossy(&bad.stderr);
    expect(
        bad.status.code() == Some(2) && err.contains("no column 9"),
        || format!("an illegal move: exit {:?}, {err:?}", bad.status.code()),
    )?;
    let bad = run_example(bin, &["moves", "connect-five", "start"])?;
    expect(bad.status.code() == Some(2), || {
        "an unknown game: exit 2".to_string()
    })?;
    let analysis = ok(bin, &["analyse", "connect-four", "start", "--depth", "10"])?;
    expect(analysis.contains("depth 10"), || {
        format!("analyse: {analysis:?}")
    })?;
    let dir = std::env::temp_dir().join(format!("connect-four-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file = dir.join("x.jsonl");
    let file_text = file.to_string_lossy().into_owned();
    let played = ok(
        bin,
        &["match", "connect-four", "--games", "4", "--out", &file_text],
    )?;
    expect(played.contains("4 games in"), || {
        format!("match: {played:?}")
    })?;
    let merged = ok(bin, &["merge", &file_text])?;
    expect(merged.contains("4 games from 1 file"), || {
        format!("merge: {merged:?}")
    })?;
    let _ = std::fs::remove_dir_all(&dir);
    let bench = ok(bin, &["bench", "connect-four"])?;
    expect(bench.contains("signature"), || format!("bench: {bench:?}"))?;
    Ok(())
}

/// `/connect-four` in headless Chromium.
fn browser(root: &Path, bin: &Path) -> Result<(), String> {
    crate::web::ensure_chromium()?;
    let python = crate::web::ensure_selenium(root)?;
    crate::web::unittest(&python, root, "test_user_game", bin)
}
