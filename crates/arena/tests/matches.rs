//! `arena match` grown up, driven as a user or a cluster would: the match file, concurrency,
//! shards and `arena merge`, resuming a killed match, the SPRT, opening books, fair starts,
//! adjudication, Chexers' ranking, and bad input.
//!
//! Fixed-depth engines with one thread are deterministic, so a game is the same game in
//! whichever process and thread plays it: the tests compare whole matches played in
//! different ways game by game.

mod runs;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use runs::{bad, kill_after, ok, s, text};
use serde_json::Value;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    runs::scratch(&format!("matches-{name}"))
}

/// The lines of a match file: the header and the games by index.
fn read_match(path: &Path) -> (Value, BTreeMap<u64, Value>) {
    let body = std::fs::read_to_string(path).expect("the match file exists");
    let mut header = None;
    let mut games = BTreeMap::new();
    for line in body.lines() {
        let v: Value = serde_json::from_str(line).expect("each line is JSON");
        match v["type"].as_str() {
            Some("match") => header = Some(v),
            Some("game") => {
                let g = v["game"].as_u64().expect("a game index");
                assert!(
                    games.insert(g, v).is_none(),
                    "game {g} twice in {}",
                    path.display()
                );
            }
            other => panic!("a line of type {other:?}"),
        }
    }
    (header.expect("a header line"), games)
}

/// A game without what depends on the machine (times).
fn deterministic_part(v: &Value) -> Value {
    let mut v = v.clone();
    let o = v.as_object_mut().unwrap();
    o.remove("time_ms");
    o.remove("wall_ms");
    o.remove("setup_ms");
    v
}

fn same_games(a: &BTreeMap<u64, Value>, b: &BTreeMap<u64, Value>) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same game indices"
    );
    for (g, x) in a {
        assert_eq!(deterministic_part(x), deterministic_part(&b[g]), "game {g}");
    }
}

/// The table of a match's output: from the "N games in" line on, without the lines that
/// depend on the machine (time, speed, where the games came from).
fn table(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains(" games in ") || l.contains(" games ("))
        .unwrap_or_else(|| panic!("no table in {out}"));
    lines[start + 1..]
        .iter()
        .filter(|l| {
            !l.starts_with("speed:")
                && !l.trim_start().starts_with("of which")
                && !l.starts_with("merged match written")
        })
        .map(|l| l.to_string())
        .collect()
}

/// The count of games in the "N games in"/"N games (" line.
fn counted(out: &str) -> u64 {
    out.lines()
        .find(|l| l.contains(" games in ") || l.contains(" games ("))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {out}"))
}

