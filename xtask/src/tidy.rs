//! The tidy checks (rust-analyzer's habit): tests over the repository's own text that keep
//! it the way the project agreed to keep it, run by `cargo test --workspace` (and so by
//! `cargo xtask ci`).
//!
//! - No function of 100 lines or more outside tests: split it where it reads better. A data
//!   table written as a function, or a function another change is rewriting, may be named
//!   in [`LONG_FUNCTIONS`] with the reason.
//! - No file sends a reader to the folder of notes that the developers keep beside their
//!   checkouts: a clone does not have it.
//! - No "issue N" in the crates' code and documentation: the tracker is not part of the
//!   repository, and a reader of the code or of the published documentation has nothing
//!   behind the number. Say what was measured or decided instead.

use std::fs;
use std::path::{Path, PathBuf};

use crate::project_root;

/// The most lines a function may have.
const MAX_LINES: usize = 100;

/// Functions allowed to be long, as `path::name`, each with its reason.
const LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// Files allowed to mention an issue by number, each with its reason.
const ISSUE_NUMBERS: &[(&str, &str)] = &[("xtask/src/tidy.rs", "the check's own test cases")];

/// Every file under `dir` (recursively), skipping the build's and the tools' folders.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            let tooling = name.starts_with('.')
                || name.starts_with("target")
                || name == "__pycache__"
                || name == "node_modules"
                || (p.parent().is_some_and(|d| d.ends_with("fuzz"))
                    && matches!(name, "corpus" | "artifacts" | "coverage"));
            if !tooling {
                walk(&p, out);
            }
        } else if !name.starts_with('.') {
            out.push(p);
        }
    }
}

/// The repository's files, as paths relative to its root, with their text (files that are
/// not UTF-8 left out).
fn texts() -> Vec<(String, String)> {
    let root = project_root();
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    paths
        .into_iter()
        .filter_map(|p| {
            let text = fs::read_to_string(&p).ok()?;
            let rel = p
                .strip_prefix(&root)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            Some((rel, text))
        })
        .collect()
}

/// True for Rust code that is a test: integration tests, and the fuzz targets' corpora.
fn is_test_file(path: &str) -> bool {
    path.split('/').any(|part| part == "tests")
}

