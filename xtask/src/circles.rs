//! The tidy check that no modules of a crate import each other in a circle (rust-analyzer's
//! rule: the code map's arrows point one way), at every level of its folders.
//!
//! A module is a file (`a/mod.rs` is the folder `a`'s own). Module A depends on module B
//! when A's code (its tests left out) names an item that B defines: through a `use` or a
//! path `crate::…`, `super::…`, `self::…`, followed through re-exports to the module that
//! defines the item. A re-export alone (`pub use b::X;`) is not a dependency of the
//! module that makes it: it is the door, not the room. In every folder each child (a
//! file, or a sub-folder with all it holds) is one node, and no nodes of a folder may
//! reach each other both ways.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::project_root;
use crate::tidy::code_only;

/// A module's path inside its crate (`["adapter", "play"]`; the root is empty).
type ModPath = Vec<String>;

/// One crate's modules: their code without comments, strings and tests.
struct Crate {
    modules: BTreeMap<ModPath, String>,
    /// Per module, the names it re-exports (`pub use`), each to the path it names.
    reexports: BTreeMap<ModPath, Vec<(String, ModPath)>>,
    /// Per module, the paths its code names (absolute, from the crate root).
    names: BTreeMap<ModPath, Vec<ModPath>>,
}

/// The module path of a file relative to the crate's source root.
fn module_of(rel: &str) -> ModPath {
    let stem = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// `code` without its `#[cfg(test)]` items (a `mod … { … }` block or a `mod …;`).
fn without_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        // The item ends at its block's closing brace or at the first `;`, whichever first.
        let semi = after.find(';');
        let brace = after.find('{');
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => s + 1,
            (Some(b), _) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (k, c) in after[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Splits `s` at the commas outside braces.
fn split_top(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The paths of a use tree (`a::{b, c::d as e}` gives `a::b` and `a::c::d`).
fn use_paths(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        for part in split_top(inner) {
            use_paths(prefix, part, out);
        }
        return;
    }
    if let Some(open) = tree.find("::{") {
        if tree.ends_with('}') {
            let mut base = prefix.to_vec();
            base.extend(tree[..open].split("::").map(|s| s.trim().to_string()));
            for part in split_top(&tree[open + 3..tree.len() - 1]) {
                use_paths(&base, part, out);
            }
            return;
        }
    }
    let plain = tree.split(" as ").next().unwrap_or(tree);
    let mut path = prefix.to_vec();
    path.extend(
        plain
            .split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty()),
    );
    out.push(path);
}

/// A path as written in module `m`, from the crate root; `None` for another crate's.
fn absolute(m: &ModPath, path: &[String], modules: &BTreeMap<ModPath, String>) -> Option<ModPath> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => Some(m.iter().chain(&path[1..]).cloned().collect()),
        "super" => {
            let ups = path.iter().take_while(|p| *p == "super").count();
            let base = &m[..m.len().saturating_sub(ups)];
            Some(base.iter().chain(&path[ups..]).cloned().collect())
        }
        // `use child::X` from a module that declares `child`.
        name => {
            let mut child = m.clone();
            child.push(name.to_string());
            modules
                .contains_key(&child)
                .then(|| m.iter().chain(path).cloned().collect())
        }
    }
}

/// Every `use` item of `code`: whether it is public (a re-export) and its tree.
fn use_items(code: &str) -> Vec<(bool, String)> {
    let mut items = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(i) = code[from..].find("use ").map(|i| i + from) {
        from = i + 4;
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let Some(end) = code[i..].find(';').map(|e| e + i) else {
            break;
        };
        let before = code[..i].trim_end();
        let public = before.ends_with("pub") || (before.ends_with(')') && before.contains("pub("));
        items.push((public, code[i + 4..end].to_string()));
        from = end;
    }
    items
}

/// The paths `crate::…`, `super::…` and `self::…` written in `code` outside `use` items.
fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':') {
                continue;
            }
            let end = code[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| e + i);
            out.push(
                code[i..end]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
            );
        }
    }
    out
}

