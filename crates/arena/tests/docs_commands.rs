//! Every `arena` command that the repository's documentation shows (the README, `docs/`, the
//! crates' READMEs, `deploy/README.md`) is one the program takes as written: its subcommand,
//! its options and their values, and the game's name (a game of a user's own program is
//! shown through that program, never as plain `arena`). The rules' commands (`moves`,
//! `apply`, `perft`) are run for real and must succeed.
//!
//! A line is left out when it cannot be checked as written: it elides arguments (`…`, `...`),
//! names placeholders in capitals (`GAME`, `FILE`), or is shell around the program (a pipe,
//! `$(…)`, `&&`).

#[path = "../examples/breakthrough/game.rs"]
mod breakthrough;
#[path = "../examples/othello/game.rs"]
mod othello;

use std::path::{Path, PathBuf};
use std::process::Command;

use plyforge_arena::Arena;

/// The documents whose commands are checked, relative to the repository's root.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md"), root.join("deploy/README.md")];
    for dir in ["docs", "crates"] {
        for e in std::fs::read_dir(root.join(dir))
            .expect("a folder")
            .flatten()
        {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "md") {
                docs.push(p);
            } else if p.join("README.md").exists() {
                docs.push(p.join("README.md"));
            }
        }
    }
    docs.sort();
    docs
}

/// The program a command is shown through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Program {
    /// `arena`, with the default games.
    Arena,
    /// The arena program with Breakthrough too (`--example breakthrough`).
    Breakthrough,
    /// The arena program with Othello too (`--example othello`).
    Othello,
}

/// A command shown in a document: where, which program, its arguments.
struct Shown {
    place: String,
    program: Program,
    args: Vec<String>,
}

/// The words of a shell line (quotes '…' and "…" kept together, a `#` comment dropped).
fn words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, '#') if cur.is_empty() && !any => break,
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() || any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || any {
        out.push(cur);
    }
    out
}

/// The commands of the code blocks of `text`.
fn commands(file: &str, text: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    let mut in_code = false;
    let mut pending = String::new();
    let mut start = 0;
    for (n, raw) in text.lines().enumerate() {
        if raw.trim_start().starts_with("```") {
            in_code = !in_code;
            pending.clear();
            continue;
        }
        if !in_code {
            continue;
        }
        if pending.is_empty() {
            start = n + 1;
        }
        let line = raw.trim();
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        let full = std::mem::take(&mut pending);
        let full = full.trim().trim_start_matches("$ ");
        let elided = ["…", "...", "|", "$(", "&&", " & ", "<", ">"]
            .iter()
            .any(|s| full.contains(s))
            || full.ends_with('&');
        let w = words(full);
        let (program, rest) = match w.first().map(String::as_str) {
            Some("arena") => (Program::Arena, &w[1..]),
            Some("cargo") => {
                let Some(dashes) = w.iter().position(|x| x == "--") else {
                    continue;
                };
                let cargo = &w[..dashes];
                if !cargo.iter().any(|x| x == "plyforge-arena")
                    || cargo.iter().any(|x| x == "bench")
                {
                    continue;
                }
                let example = cargo.windows(2).find(|p| p[0] == "--example");
                match example.map(|p| p[1].as_str()) {
                    None => (Program::Arena, &w[dashes + 1..]),
                    Some("breakthrough") => (Program::Breakthrough, &w[dashes + 1..]),
                    Some("othello") => (Program::Othello, &w[dashes + 1..]),
                    Some(_) => continue,
                }
            }
            _ => continue,
        };
        let placeholder = rest.iter().any(|a| {
            a.len() > 1
                && a.chars().any(|c| c.is_ascii_uppercase())
                && a.chars()
                    .all(|c| c.is_ascii_uppercase() || "_[]=.,:".contains(c))
        });
        if elided || placeholder || rest.is_empty() {
            continue;
        }
        out.push(Shown {
            place: format!("{file}:{start}"),
            program,
            args: rest.to_vec(),
        });
    }
    out
}

#[test]
fn every_command_the_documentation_shows_is_taken_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let plain = Arena::with_default_games();
    let with_breakthrough = Arena::with_default_games().game::<breakthrough::Breakthrough>();
    let with_othello = Arena::with_default_games().game::<othello::Othello>();
    let mut checked = 0;
    let mut refused = Vec::new();
    for doc in documents(&root) {
        let text = std::fs::read_to_string(&doc).expect("readable");
        let file = doc
            .strip_prefix(&root)
            .unwrap_or(&doc)
            .display()
            .to_string();
        for c in commands(&file, &text) {
            let arena = match c.program {
                Program::Arena => &plain,
                Program::Breakthrough => &with_breakthrough,
                Program::Othello => &with_othello,
            };
            let argv = std::iter::once("arena".to_string()).chain(c.args.iter().cloned());
            checked += 1;
            if let Err(e) = arena.check_args(argv) {
                let first = e.lines().next().unwrap_or("").to_string();
                refused.push(format!("{}: arena {}: {first}", c.place, c.args.join(" ")));
                continue;
            }
            // The rules' commands run as shown (with the default games).
            let sub = c.args[0].as_str();
            if c.program == Program::Arena && matches!(sub, "moves" | "apply" | "perft") {
                let out = Command::new(env!("CARGO_BIN_EXE_arena"))
                    .args(&c.args)
                    .output()
                    .expect("arena runs");
                if !out.status.success() {
                    refused.push(format!(
                        "{}: arena {}: exit {}: {}",
                        c.place,
                        c.args.join(" "),
                        out.status,
                        String::from_utf8_lossy(&out.stderr).trim()
                    ));
                }
            }
        }
    }
    assert!(checked > 40, "the documents' commands are found: {checked}");
    assert!(
        refused.is_empty(),
        "commands the documentation shows that the program refuses:\n{}",
        refused.join("\n")
    );
}

#[test]
fn the_reader_finds_commands_and_leaves_out_what_it_cannot_check() {
    let doc = "text `arena match x`\n```sh\narena match chexers --games 4   # a comment\n\
               arena train jumpy3 --out 'a b.safetensors' \\\n    --games 2\n\
               arena match jumpy3 … --resume\narena moves GAME POSITION\n\
               cargo run --release -p plyforge-arena --example breakthrough -- moves breakthrough start\n\
               cargo run --release -p plyforge-arena --example othello -- moves othello start\n\
               cargo run --release -p plyforge-arena -- solve jumpy3 start\n\
               printf 'go' | cargo run -- engine jumpy3\n```\n";
    let found = commands("d.md", doc);
    let shown: Vec<(String, Program, Vec<String>)> = found
        .into_iter()
        .map(|c| (c.place, c.program, c.args))
        .collect();
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        shown,
        [
            (
                "d.md:3".to_string(),
                Program::Arena,
                v(&["match", "chexers", "--games", "4"])
            ),
            (
                "d.md:4".to_string(),
                Program::Arena,
                v(&[
                    "train",
                    "jumpy3",
                    "--out",
                    "a b.safetensors",
                    "--games",
                    "2"
                ])
            ),
            (
                "d.md:8".to_string(),
                Program::Breakthrough,
                v(&["moves", "breakthrough", "start"])
            ),
            (
                "d.md:9".to_string(),
                Program::Othello,
                v(&["moves", "othello", "start"])
            ),
            (
                "d.md:10".to_string(),
                Program::Arena,
                v(&["solve", "jumpy3", "start"])
            ),
        ]
    );
}