/// Rust text with comments, strings and character literals blanked (their line ends
/// kept), so that braces and keywords are the code's own.
pub(crate) fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, s: &[u8]| {
        out.extend(s.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            block_comment_len(rest)
        } else if rest.starts_with(b"r#") || rest.starts_with(b"r\"") || rest.starts_with(b"br") {
            raw_string_len(rest)
        } else if rest[0] == b'"' {
            string_len(rest)
        } else if rest[0] == b'\'' {
            char_len(rest)
        } else {
            0
        };
        if end > 0 && !(rest[0].is_ascii_alphanumeric() && i > 0 && is_ident(b[i - 1])) {
            blank(&mut out, &rest[..end]);
            i += end;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The length of a `/* */` comment (nested) at the start of `s`.
fn block_comment_len(s: &[u8]) -> usize {
    let (mut depth, mut i) = (0usize, 0);
    while i < s.len() {
        if s[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if s[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    s.len()
}

/// The length of a raw string (`r"…"`, `r#"…"#`, `br…`) at the start of `s`, or 0.
fn raw_string_len(s: &[u8]) -> usize {
    let start = if s.starts_with(b"br") { 2 } else { 1 };
    let hashes = s[start..].iter().take_while(|&&c| c == b'#').count();
    if s.get(start + hashes) != Some(&b'"') {
        return 0;
    }
    let close: Vec<u8> = std::iter::once(b'"')
        .chain(std::iter::repeat(b'#').take(hashes))
        .collect();
    let body = start + hashes + 1;
    s[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map_or(s.len(), |p| body + p + close.len())
}

/// The length of a string literal at the start of `s`.
fn string_len(s: &[u8]) -> usize {
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    s.len()
}

/// The length of a character literal at the start of `s`, or 0 for a lifetime.
fn char_len(s: &[u8]) -> usize {
    if s.get(1) == Some(&b'\\') {
        // An escape: the escaped character, then up to the closing quote.
        return s
            .get(3..)
            .and_then(|r| r.iter().position(|&c| c == b'\''))
            .map_or(0, |p| p + 4);
    }
    // One character (of up to four bytes of UTF-8) and the closing quote.
    let one = |n: usize| std::str::from_utf8(&s[1..n]).is_ok_and(|t| t.chars().count() == 1);
    (2..=5)
        .find(|&n| s.get(n) == Some(&b'\'') && one(n))
        .map_or(0, |n| n + 1)
}

/// The functions of a file with their first line (from 1) and length in lines, outside
/// `#[cfg(test)]` modules and `#[test]` functions.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    let mut skip_until = 0;
    for (n, line) in lines.iter().enumerate() {
        if n < skip_until {
            continue;
        }
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") || t.starts_with("#[test]") {
            // The item after the attribute is a test's: skip to its end.
            skip_until = item_end(&lines, n).unwrap_or(lines.len());
            continue;
        }
        let Some(name) = fn_name(t) else {
            continue;
        };
        if let Some(end) = item_end(&lines, n) {
            out.push((name, n + 1, end - n));
        }
    }
    out
}

/// The name of the function a line begins, if it does.
fn fn_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while let Some(&w) = words.peek() {
        let qualifier = matches!(w, "const" | "async" | "unsafe" | "extern" | "default")
            || w.starts_with("pub")
            || w.starts_with('"');
        if !qualifier {
            break;
        }
        words.next();
    }
    if words.next()? != "fn" {
        return None;
    }
    let name: String = words
        .next()?
        .chars()
        .take_while(|&c| is_ident(c as u8))
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The line after the item that starts at line `n` (its body's closing brace), or `None`
/// for an item without a body (a trait's declaration).
fn item_end(lines: &[&str], n: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut opened = false;
    for (i, line) in lines.iter().enumerate().skip(n) {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                ';' if !opened && depth == 0 => return None,
                _ => {}
            }
            if opened && depth == 0 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// The Rust files whose functions are held to [`MAX_LINES`]: every crate's code outside
/// its tests.
fn rust_code() -> Vec<(String, String)> {
    texts()
        .into_iter()
        .filter(|(p, _)| p.ends_with(".rs") && !is_test_file(p))
        .collect()
}

#[test]
fn no_function_is_100_lines_or_more() {
    let code = rust_code();
    assert!(
        code.len() > 100,
        "the code is searched: {} files",
        code.len()
    );
    let mut found = Vec::new();
    for (path, text) in &code {
        for (name, line, len) in functions(text) {
            let key = format!("{path}::{name}");
            if len >= MAX_LINES && !LONG_FUNCTIONS.iter().any(|(k, _)| *k == key) {
                found.push(format!("{path}:{line}: fn {name} is {len} lines"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "functions of {MAX_LINES} lines or more (split each where it reads better; a data \
         table may be listed in LONG_FUNCTIONS with its reason):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_long_function_list_names_long_functions() {
    let code = rust_code();
    for (key, why) in LONG_FUNCTIONS {
        let (path, name) = key.rsplit_once("::").expect("path::name");
        let text = &code
            .iter()
            .find(|(p, _)| p == path)
            .unwrap_or_else(|| panic!("{key}: no such file"))
            .1;
        let len = functions(text)
            .into_iter()
            .filter(|(n, _, _)| n == name)
            .map(|(_, _, len)| len)
            .max()
            .unwrap_or_else(|| panic!("{key}: no such function"));
        assert!(
            len >= MAX_LINES,
            "{key} ({why}) is {len} lines now: take it off the list"
        );
    }
}

#[test]
fn functions_are_measured_from_fn_to_the_closing_brace() {
    let text = "fn a() {\n    let s = \"}\";\n    let c = '{';\n    let q = '\\'';\n    // }\n}\n\
                pub(crate) fn b<'a>(x: &'a str) -> &'a str { x }\n\
                trait T { fn c(&self); }\n\
                #[cfg(test)]\nmod tests {\n    fn d() {\n    }\n}\n";
    let f = functions(text);
    assert_eq!(
        f,
        [("a".to_string(), 1, 6), ("b".to_string(), 7, 1)],
        "{f:?}"
    );
    assert_eq!(fn_name("pub async fn go() {"), Some("go".to_string()));
    assert_eq!(fn_name("let fn_x = 1;"), None);
}

/// The folder beside the checkouts that a clone does not have (spelt in two pieces so that
/// this file does not name it).
const OUTSIDE: [&str; 2] = ["sha", "red"];

/// `file:line: text` for each line of `text` that points to the folder beside the checkouts.
fn outside_references(file: &str, text: &str) -> Vec<String> {
    let folder = OUTSIDE.concat();
    let (parent, inside) = (format!("../{folder}"), format!("{folder}/"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(&parent) || l.contains(&inside))
        .map(|(i, l)| format!("{file}:{}: {}", i + 1, l.trim()))
        .collect()
}

#[test]
fn no_file_sends_a_reader_outside_the_repository() {
    let texts = texts();
    for must in [
        "README.md",
        "ARCHITECTURE.md",
        "docs/web.md",
        "crates/jumpy3/README.md",
    ] {
        assert!(texts.iter().any(|(p, _)| p == must), "{must} is searched");
    }
    assert!(texts.len() > 300, "the whole repository: {}", texts.len());
    let found: Vec<String> = texts
        .iter()
        .flat_map(|(p, t)| outside_references(p, t))
        .collect();
    assert!(
        found.is_empty(),
        "these lines point outside the repository, where a clone has nothing (point to the \
         game crates' READMEs, or bring what is needed into docs/):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_search_finds_paths_outside_the_repository() {
    let folder = OUTSIDE.concat();
    let text = format!(
        "see `../{folder}/rules/`\nthe {folder} table\nrules in {folder}/rules/x.md\nwasm-bindgen-{folder}\n"
    );
    let found = outside_references("a.md", &text);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("a.md:1: ") && found[1].starts_with("a.md:3: "));
}

/// The places of `text` that name an issue by number (`issue 21`, `Issue #3`, `issues 29
/// and 34`).
fn issue_numbers(file: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lower = line.to_ascii_lowercase();
        let mut rest = lower.as_str();
        while let Some(at) = rest.find("issue") {
            let before = rest[..at].chars().last();
            let after = rest[at + 5..].trim_start_matches('s').trim_start();
            let after = after.strip_prefix('#').unwrap_or(after);
            let word_start = before.map_or(true, |c| !c.is_ascii_alphanumeric() && c != '_');
            if word_start && after.starts_with(|c: char| c.is_ascii_digit()) {
                out.push(format!("{file}:{}: {}", i + 1, line.trim()));
                break;
            }
            rest = &rest[at + 5..];
        }
    }
    out
}

#[test]
fn the_crates_do_not_name_issues_by_number() {
    let texts = texts();
    let found: Vec<String> = texts
        .iter()
        .filter(|(p, _)| {
            let crate_text = p.starts_with("crates/")
                || p.starts_with("benches/")
                || p.starts_with("xtask/")
                || p.starts_with("fuzz/");
            let kind = p.ends_with(".rs") || p.ends_with(".md") || p.ends_with(".toml");
            crate_text && kind && !ISSUE_NUMBERS.iter().any(|(f, _)| f == p)
        })
        .flat_map(|(p, t)| issue_numbers(p, t))
        .collect();
    assert!(
        found.is_empty(),
        "the tracker is not in the repository: say what was measured or decided instead of \
         its number:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_search_finds_issue_numbers() {
    let text = "a (issue 21)\nIssues 29 and 34\nissue #3\nan issue with 3 moves\ntissue 4\n";
    let found = issue_numbers("a.rs", text);
    assert_eq!(found.len(), 3, "{found:?}");
}