/// Replays a game of a match file through `arena apply` and checks its recorded result.
fn replay(game: &str, v: &Value) {
    let mut args: Vec<String> = vec![
        "apply".into(),
        game.into(),
        v["start"].as_str().unwrap().into(),
    ];
    for key in ["opening_moves", "moves"] {
        for m in v[key].as_array().unwrap() {
            args.push(m.as_str().unwrap().into());
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ok(&args);
    let result = format!("result: {}", v["result"].as_str().unwrap());
    assert_eq!(out.lines().nth(1), Some(result.as_str()), "{v}");
}

const J: [&str; 6] = [
    "match",
    "jumpy3",
    "--engine",
    "engine,depth=3",
    "--engine",
    "engine,depth=2",
];

fn jumpy3_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut a: Vec<&str> = J.to_vec();
    a.extend_from_slice(extra);
    a
}

#[test]
fn the_match_file_holds_every_game_and_replays() {
    let dir = scratch("file");
    for (game, a, b, n) in [
        ("jumpy3", "engine,depth=2", "random", 6),
        ("chexers", "greedy", "engine,depth=1", 6),
        ("throne", "greedy", "random", 2),
        ("chaosclock", "greedy,eval=default", "random", 4),
    ] {
        let file = dir.join(format!("{game}.jsonl"));
        let n_text = n.to_string();
        ok(&[
            "match",
            game,
            "--engine",
            a,
            "--engine",
            b,
            "--games",
            &n_text,
            "--out",
            s(&file),
            "--quiet",
        ]);
        let (header, games) = read_match(&file);
        assert_eq!(header["game"], game);
        assert_eq!(header["engines"], serde_json::json!([a, b]));
        let id = header["match"].as_str().unwrap();
        assert_eq!(games.len(), n, "{game}");
        for (g, v) in &games {
            assert_eq!(v["match"], id);
            let seats: Vec<usize> = v["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect();
            let names: Vec<&str> = seats.iter().map(|&i| [a, b][i]).collect();
            assert_eq!(v["engines"], serde_json::json!(names), "{game} {g}");
            let moves = v["moves"].as_array().unwrap().len();
            for key in ["time_ms", "nodes", "scores"] {
                assert_eq!(v[key].as_array().unwrap().len(), moves, "{game} {key}");
            }
            // Search engines report scores, the others none; nodes come from a search (a
            // game's table move, played without one, has a score and no nodes).
            let mut searched = 0;
            for (i, node) in v["nodes"].as_array().unwrap().iter().enumerate() {
                let mover_searches = v["scores"][i].is_i64();
                let nodes = node.as_u64().unwrap();
                assert!(nodes == 0 || mover_searches, "{game} {g} {i}");
                searched += usize::from(nodes > 0);
            }
            let engines = [a, b].iter().any(|e| e.starts_with("engine"));
            assert_eq!(searched > 0, engines, "{game} {g}");
            replay(game, v);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn concurrency_does_not_change_the_games() {
    let dir = scratch("concurrency");
    let one = dir.join("one.jsonl");
    let three = dir.join("three.jsonl");
    let out1 = ok(&jumpy3_args(&[
        "--games",
        "10",
        "--out",
        s(&one),
        "--quiet",
    ]));
    let out3 = ok(&jumpy3_args(&[
        "--games",
        "10",
        "--out",
        s(&three),
        "--quiet",
        "--concurrency",
        "3",
    ]));
    assert!(out3.contains("3 games at once"), "{out3}");
    let (h1, g1) = read_match(&one);
    let (h3, g3) = read_match(&three);
    assert_eq!(
        h1["match"], h3["match"],
        "concurrency is not part of the match"
    );
    same_games(&g1, &g3);
    assert_eq!(table(&out1), table(&out3));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_merge_to_the_unsharded_match() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let extra = ["--games", "14", "--opening", "3", "--seed", "5", "--quiet"];
    let mut args = jumpy3_args(&extra);
    args.extend(["--out", s(&whole)]);
    let whole_out = ok(&args);
    let mut files = Vec::new();
    for k in 1..=3 {
        let f = dir.join(format!("shard-{k}.jsonl"));
        let shard = format!("{k}/3");
        let mut args = jumpy3_args(&extra);
        args.extend(["--out", s(&f), "--shard", &shard]);
        let out = ok(&args);
        assert!(out.contains(&format!("shard {k}/3")), "{out}");
        files.push(f);
    }
    let mut merge_args = vec!["merge"];
    merge_args.extend(files.iter().map(|f| s(f)));
    let merged_file = dir.join("merged.jsonl");
    merge_args.extend(["--out", s(&merged_file)]);
    let merged = ok(&merge_args);
    assert_eq!(table(&whole_out), table(&merged));
    let (_, w) = read_match(&whole);
    let (_, m) = read_match(&merged_file);
    same_games(&w, &m);
    // Shards played whole pairs: each file's games come in pairs of one opening.
    for f in &files {
        let (_, g) = read_match(f);
        for v in g.values() {
            let o = v["opening"].as_u64().unwrap();
            assert_eq!(v["game"].as_u64().unwrap() / 2, o);
        }
    }
    // A file given twice counts once.
    let mut twice = merge_args[..merge_args.len() - 2].to_vec();
    twice.push(s(&files[0]));
    let again = ok(&twice);
    assert!(again.contains("counted once"), "{again}");
    assert_eq!(table(&again), table(&merged));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn merge_refuses_files_of_different_matches() {
    let dir = scratch("refuse");
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    ok(&jumpy3_args(&["--games", "2", "--out", s(&a), "--quiet"]));
    ok(&jumpy3_args(&[
        "--games",
        "2",
        "--out",
        s(&b),
        "--quiet",
        "--seed",
        "2",
    ]));
    bad(&["merge", s(&a), s(&b)], &["b.jsonl", "not of one match"]);
    // Not a match file.
    let junk = dir.join("junk.jsonl");
    std::fs::write(&junk, "hello\n").unwrap();
    bad(&["merge", s(&junk)], &["junk.jsonl line 1", "JSON"]);
    bad(&["merge", s(&dir.join("none.jsonl"))], &["none.jsonl"]);
    // --out will not overwrite a match; --resume will not continue another one.
    bad(
        &jumpy3_args(&["--games", "2", "--out", s(&a)]),
        &["exists", "--resume"],
    );
    bad(
        &jumpy3_args(&["--games", "4", "--out", s(&a), "--resume"]),
        &["holds match", "games=2", "games=4"],
    );
    bad(
        &jumpy3_args(&["--games", "2", "--out", s(&a), "--resume", "--shard", "1/2"]),
        &["shard"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_killed_shard_resumes_without_losing_or_repeating_a_game() {
    let dir = scratch("resume");
    let reference = dir.join("reference.jsonl");
    let mut base: Vec<&str> = vec![
        "match",
        "jumpy3",
        "--engine",
        "engine,depth=5",
        "--engine",
        "engine,depth=4",
        "--games",
        "24",
        "--quiet",
    ];
    let mut args = base.clone();
    args.extend(["--out", s(&reference)]);
    let ref_out = ok(&args);
    let (_, want) = read_match(&reference);

    let first = dir.join("1.jsonl");
    let mut args = base.clone();
    args.extend(["--out", s(&first), "--shard", "1/2"]);
    ok(&args);
    let killed = dir.join("2.jsonl");
    base.extend(["--out", s(&killed), "--shard", "2/2", "--concurrency", "2"]);
    kill_after(&base, &killed, "\"type\":\"game\"", 3);
    // A kill in the middle of a write leaves half a line: the worst case, made sure of.
    let before = read_match(&killed).1.len();
    assert!((3..12).contains(&before), "{before} games before the kill");
    let mut body = std::fs::read_to_string(&killed).unwrap();
    body.push_str("{\"type\":\"game\",\"match\":\"");
    std::fs::write(&killed, body).unwrap();

    base.push("--resume");
    let out = ok(&base);
    assert!(
        out.contains(&format!("{before} games there already")),
        "{out}"
    );
    let merged = ok(&["merge", s(&first), s(&killed)]);
    assert_eq!(table(&ref_out), table(&merged));
    let (_, one) = read_match(&first);
    let (_, two) = read_match(&killed);
    let mut got = one.clone();
    for (g, v) in two {
        assert!(got.insert(g, v).is_none(), "game {g} in both shards");
    }
    same_games(&want, &got);
    // Resuming a finished shard plays nothing.
    let again = ok(&base);
    assert!(!again.contains("speed:"), "{again}");
    assert_eq!(read_match(&killed).1.len(), 12);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_run_by_gnu_parallel_merge_to_the_unsharded_match() {
    let dir = scratch("parallel");
    let common = [
        "match",
        "jumpy3",
        "--engine",
        "engine,depth=4",
        "--engine",
        "engine,depth=3",
        "--games",
        "20",
        "--opening",
        "4",
        "--seed",
        "11",
        "--quiet",
    ];
    let whole = dir.join("whole.jsonl");
    let mut args = common.to_vec();
    args.extend(["--out", s(&whole)]);
    let whole_out = ok(&args);
    // GNU parallel runs the four shards, two at a time, as a batch system would.
    let shard_file = format!("{}/shard-{{}}.jsonl", s(&dir));
    let o = Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "2"])
        .arg(env!("CARGO_BIN_EXE_arena"))
        .args(common)
        .args([
            "--shard",
            "{}/4",
            "--out",
            &shard_file,
            ":::",
            "1",
            "2",
            "3",
            "4",
        ])
        .env("NO_COLOR", "1")
        .output()
        .expect("GNU parallel runs (cargo xtask ci installs Debian's `parallel`)");
    assert!(o.status.success(), "{}", text(&o));
    let files: Vec<PathBuf> = (1..=4)
        .map(|k| dir.join(format!("shard-{k}.jsonl")))
        .collect();
    let mut m = vec!["merge"];
    m.extend(files.iter().map(|f| s(f)));
    let merged = ok(&m);
    assert_eq!(table(&whole_out), table(&merged));
    let (_, w) = read_match(&whole);
    let mut union = BTreeMap::new();
    for f in &files {
        for (g, v) in read_match(f).1 {
            assert!(union.insert(g, v).is_none(), "game {g} in two shards");
        }
    }
    same_games(&w, &union);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_sprt_stops_at_the_same_pair_however_the_match_is_played() {
    let dir = scratch("sprt");
    // A clear difference: depth 3 against random. The test must stop long before 400 games.
    let base: Vec<&str> = vec![
        "match",
        "jumpy3",
        "--engine",
        "engine,depth=3",
        "--engine",
        "random",
        "--sprt",
        "0",
        "10",
        "--games",
        "400",
        "--quiet",
    ];
    let one = dir.join("one.jsonl");
    let mut a = base.clone();
    a.extend(["--out", s(&one)]);
    let out1 = ok(&a);
    assert!(out1.contains("at most 400 games"), "{out1}");
    assert!(out1.contains("verdict: H1 accepted after"), "{out1}");
    let n = counted(&out1);
    assert!(n < 400 && n % 2 == 0, "{out1}");
    assert!(out1.contains(&format!("after {} pairs", n / 2)), "{out1}");
    assert!(
        out1.contains("LLR 2.9") || out1.contains("LLR 3."),
        "{out1}"
    );
    // The same with games at once, and as merged shards (each shard plays its whole slice).
    let mut a = base.clone();
    let two = dir.join("two.jsonl");
    a.extend(["--out", s(&two), "--concurrency", "3"]);
    let out3 = ok(&a);
    // One at a time nothing is played after the deciding pair; at once the games under
    // way finish and are left out.
    assert!(!out1.contains("not counted"), "{out1}");
    let strip = |t: Vec<String>| -> Vec<String> {
        t.into_iter()
            .filter(|l| !l.contains("not counted"))
            .collect()
    };
    assert_eq!(table(&out1), strip(table(&out3)));
    let shards = dir.join("shards");
    std::fs::create_dir_all(&shards).unwrap();
    let mut files = Vec::new();
    let mut outs = Vec::new();
    for k in 1..=2 {
        let f = shards.join(format!("{k}.jsonl"));
        let shard = format!("{k}/2");
        let mut a = base.clone();
        a.extend(["--out", s(&f), "--shard", &shard]);
        outs.push(ok(&a));
        files.push(f);
    }
    // Shard 1 ran alone: its whole slice of 200 games, the test undecided on its pairs
    // alone. Shard 2 read shard 1's file beside its own and stopped once the test was
    // decided on both.
    assert_eq!(read_match(&files[0]).1.len(), 200);
    assert!(outs[0].contains("undecided"), "{}", outs[0]);
    assert!(read_match(&files[1]).1.len() < 200);
    assert!(outs[1].contains("by other shards"), "{}", outs[1]);
    assert!(
        outs[1].contains("verdict: H1 accepted after"),
        "{}",
        outs[1]
    );
    let mut m = vec!["merge"];
    m.extend(files.iter().map(|f| s(f)));
    let merged = ok(&m);
    let strip = |t: Vec<String>| -> Vec<String> {
        t.into_iter()
            .filter(|l| !l.contains("not counted"))
            .collect()
    };
    assert_eq!(strip(table(&out1)), strip(table(&merged)));
    // Three players: no test, and the reason.
    bad(
        &["match", "chexers", "--sprt", "0", "5"],
        &["three players", "pairs"],
    );
    bad(
        &jumpy3_args(&["--sprt", "5", "0"]),
        &["ELO0 must be below ELO1"],
    );
    bad(
        &jumpy3_args(&["--sprt", "0", "5", "--alpha", "0.7"]),
        &["--alpha"],
    );
    bad(&jumpy3_args(&["--beta", "0.1"]), &["--sprt"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn books_give_the_openings() {
    let dir = scratch("book");
    let book = dir.join("book.txt");
    // Three positions: the start after each of its first three legal moves.
    let moves = ok(&["moves", "jumpy3", "start"]);
    let valid: Vec<String> = moves
        .lines()
        .take(3)
        .map(|m| {
            let out = ok(&["apply", "jumpy3", "start", m]);
            out.lines().next().unwrap().to_string()
        })
        .collect();
    assert_eq!(valid.len(), 3);
    std::fs::write(&book, format!("# openings\n\n{}\n", valid.join("\n"))).unwrap();
    let file = dir.join("m.jsonl");
    ok(&jumpy3_args(&[
        "--book",
        s(&book),
        "--games",
        "8",
        "--out",
        s(&file),
        "--quiet",
    ]));
    let (_, games) = read_match(&file);
    for (g, v) in &games {
        let o = (g / 2) as usize;
        assert_eq!(
            v["start"].as_str().unwrap(),
            valid[o % valid.len()],
            "game {g}"
        );
        assert_eq!(v["opening_moves"].as_array().unwrap().len(), 0);
        replay("jumpy3", v);
    }
    // Random order: every position used once per pass, in a seeded order.
    let file2 = dir.join("r.jsonl");
    let n = (2 * valid.len()).to_string();
    ok(&jumpy3_args(&[
        "--book",
        s(&book),
        "--book-order",
        "random",
        "--seed",
        "7",
        "--games",
        &n,
        "--out",
        s(&file2),
        "--quiet",
    ]));
    let (_, games) = read_match(&file2);
    let mut starts: Vec<String> = games
        .values()
        .filter(|v| v["game"].as_u64().unwrap() % 2 == 0)
        .map(|v| v["start"].as_str().unwrap().to_string())
        .collect();
    starts.sort_unstable();
    let mut want = valid.clone();
    want.sort_unstable();
    assert_eq!(starts, want);
    // A bad line is named.
    std::fs::write(&book, "Wwww........bbbB w\n\nnot a position\n").unwrap();
    bad(&jumpy3_args(&["--book", s(&book)]), &["book.txt line 3"]);
    std::fs::write(&book, "# nothing\n").unwrap();
    bad(&jumpy3_args(&["--book", s(&book)]), &["no positions"]);
    bad(
        &jumpy3_args(&["--book", s(&book), "--position", "start"]),
        &["--book", "--position"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fair_starts_are_both_win() {
    let out = ok(&["apply", "chaosclock", "fair:1"]);
    let pos = out.lines().next().unwrap().to_string();
    assert_eq!(
        ok(&["apply", "chaosclock", "fair:1"])
            .lines()
            .next()
            .unwrap(),
        pos
    );
    let solved = ok(&["solve", "chaosclock", &pos]);
    assert!(solved.contains("value: 3"), "{pos}: {solved}");
    // A derangement with Even to move: every piece on the board, none home.
    let board: Vec<u32> = pos
        .split(';')
        .next()
        .unwrap()
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(board.len(), 12);
    for (i, &p) in board.iter().enumerate() {
        assert!(p >= 1 && p != i as u32 + 1, "{pos}");
    }
    bad(&["apply", "jumpy3", "fair:1"], &["no fair start"]);
    bad(&["apply", "chaosclock", "fair:x"], &["fair:"]);
    bad(
        &["match", "throne", "--position", "fair"],
        &["no fair start"],
    );
    // In a book, and per opening in a match.
    let dir = scratch("fair");
    let book = dir.join("fair.txt");
    std::fs::write(&book, "fair:1\n").unwrap();
    let file = dir.join("m.jsonl");
    ok(&[
        "match",
        "chaosclock",
        "--engine",
        "greedy,eval=default",
        "--engine",
        "random",
        "--book",
        s(&book),
        "--games",
        "2",
        "--out",
        s(&file),
        "--quiet",
    ]);
    let (_, games) = read_match(&file);
    for v in games.values() {
        assert_eq!(v["start"].as_str().unwrap(), pos);
    }
    // `--position fair`: opening o starts from fair:(seed + o).
    let file = dir.join("p.jsonl");
    ok(&[
        "match",
        "chaosclock",
        "--engine",
        "greedy,eval=default",
        "--engine",
        "random",
        "--position",
        "fair",
        "--seed",
        "1",
        "--games",
        "2",
        "--out",
        s(&file),
        "--quiet",
    ]);
    let (_, games) = read_match(&file);
    assert_eq!(games.len(), 2);
    for v in games.values() {
        assert_eq!(v["start"].as_str().unwrap(), pos);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn adjudication_ends_games_early() {
    let dir = scratch("adjudicate");
    let file = dir.join("m.jsonl");
    let out = ok(&[
        "match",
        "throne",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--games",
        "2",
        "--max-plies",
        "12",
        "--out",
        s(&file),
    ]);
    assert!(out.contains("adjudicated: max-plies"), "{out}");
    let (_, games) = read_match(&file);
    for v in games.values() {
        let plies =
            v["opening_moves"].as_array().unwrap().len() + v["moves"].as_array().unwrap().len();
        assert!(plies <= 12, "{v}");
        if plies == 12 {
            assert_eq!(v["adjudicated"], "max-plies");
        }
    }
    // The resign rule: a deep engine against a shallow one, agreeing on the score.
    let file = dir.join("r.jsonl");
    let out = ok(&[
        "match",
        "jumpy3",
        "--engine",
        "engine,depth=6",
        "--engine",
        "engine,depth=1",
        "--games",
        "4",
        "--resign",
        "1,1",
        "--out",
        s(&file),
    ]);
    let (_, games) = read_match(&file);
    let resigned: Vec<&Value> = games
        .values()
        .filter(|v| v["adjudicated"] == "resign")
        .collect();
    assert!(!resigned.is_empty(), "{out}");
    for v in resigned {
        // The loser's last score was at most -1, the winner's at least 1.
        let scores = v["scores"].as_array().unwrap();
        let n = scores.len();
        let winner = v["winner_seat"].as_u64().unwrap() as usize;
        let (a, b) = (
            scores[n - 1].as_i64().unwrap(),
            scores[n - 2].as_i64().unwrap(),
        );
        assert!(
            a.abs() >= 1 && b.abs() >= 1 && a.signum() != b.signum(),
            "{v}"
        );
        assert!(winner < 2);
    }
    bad(&["match", "chexers", "--resign", "3,500"], &["two-player"]);
    bad(&jumpy3_args(&["--draw", "40,8"]), &["--draw", "3 positive"]);
    bad(&jumpy3_args(&["--max-plies", "0"]), &["--max-plies"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn chexers_ranks_the_engines_by_places() {
    let out = ok(&[
        "match",
        "chexers",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--engine",
        "random,seed=9",
        "--games",
        "6",
        "--quiet",
    ]);
    let rank_at = out.lines().position(|l| l.starts_with("rank")).expect(&out);
    let rows: Vec<Vec<String>> = out
        .lines()
        .skip(rank_at + 1)
        .take(3)
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    let mut total_first = 0;
    let mut means = Vec::new();
    for r in &rows {
        // rank, engine, (n), seats, 1st, 2nd, 3rd, mean place
        let n = r.len();
        let seats: u32 = r[n - 5].parse().unwrap();
        let places: Vec<u32> = r[n - 4..n - 1].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(seats, 6, "{out}");
        assert_eq!(places.iter().sum::<u32>(), seats, "{out}");
        total_first += places[0];
        means.push(r[n - 1].parse::<f64>().unwrap());
    }
    assert!(
        means.windows(2).all(|w| w[0] <= w[1]),
        "ranked by mean place: {out}"
    );
    assert!(total_first >= 6, "a first place in every game: {out}");
    assert!(out.contains("progress (such as exits)"), "{out}");
}

#[test]
fn bad_options_are_named() {
    bad(&jumpy3_args(&["--shard", "0/3"]), &["--shard", "K/N"]);
    bad(&jumpy3_args(&["--shard", "4/3"]), &["--shard"]);
    bad(&jumpy3_args(&["--concurrency", "0"]), &["--concurrency"]);
    bad(&jumpy3_args(&["--resume"]), &["--resume", "--out"]);
    bad(&jumpy3_args(&["--games", "0"]), &["--games"]);
    bad(&["merge"], &["FILES"]);
}

#[test]
fn files_of_a_match_say_what_is_wrong_with_them() {
    let dir = scratch("files");
    // A folder that does not exist is bad input, named.
    let missing = dir.join("no-such-folder").join("m.jsonl");
    bad(
        &jumpy3_args(&["--games", "2", "--out", s(&missing)]),
        &["--out", "no-such-folder", "does not exist"],
    );
    let record = dir.join("no-such-folder").join("games.txt");
    bad(
        &jumpy3_args(&["--games", "2", "--record", s(&record)]),
        &["--record", "does not exist"],
    );
    // Resuming a file that is not there yet plays the match into a new one, and says so.
    let fresh = dir.join("fresh.jsonl");
    let out = ok(&jumpy3_args(&[
        "--games",
        "2",
        "--out",
        s(&fresh),
        "--resume",
        "--quiet",
    ]));
    assert!(out.contains("no such file to resume: a new one"), "{out}");
    assert_eq!(read_match(&fresh).1.len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_game_clock_runs_out() {
    let dir = scratch("clock");
    // A clock of a nanosecond: the first move of the side to move takes longer (a greedy
    // Chexers move once took just under a microsecond, the clock this test had), and it
    // loses on time; with three players it alone loses and the others share first place.
    let file = dir.join("c.jsonl");
    let out = ok(&[
        "match",
        "chexers",
        "--engine",
        "engine,eval=greedy",
        "--engine",
        "greedy",
        "--games",
        "3",
        "--opening",
        "0",
        "--clock",
        "0.000001ms",
        "--out",
        s(&file),
    ]);
    assert!(out.contains("clock a side"), "{out}");
    let (header, games) = read_match(&file);
    assert!(header["settings"].as_str().unwrap().contains("clock="));
    assert_eq!(games.len(), 3);
    for g in games.values() {
        assert_eq!(g["outcome"], "loss", "{g}");
        assert_eq!(g["loser_seat"], 0, "{g}");
        assert_eq!(g["result"], "loss r", "{g}");
        assert_eq!(g["adjudicated"], "time", "{g}");
        assert_eq!(g["places"], serde_json::json!([3, 1, 1]), "{g}");
    }
    // Two players: the other side wins.
    let out = ok(&[
        "match",
        "throne",
        "--engine",
        "engine",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--opening",
        "0",
        "--clock",
        "0.000001ms",
    ]);
    assert!(
        out.contains("winner w") && out.contains("[adjudicated: time]"),
        "{out}"
    );
    bad(&jumpy3_args(&["--clock", "0s"]), &["--clock"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// `arena speedup` reads the threads' match file and the time-odds files: each engine 1's
/// Elo, and the effective speedup (here deeper searches stand in for more time, so that
/// the games take no time to speak of; nothing about the figures is asserted).
#[test]
fn speedup_reads_the_threads_and_the_time_odds() {
    let dir = scratch("speedup");
    let play = |first: &str, second: &str, file: &Path| {
        ok(&[
            "match",
            "throne",
            "--engine",
            first,
            "--engine",
            second,
            "--games",
            "4",
            "--quiet",
            "--out",
            s(file),
        ]);
    };
    let threads = dir.join("t2.jsonl");
    let odds = dir.join("k2.jsonl");
    play("engine,depth=2,threads=2", "engine,depth=2", &threads);
    play("engine,depth=3", "engine,depth=2", &odds);
    let arg = format!("2={}", s(&odds));
    let out = ok(&["speedup", s(&threads), "--odds", &arg]);
    assert!(
        out.contains("the threads") && out.contains("2x the time"),
        "{out}"
    );
    assert!(out.contains("effective speedup"), "{out}");
    bad(
        &["speedup", s(&threads), "--odds", "1=x.jsonl"],
        &["above 1"],
    );
    bad(&["speedup", s(&threads)], &["--odds"]);
}
