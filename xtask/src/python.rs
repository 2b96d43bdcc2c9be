//! The Python package's CI step (`python/`), part of `cargo xtask ci` and alone as
//! `cargo xtask python`: fmt and clippy of the extension crate (outside the workspace), a
//! venv under `target/python-venv` (kept between
//! runs), the tools the tests need from PyPI, the package built by maturin and installed with
//! `pip install ./python`, mypy on the package (stubs included) and its tests, then pytest on
//! `python/tests` (the vectors, the contract, the engine, PettingZoo, the COMP30024 player,
//! and the speed comparison as a smoke run).
//!
//! The extension is built into `target/python-build` (its own cargo target folder, kept
//! between runs: only the first build compiles the dependencies). The tests that compare
//! with `arena apply` use `target/debug/arena` in the test profile that `cargo test` has built.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::{cargo, clippy, project_root};

/// What the tests need from PyPI (pettingzoo brings gymnasium).
const TOOLS: &[&str] = &[
    "maturin>=1.5,<2",
    "pytest>=7",
    "mypy>=1.8",
    "numpy>=1.21",
    "pettingzoo>=1.24",
];

/// Runs a program at the project root with extra environment, failing on a non-zero exit.
fn run(program: &Path, args: &[&str], envs: &[(&str, &str)], dir: &Path) -> Result<(), String> {
    eprintln!("$ {} {}", program.display(), args.join(" "));
    let status = Command::new(program)
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(dir)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{} {}` failed ({status})",
            program.display(),
            args.join(" ")
        ))
    }
}

/// The Python package's build and tests.
pub fn ci() -> Result<(), String> {
    run_all(true)
}

/// `cargo xtask python` alone: as [`ci`], building the test profile's `arena` first.
pub fn alone() -> Result<(), String> {
    run_all(false)
}

/// The step; `built`: the test suite's build (`cargo test --workspace`, just before in
/// `cargo xtask ci`) has left `target/debug/arena`, so it is not built again here (a build
/// of the one package resolves its dependencies' features apart from the workspace's, and
/// so compiles them all again: a minute on 2 cores).
fn run_all(built: bool) -> Result<(), String> {
    let started = Instant::now();
    let root = project_root();
    let target = root.join("target");
    let venv = target.join("python-venv");
    let bin = venv.join("bin");
    let python = bin.join("python");
    if !python.exists() {
        let system = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
        run(
            Path::new(&system),
            &["-m", "venv", &venv.to_string_lossy()],
            &[],
            &root,
        )
        .map_err(|e| format!("{e} (Python 3.9 or later with venv is needed)"))?;
    }
    let pip_quiet = ["-m", "pip", "install", "-q", "--disable-pip-version-check"];
    let mut args = pip_quiet.to_vec();
    args.extend_from_slice(TOOLS);
    run(&python, &args, &[], &root)?;

    // maturin (run by pip) must be on PATH; the extension builds into its own target folder.
    let path = format!(
        "{}:{}",
        bin.to_string_lossy(),
        std::env::var("PATH").unwrap_or_default()
    );
    let build_dir = target.join("python-build");
    let build_dir = build_dir.to_string_lossy();
    let env = [
        ("PATH", path.as_str()),
        ("CARGO_TARGET_DIR", build_dir.as_ref()),
        ("VIRTUAL_ENV", &*venv.to_string_lossy()),
        ("PYTHONDONTWRITEBYTECODE", "1"),
    ];
    // The extension crate is outside the workspace: its own format and lint checks.
    let manifest = ["--manifest-path", "python/Cargo.toml"];
    cargo(&["fmt", manifest[0], manifest[1], "--check"], &[])?;
    let venv_python = python.to_string_lossy();
    clippy(
        &[manifest[0], manifest[1], "--all-targets"],
        &[
            ("CARGO_TARGET_DIR", build_dir.as_ref()),
            ("PYO3_PYTHON", venv_python.as_ref()),
        ],
    )?;

    let mut args = pip_quiet.to_vec();
    args.extend_from_slice(&[
        "--no-build-isolation",
        "--force-reinstall",
        "--no-deps",
        "./python",
    ]);
    run(&python, &args, &env, &root)?;

    run(
        &bin.join("mypy"),
        &[
            "--config-file",
            "python/pyproject.toml",
            "python/plyforge",
            "python/tests",
        ],
        &env,
        &root,
    )?;

    let arena = target.join("debug").join("arena");
    if !built || !arena.exists() {
        cargo(&["build", "--profile", "test", "-p", "plyforge-arena"], &[])?;
    }
    let arena = arena.to_string_lossy();
    let mut env = env.to_vec();
    env.push(("ARENA", arena.as_ref()));
    run(
        &bin.join("pytest"),
        &["-q", "-p", "no:cacheprovider", "python/tests"],
        &env,
        &root,
    )?;
    eprintln!(
        "python: built, installed and tested in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
