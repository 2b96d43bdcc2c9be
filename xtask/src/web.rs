//! `cargo xtask ci`'s browser step for `arena web`: installs what it needs where missing
//! (Debian's `chromium` and `chromium-driver`; Selenium in a virtual environment under
//! `target/web-venv`, kept between runs), then drives each game's page in headless Chromium
//! (`crates/arena/tests/browser/test_web.py`) with the `arena` binary that `cargo test`
//! built, and a board of squares (`test_square_board.py`) with the example that registers a
//! 6×6 Breakthrough (`crates/arena/examples/breakthrough`), and saves screenshots of every
//! board under `target/web-screenshots/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::{cargo, project_root};

/// The Selenium versions the test is written for.
const SELENIUM: &str = "selenium>=4.20,<5";

fn found(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program} >/dev/null 2>&1")])
        .status()
        .is_ok_and(|s| s.success())
}

pub(crate) fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    eprintln!("$ {what}");
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// `chromium` and `chromedriver`, from Debian's packages when missing.
pub(crate) fn ensure_chromium() -> Result<(), String> {
    if found("chromium") && found("chromedriver") {
        return Ok(());
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let sudo: &[&str] = if root { &[] } else { &["sudo", "-n"] };
    let apt = |args: &[&str]| {
        let mut all: Vec<&str> = sudo.to_vec();
        all.extend_from_slice(args);
        let mut c = Command::new(all[0]);
        c.args(&all[1..]).env("DEBIAN_FRONTEND", "noninteractive");
        run(&mut c, &all.join(" "))
    };
    apt(&["apt-get", "update", "-qq"])?;
    apt(&["apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"]).map_err(|e| {
        format!("{e}: the browser tests need Debian's chromium and chromium-driver (as root: apt-get install chromium chromium-driver)")
    })
}

/// A virtual environment with Selenium, made once under `target/`.
pub(crate) fn ensure_selenium(root: &Path) -> Result<PathBuf, String> {
    let venv = root.join("target").join("web-venv");
    let python = venv.join("bin").join("python");
    let has = |python: &Path| {
        Command::new(python)
            .args(["-c", "import selenium"])
            .status()
            .is_ok_and(|s| s.success())
    };
    if python.exists() && has(&python) {
        return Ok(python);
    }
    run(
        Command::new("python3").args(["-m", "venv"]).arg(&venv),
        "python3 -m venv target/web-venv",
    )?;
    run(
        Command::new(&python).args(["-m", "pip", "install", "-q", SELENIUM]),
        &format!("pip install '{SELENIUM}' (into target/web-venv)"),
    )?;
    Ok(python)
}

/// The `arena` binary that the integration tests use (built by `cargo test` already).
fn arena_binary(root: &Path) -> Result<PathBuf, String> {
    cargo(
        &["test", "-p", "plyforge-arena", "--test", "web", "--no-run"],
        &[],
    )?;
    let bin = root.join("target").join("debug").join("arena");
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!("{} was not built", bin.display()))
    }
}

/// The example program with a board of squares (`crates/arena/examples/breakthrough`), built
/// with the test profile that `cargo test` built its dependencies with.
fn square_board_binary(root: &Path) -> Result<PathBuf, String> {
    cargo(
        &[
            "build",
            "--profile",
            "test",
            "-p",
            "plyforge-arena",
            "--example",
            "breakthrough",
        ],
        &[],
    )?;
    let bin = root.join("target/debug/examples/breakthrough");
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!("{} was not built", bin.display()))
    }
}

/// `python -m unittest -v MODULE` in `crates/arena/tests/browser`, with `arena` = `bin`.
pub(crate) fn unittest(python: &Path, root: &Path, module: &str, bin: &Path) -> Result<(), String> {
    run(
        Command::new(python)
            .args(["-m", "unittest", "-v", module])
            .current_dir(root.join("crates/arena/tests/browser"))
            .env("ARENA", bin)
            .env("SHOTS", root.join("target").join("web-screenshots"))
            .env("SE_OFFLINE", "true")
            .env("PYTHONDONTWRITEBYTECODE", "1"),
        &format!("python -m unittest -v {module} (crates/arena/tests/browser)"),
    )
}

/// Installs what is missing and runs the browser tests.
pub fn run_browser_tests() -> Result<(), String> {
    let started = Instant::now();
    let root = project_root();
    ensure_chromium()?;
    let python = ensure_selenium(&root)?;
    let arena = arena_binary(&root)?;
    let squares = square_board_binary(&root)?;
    let ready = started.elapsed();
    let shots = root.join("target").join("web-screenshots");
    unittest(&python, &root, "test_web", &arena)?;
    unittest(&python, &root, "test_square_board", &squares)?;
    eprintln!(
        "web: browser tests passed in {:.0?} (setup {:.0?}); screenshots in {}",
        started.elapsed(),
        ready,
        shots.display()
    );
    Ok(())
}
