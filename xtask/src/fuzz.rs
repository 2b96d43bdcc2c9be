//! `cargo xtask fuzz [--seconds N] [--dev] [TARGET...]`: runs every fuzz target of `fuzz/` (or the
//! ones named) for N seconds each (default 30), with libFuzzer through cargo-fuzz on the
//! nightly toolchain.
//!
//! - cargo-fuzz is installed under `target/tools` when missing (so that CI can cache it with
//!   the rest of `target/`); nightly must be there (`rustup toolchain install nightly`).
//! - The corpora are seeded from the test data (`fuzz/seeds/` and seeds cut from the notation
//!   corpora and vectors under `crates/*/tests/data/`), and kept in `target/fuzz/corpus/`
//!   between runs.
//! - `--dev` (what `ci` uses): the targets built without optimisation, in
//!   `target/fuzz/build-dev`: a build of 75 s instead of 3 min 40 s on 2 cores, for a smoke
//!   run of a few seconds where the number of inputs matters less than the build's wait.
//! - The build lives in `target/fuzz/build`; no sanitizer is used (the code has no `unsafe`
//!   on these paths, and without one libFuzzer runs several times as many inputs), but debug
//!   assertions (overflow checks) are on.
//! - A crash stops the run with the target's name; its input is in `target/fuzz/artifacts/`.
//!
//! The number of runs of each target is printed at the end (libFuzzer's `stat::` lines).

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::project_root;

/// The fuzz targets, as in `fuzz/Cargo.toml`.
pub const TARGETS: &[&str] = &[
    "notation",
    "play",
    "protocol_line",
    "protocol_session",
    "server_wire",
    "server_record",
    "match_record",
];

/// Seconds per target when `--seconds` is not given.
pub const DEFAULT_SECONDS: u64 = 30;

/// Seconds per target in `cargo xtask ci`.
pub const CI_SECONDS: u64 = 10;

/// The CI step: every target for [`CI_SECONDS`], built without optimisation (`--dev`).
pub fn ci() -> Result<(), String> {
    run(&[
        "--seconds".to_string(),
        CI_SECONDS.to_string(),
        "--dev".to_string(),
    ])
}

/// `cargo xtask fuzz [--seconds N] [--dev] [TARGET...]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut seconds = DEFAULT_SECONDS;
    let mut dev = false;
    let mut targets: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--seconds" => {
                let v = args.get(i + 1).ok_or("--seconds needs a number")?;
                seconds = v
                    .parse()
                    .map_err(|_| format!("--seconds {v}: not a whole number"))?;
                if seconds == 0 {
                    return Err("--seconds: at least 1".into());
                }
                i += 2;
            }
            "--dev" => {
                dev = true;
                i += 1;
            }
            t => {
                let known = TARGETS
                    .iter()
                    .find(|k| **k == t)
                    .ok_or_else(|| format!("unknown fuzz target {t:?} ({})", TARGETS.join(", ")))?;
                targets.push(known);
                i += 1;
            }
        }
    }
    if targets.is_empty() {
        targets = TARGETS.to_vec();
    }
    let root = project_root();
    let work = root.join("target").join("fuzz");
    let cargo_fuzz = install_cargo_fuzz(&root)?;
    let build = work.join(if dev { "build-dev" } else { "build" });
    let mut stats = Vec::new();
    for t in &targets {
        let corpus = work.join("corpus").join(t);
        let seeds = work.join("seeds").join(t);
        let artifacts = work.join("artifacts").join(t);
        for d in [&corpus, &seeds, &artifacts] {
            fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        let n = seed(&root, t, &seeds)?;
        eprintln!("$ fuzz {t} for {seconds} s ({n} seeds)");
        let out = Command::new(&cargo_fuzz)
            .args(["fuzz", "run", "--sanitizer", "none", "--debug-assertions"])
            .args(if dev { &["--dev"][..] } else { &[][..] })
            .arg("--target-dir")
            .arg(&build)
            .arg("--fuzz-dir")
            .arg(root.join("fuzz"))
            .arg(t)
            .arg(&corpus)
            .arg(&seeds)
            .arg("--")
            .arg(format!("-max_total_time={seconds}"))
            .arg("-print_final_stats=1")
            .arg("-rss_limit_mb=4096")
            .arg("-timeout=30")
            .arg(format!("-artifact_prefix={}/", artifacts.display()))
            .env("RUSTUP_TOOLCHAIN", "nightly")
            // Under `cargo xtask`, CARGO names the stable cargo: let rustup choose.
            .env_remove("CARGO")
            .env_remove("RUSTC")
            .current_dir(&root)
            .output()
            .map_err(|e| format!("cannot run cargo-fuzz: {e}"))?;
        let err = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            let tail: Vec<&str> = err.lines().rev().take(120).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!(
                "fuzz target {t} failed ({}); inputs in {}:\n{}",
                out.status,
                artifacts.display(),
                tail.join("\n")
            ));
        }
        let runs = stat(&err, "stat::number_of_executed_units:").unwrap_or(0);
        let corpus_size = fs::read_dir(&corpus).map_or(0, |d| d.count());
        eprintln!("  {t}: {runs} runs, corpus {corpus_size} inputs");
        stats.push((t.to_string(), runs, corpus_size));
    }
    println!("| target | seconds | runs | runs/s | corpus |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (t, runs, corpus) in &stats {
        println!(
            "| {t} | {seconds} | {runs} | {} | {corpus} |",
            runs / seconds
        );
    }
    Ok(())
}