/// True when `code` defines an item named `name`.
fn defines(code: &str, name: &str) -> bool {
    [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "union ",
        "macro_rules! ",
    ]
    .iter()
    .any(|kw| {
        let pat = format!("{kw}{name}");
        code.match_indices(&pat).any(|(i, _)| {
            let after = code[i + pat.len()..].chars().next();
            !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    })
}

impl Crate {
    /// The crate whose sources are under `src` (every `.rs` file below it).
    fn read(src: &Path) -> Crate {
        let mut files = Vec::new();
        collect(src, &mut files);
        let mut modules = BTreeMap::new();
        for f in &files {
            let rel = f
                .strip_prefix(src)
                .expect("below its root")
                .to_string_lossy()
                .replace('\\', "/");
            let text = fs::read_to_string(f).unwrap_or_default();
            modules.insert(module_of(&rel), without_tests(&code_only(&text)));
        }
        let mut reexports: BTreeMap<ModPath, Vec<(String, ModPath)>> = BTreeMap::new();
        let mut names: BTreeMap<ModPath, Vec<ModPath>> = BTreeMap::new();
        for (m, code) in &modules {
            let mut rest = code.clone();
            for (public, tree) in use_items(code) {
                rest = rest.replacen(&tree, "", 1);
                let mut paths = Vec::new();
                use_paths(&[], &tree, &mut paths);
                for p in paths {
                    let Some(abs) = absolute(m, &p, &modules) else {
                        continue;
                    };
                    if public {
                        let name = p.last().cloned().unwrap_or_default();
                        reexports.entry(m.clone()).or_default().push((name, abs));
                    } else {
                        names.entry(m.clone()).or_default().push(abs);
                    }
                }
            }
            for p in inline_paths(&rest) {
                if let Some(abs) = absolute(m, &p, &modules) {
                    names.entry(m.clone()).or_default().push(abs);
                }
            }
        }
        Crate {
            modules,
            reexports,
            names,
        }
    }

    /// The module that defines what `path` names, through re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<ModPath> {
        let k = (0..=path.len())
            .rev()
            .find(|&k| self.modules.contains_key(&path[..k]))?;
        let (module, rest) = (path[..k].to_vec(), &path[k..]);
        let Some(name) = rest.first() else {
            return Some(module);
        };
        if depth > 16 {
            return Some(module);
        }
        for (exported, target) in self.reexports.get(&module).into_iter().flatten() {
            if exported == name {
                let mut next = target.clone();
                next.extend(rest[1..].iter().cloned());
                return self.resolve(&next, depth + 1);
            }
            if exported == "*" {
                let mut next = target[..target.len() - 1].to_vec();
                next.extend(rest.iter().cloned());
                if let Some(found) = self.resolve(&next, depth + 1) {
                    if self.modules.get(&found).is_some_and(|c| defines(c, name)) {
                        return Some(found);
                    }
                }
            }
        }
        Some(module)
    }

    /// Which module depends on which.
    fn edges(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (m, paths) in &self.names {
            for p in paths {
                if let Some(to) = self.resolve(p, 0) {
                    if &to != m && !to.is_empty() {
                        edges.entry(m.clone()).or_default().insert(to);
                    }
                }
            }
        }
        edges
    }

    /// The circles: per folder, the children that reach each other both ways.
    fn circles(&self) -> Vec<String> {
        let edges = self.edges();
        let folders: BTreeSet<ModPath> = self
            .modules
            .keys()
            .flat_map(|m| (0..m.len()).map(move |k| m[..k].to_vec()))
            .collect();
        let mut found = Vec::new();
        for folder in &folders {
            let child = |m: &ModPath| -> Option<ModPath> {
                (m.len() > folder.len() && m.starts_with(folder))
                    .then(|| m[..folder.len() + 1].to_vec())
            };
            let mut graph: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
            for (a, bs) in &edges {
                let Some(ca) = child(a) else { continue };
                for b in bs {
                    if let Some(cb) = child(b).filter(|cb| *cb != ca) {
                        graph.entry(ca.clone()).or_default().insert(cb);
                    }
                }
            }
            for comp in strongly_connected(&graph) {
                let names: Vec<String> = comp.iter().map(|m| m.join("/")).collect();
                found.push(format!(
                    "in {}: {}",
                    if folder.is_empty() {
                        ".".to_string()
                    } else {
                        folder.join("/")
                    },
                    names.join(", ")
                ));
            }
        }
        found
    }
}

/// Every `.rs` file under `dir`.
fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn strongly_connected(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct Tarjan<'g> {
        graph: &'g BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<ModPath, usize>,
        low: BTreeMap<ModPath, usize>,
        stack: Vec<ModPath>,
        on: BTreeSet<ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: &ModPath) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            self.on.insert(v.clone());
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), l);
                } else if self.on.contains(w) {
                    let l = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(&w);
                    let done = &w == v;
                    comp.push(w);
                    if done {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&ModPath> = graph.keys().chain(graph.values().flatten()).collect();
    for v in nodes {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

/// The source roots of the workspace's crates.
fn source_roots() -> Vec<std::path::PathBuf> {
    let root = project_root();
    let mut roots: Vec<_> = fs::read_dir(root.join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    roots.extend(
        ["benches/src", "benches/report", "xtask/src"]
            .iter()
            .map(|p| root.join(p))
            .filter(|p| p.is_dir()),
    );
    roots.sort();
    roots
}

#[test]
fn no_modules_of_a_crate_import_each_other_in_a_circle() {
    let roots = source_roots();
    assert!(roots.len() > 10, "the crates are found: {roots:?}");
    let mut found = Vec::new();
    for src in &roots {
        let krate = Crate::read(src);
        for c in krate.circles() {
            found.push(format!("{}: {c}", src.display()));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other in a circle (move what both need into a module \
         below them, or merge them):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_finds_a_circle_and_follows_re_exports() {
    let dir = std::env::temp_dir().join(format!("circles-{}", std::process::id()));
    let write = |rel: &str, text: &str| {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    write(
        "lib.rs",
        "mod a;\nmod b;\npub use a::A;\n/// crate::b::B in a comment\nfn f() {}\n",
    );
    // a uses b's item through the root's re-export of nothing: straight.
    write("a.rs", "use crate::b::B;\npub struct A;\n");
    write(
        "b/mod.rs",
        "mod inner;\npub use inner::B;\n#[cfg(test)]\nmod tests { use crate::a::A; }\n",
    );
    // The item is defined in b/inner; a depends on b (the folder), and nothing goes back.
    write(
        "b/inner.rs",
        "pub struct B;\nfn g() { let _ = \"crate::a::A\"; }\n",
    );
    let krate = Crate::read(&dir);
    assert!(krate.circles().is_empty(), "{:?}", krate.circles());
    let edges = krate.edges();
    assert!(edges[&vec!["a".to_string()]].contains(&vec!["b".to_string(), "inner".to_string()]));
    // Now b's inner module names A through the root's re-export: a circle a ⇄ b.
    write(
        "b/inner.rs",
        "pub struct B;\nfn g() -> crate::A { crate::A }\n",
    );
    let krate = Crate::read(&dir);
    assert_eq!(krate.circles(), ["in .: a, b"]);
    fs::remove_dir_all(&dir).unwrap();
}
