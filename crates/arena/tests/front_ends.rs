//! No front end names one of our games: `arena` and the crates behind it (engine testing,
//! the protocols and the server, the web page's Rust, HTML, CSS and JavaScript) and the
//! Python package take every game from the registry, so that a user's
//! game gets all of it by registering (`plyforge::GameAdapter`). What differs between games
//! lives in the game crates and their adapters (`crates/plyforge/src/games/`).
//!
//! Comments and tests may name games (they document and check ours); code may not. Cut
//! from each file before the search: comments, Rust's `#[cfg(test)]` modules (at the end of
//! a file), Python's docstrings. The COMP30024 player (`python/plyforge/comp30024.py`) is a
//! course integration for Chexers, not a front end, and is left out.
//!
//! That the repository stands alone (no file sends a reader to a folder a clone does not
//! have) is one of the tidy checks (`xtask/src/tidy.rs`).

use std::fs;
use std::path::{Path, PathBuf};

const NAMES: &[&str] = &["jumpy3", "chexers", "throne", "chaosclock", "chaos clock"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The text without `//` line comments (a `//` inside a string is rare enough here: none
/// holds one before a game's name) and `/* */` block comments.
fn without_c_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        let (comment, after) = rest[i..].split_once("*/").unwrap_or((&rest[i..], ""));
        // The comment's line ends stay, so that line numbers stay right.
        out.extend(comment.matches('\n').map(|_| '\n'));
        rest = after;
    }
    out.push_str(rest);
    out.lines()
        .map(|l| match l.find("//") {
            // `://` in an address is not a comment.
            Some(i) if !l[..i].ends_with(':') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Rust code without comments and without the `#[cfg(test)]` module at the end.
fn rust_code(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    without_c_comments(code)
}

/// Python code without `#` comments and without triple-quoted strings (docstrings).
fn python_code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\"\"\"") {
        out.push_str(&rest[..i]);
        let (doc, after) = rest[i + 3..]
            .split_once("\"\"\"")
            .unwrap_or((&rest[i + 3..], ""));
        out.extend(doc.matches('\n').map(|_| '\n'));
        rest = after;
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `file:line: text` for each line of `code` that names a game.
fn offences(file: &Path, code: &str) -> Vec<String> {
    code.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.to_ascii_lowercase();
            NAMES.iter().any(|n| l.contains(n))
        })
        .map(|(i, l)| format!("{}:{}: {}", file.display(), i + 1, l.trim()))
        .collect()
}

fn front_end_code() -> Vec<(PathBuf, String)> {
    let root = root();
    let mut paths = Vec::new();
    for dir in ["arena", "lab", "net", "web"] {
        files(&root.join("crates").join(dir).join("src"), &mut paths);
    }
    files(&root.join("python/src"), &mut paths);
    files(&root.join("python/plyforge"), &mut paths);
    let mut out = Vec::new();
    for p in paths {
        if p.ends_with("comp30024.py") {
            continue;
        }
        let Ok(text) = fs::read_to_string(&p) else {
            continue;
        };
        let code = match p.extension().and_then(|e| e.to_str()) {
            Some("rs") => rust_code(&text),
            Some("js" | "css") => without_c_comments(&text),
            Some("py" | "pyi") => python_code(&text),
            Some("html") => text,
            _ => continue,
        };
        out.push((p, code));
    }
    out
}

#[test]
fn no_front_end_names_a_game() {
    let code = front_end_code();
    assert!(code.len() > 40, "the front ends' files are there");
    let found: Vec<String> = code.iter().flat_map(|(p, c)| offences(p, c)).collect();
    assert!(
        found.is_empty(),
        "front-end code names games (take them from the registry):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_search_finds_names_in_code_and_not_in_comments() {
    let rust = "// chexers in a comment\nlet x = 1; /* throne\n */\nlet g = \"Chaos Clock\";\n#[cfg(test)]\nmod tests { jumpy3 }";
    let found = offences(Path::new("a.rs"), &rust_code(rust));
    assert_eq!(found, ["a.rs:4: let g = \"Chaos Clock\";"]);
    let py = "\"\"\"Jumpy3 in a\ndocstring.\"\"\"\nx = 1  # chexers\nif name == \"throne\":\n";
    let found = offences(Path::new("a.py"), &python_code(py));
    assert_eq!(found, ["a.py:4: if name == \"throne\":"]);
    let js = "fetch('http://x/jumpy3'); // chexers\n";
    assert_eq!(
        offences(Path::new("a.js"), &without_c_comments(js)).len(),
        1
    );
}