/// A `stat::NAME: VALUE` line of libFuzzer's final report.
fn stat(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(name))
        .and_then(|v| v.trim().parse().ok())
}

/// The nightly toolchain, installed (minimal profile) if missing.
fn install_nightly() -> Result<(), String> {
    let have = Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if have {
        return Ok(());
    }
    eprintln!("$ rustup toolchain install nightly --profile minimal");
    let status = Command::new("rustup")
        .args(["toolchain", "install", "nightly", "--profile", "minimal"])
        .status()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "installing the nightly toolchain failed ({status})"
        ))
    }
}

/// `target/tools/bin/cargo-fuzz`, installed there if missing.
fn install_cargo_fuzz(root: &Path) -> Result<PathBuf, String> {
    install_nightly()?;
    let tools = root.join("target").join("tools");
    let bin = tools.join("bin").join("cargo-fuzz");
    if bin.exists() {
        return Ok(bin);
    }
    let tools_text = tools.to_str().ok_or("the target path is not UTF-8")?;
    crate::cargo(
        &["install", "--locked", "--root", tools_text, "cargo-fuzz"],
        &[],
    )?;
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!(
            "cargo-fuzz was installed, but not at {}",
            bin.display()
        ))
    }
}

/// Writes the seeds of `target` into `dir` (one file per input, named by its hash): the
/// hand-made seeds of `fuzz/seeds/TARGET/`, and inputs cut from the test data. Returns how
/// many there are.
fn seed(root: &Path, target: &str, dir: &Path) -> Result<usize, String> {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let hand = root.join("fuzz").join("seeds").join(target);
    if let Ok(entries) = fs::read_dir(&hand) {
        for e in entries.flatten() {
            if let Ok(bytes) = fs::read(e.path()) {
                inputs.push(bytes);
            }
        }
    }
    // The test data of the fuzzed games, in the fuzz crate's order of games.
    let data = crate::game_data_dirs(root)?;
    match target {
        "notation" => {
            for dir in &data {
                notation_seeds(dir, &mut inputs);
            }
        }
        "protocol_line" | "protocol_session" => {
            // Positions of every game's corpora as `position fen …` lines.
            let mut positions = Vec::new();
            for (i, dir) in data.iter().enumerate() {
                let mut found = Vec::new();
                notation_seeds(dir, &mut found);
                for f in found.into_iter().step_by(97).take(20) {
                    let text = String::from_utf8_lossy(&f).into_owned();
                    let pos = text.split('\n').next().unwrap_or("").to_string();
                    positions.push((i as u8, pos));
                }
            }
            for (game, pos) in positions {
                let lines = format!("position fen {pos}\ngo depth 2\nd\n");
                if target == "protocol_session" {
                    let mut v = vec![game];
                    v.extend_from_slice(lines.as_bytes());
                    inputs.push(v);
                } else {
                    inputs.push(format!("position fen {pos}").into_bytes());
                }
            }
        }
        _ => {}
    }
    let mut written = 0;
    for input in inputs {
        let mut h = DefaultHasher::new();
        input.hash(&mut h);
        let path = dir.join(format!("{:016x}", h.finish()));
        if !path.exists() {
            fs::write(&path, &input).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        written += 1;
    }
    Ok(written)
}

/// Seeds `POSITION\nMOVE` cut from a game's test data: from its vectors (JSON lines) each
/// position with the moves and strings beside it, and the lines of its text corpora (valid
/// and invalid positions, perft positions); at most about 1500.
fn notation_seeds(dir: &Path, out: &mut Vec<Vec<u8>>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    let mut found = Vec::new();
    for f in files {
        let Ok(text) = fs::read_to_string(&f) else {
            continue;
        };
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if line.starts_with('{') {
                let strings = json_strings(line);
                for (i, s) in strings.iter().enumerate() {
                    if !looks_like_position(s) {
                        continue;
                    }
                    found.push(s.as_bytes().to_vec());
                    let near = strings[i + 1..].iter().filter(|m| !looks_like_position(m));
                    for m in near.filter(|m| !KEYS.contains(&m.as_str())).take(3) {
                        found.push(format!("{s}\n{m}").into_bytes());
                    }
                }
            } else {
                // `POSITION ; …` (perft), `POSITION\tERROR` (corpora), `GAME\tPOSITION…`.
                for field in line.split([';', '\t']) {
                    found.push(field.trim().as_bytes().to_vec());
                }
            }
        }
    }
    let step = (found.len() / 1500).max(1);
    out.extend(found.into_iter().step_by(step));
}

/// Keys of the vectors' JSON objects: not moves.
const KEYS: &[&str] = &[
    "pos",
    "moves",
    "legal",
    "next",
    "plies",
    "best",
    "outcome",
    "code",
    "result",
    "prisoners",
];

/// A position of any game's notation, roughly: long, with a field separator and board
/// characters.
fn looks_like_position(s: &str) -> bool {
    s.len() >= 12 && (s.contains(' ') || s.contains(';')) && s.contains(['/', '.', ';'])
}

/// The string literals of a line of JSON (without their quotes; `\"` and `\\` unescaped).
fn json_strings(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let Some(n) = chars.next() {
                        s.push(n);
                    }
                }
                '"' => break,
                c => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_cut_out() {
        assert_eq!(
            json_strings(r#"{"pos": "a b", "moves": {"4": "x\"y"}}"#),
            ["pos", "a b", "moves", "4", "x\"y"]
        );
        assert_eq!(
            stat(
                "#1 DONE\nstat::number_of_executed_units: 1234\n",
                "stat::number_of_executed_units:"
            ),
            Some(1234)
        );
    }
}
