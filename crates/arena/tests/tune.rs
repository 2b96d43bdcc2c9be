//! `arena tune` driven as a user or a cluster would: SPSA runs, their tune file, a killed run
//! resumed, workers that share a directory, three players and a fixed opponent, the
//! verification and the picture, Texel's method from records, and bad input.
//!
//! Fixed-depth engines with one thread are deterministic, so a run's games and its final
//! values are the same however it is played: the tests compare them exactly.

mod runs;

use std::collections::BTreeMap;
use std::path::Path;

use runs::{bad, kill_after, ok, s, start, text};
use serde_json::Value;

/// A fresh directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    runs::scratch(&format!("tune-{name}"))
}

/// A quick Throne run: depth-2 engines, three parameters, 24 iterations of two pairs.
fn throne_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "tune",
        "throne",
        "--engine",
        "engine,depth=2",
        "--param",
        "tempo,mobility,prisoner_move",
        "--iterations",
        "24",
        "--pairs",
        "2",
        "--seed",
        "5",
    ];
    v.extend_from_slice(extra);
    v
}

/// The final table of a run (each parameter's start, theta and tuned value) and its
/// `tuned:` line.
fn finals(out: &str) -> Vec<String> {
    let from = out
        .find("iterations done")
        .unwrap_or_else(|| panic!("no final table in {out}"));
    out[from..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("(as an engine"))
        .map(str::to_string)
        .collect()
}

/// The games of a tune file by (iteration, index), without what depends on the machine
/// (times), and its header.
fn read_tune(path: &Path) -> (Value, BTreeMap<(u64, u64), Value>) {
    let mut header = Value::Null;
    let mut games = BTreeMap::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        match v["type"].as_str() {
            Some("tune") => header = v,
            Some("tune-game") => {
                let key = (v["iter"].as_u64().unwrap(), v["index"].as_u64().unwrap());
                let g = v["game"].as_object_mut().unwrap();
                for k in ["time_ms", "setup_ms", "wall_ms"] {
                    g.remove(k);
                }
                assert!(games.insert(key, v).is_none(), "{key:?} twice in {path:?}");
            }
            other => panic!("{path:?}: a line of type {other:?}"),
        }
    }
    (header, games)
}

#[test]
fn a_run_writes_every_game_and_prints_the_tuned_spec() {
    let dir = scratch("run");
    let file = dir.join("run.jsonl");
    let out = ok(&throne_args(&["--out", s(&file), "--concurrency", "2"]));
    // The schedule's values are printed at the start, per parameter.
    assert!(
        out.contains("schedule: alpha 0.602 gamma 0.101 A 2.4"),
        "{out}"
    );
    for p in ["tempo", "mobility", "prisoner_move"] {
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(p)),
            "{p}: {out}"
        );
    }
    let fin = finals(&out);
    let tuned = fin
        .iter()
        .find(|l| l.starts_with("tuned: "))
        .expect("tuned:");
    assert!(tuned.starts_with("tuned: engine,depth=2,tempo="), "{tuned}");
    // The values moved (the run is not a no-op): some theta is not its start.
    let moved = fin.iter().filter(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.len() == 4 && w[1].parse::<f64>().ok() != w[2].parse::<f64>().ok()
    });
    assert!(moved.count() > 0, "{out}");
    // The tuned spec is an engine spec that plays.
    let spec = tuned.trim_start_matches("tuned: ");
    ok(&[
        "match", "throne", "--engine", spec, "--engine", "greedy", "--games", "2",
    ]);
    // 24 iterations x 2 pairs x 2 seat orders, each game θ+ against θ− with the values of
    // its iteration in the spec texts.
    let (header, games) = read_tune(&file);
    assert_eq!(header["iterations"], 24);
    assert_eq!(header["params"].as_array().unwrap().len(), 3);
    assert_eq!(games.len(), 24 * 4);
    for ((iter, index), g) in &games {
        assert!(*iter < 24 && *index < 4);
        let seats: Vec<u64> = g["game"]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(seats, if index % 2 == 0 { [0, 1] } else { [1, 0] });
        let plus = g["plus"][0].as_f64().unwrap().round() as i64;
        let engine_plus = g["game"]["engines"][seats.iter().position(|&x| x == 0).unwrap()]
            .as_str()
            .unwrap();
        assert!(
            engine_plus.contains(&format!("tempo={plus},")),
            "{engine_plus} {plus}"
        );
        let d = g["diff"].as_f64().unwrap();
        assert!([-1.0, 0.0, 1.0].contains(&d), "{d}");
    }
    // The picture is written beside the file, one path per parameter.
    let svg = std::fs::read_to_string(dir.join("run.svg")).unwrap();
    assert_eq!(svg.matches("<path ").count(), 3);
    assert!(svg.contains("tempo: 40 →"), "{svg}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_killed_run_resumes_to_the_same_values_without_losing_a_game() {
    let dir = scratch("resume");
    let whole = dir.join("whole.jsonl");
    let reference = finals(&ok(&throne_args(&["--out", s(&whole)])));
    // Killed after 30 games, resumed (with games at once: it does not change them).
    let killed = dir.join("killed.jsonl");
    kill_after(
        &throne_args(&["--out", s(&killed)]),
        &killed,
        "\"tune-game\"",
        30,
    );
    let out = ok(&throne_args(&[
        "--out",
        s(&killed),
        "--resume",
        "--concurrency",
        "2",
    ]));
    assert!(out.contains("games there already"), "{out}");
    assert_eq!(finals(&out), reference);
    assert_eq!(read_tune(&killed).1, read_tune(&whole).1);
    // A file cut in the middle of a line (a write cut short) resumes too.
    let cut = dir.join("cut.jsonl");
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut torn = lines[..12].join("\n");
    torn.push('\n');
    torn.push_str(&lines[12][..40]);
    std::fs::write(&cut, torn).unwrap();
    let out = ok(&throne_args(&["--out", s(&cut), "--resume"]));
    assert!(out.contains("11 games there already"), "{out}");
    assert_eq!(finals(&out), reference);
    assert_eq!(read_tune(&cut).1, read_tune(&whole).1);
    // A finished run resumed plays nothing and says the same.
    let again = ok(&throne_args(&["--out", s(&whole), "--resume"]));
    assert!(again.contains("(0 games played now"), "{again}");
    assert_eq!(finals(&again), reference);
    // Other settings: refused, with both runs named.
    bad(
        &[
            "tune",
            "throne",
            "--engine",
            "engine,depth=1",
            "--param",
            "tempo",
            "--out",
            s(&whole),
            "--resume",
        ],
        &["--resume", "holds tuning run", "these options make run"],
    );
    // Without --resume an existing file is not overwritten.
    bad(
        &throne_args(&["--out", s(&whole)]),
        &["the file exists", "--resume"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn workers_in_one_directory_reach_the_state_of_one_run() {
    let dir = scratch("workers");
    let reference = finals(&ok(&throne_args(&[])));
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let children: Vec<_> = (1..=3)
        .map(|k| {
            let file = shared.join(format!("worker-{k}.jsonl"));
            let shard = format!("{k}/3");
            start(&throne_args(&["--out", s(&file), "--shard", &shard]))
        })
        .collect();
    let mut all = BTreeMap::new();
    for (k, child) in children.into_iter().enumerate() {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "worker {}: {}", k + 1, text(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(&format!("worker {}/3", k + 1)), "{out}");
        assert_eq!(finals(&out), reference, "worker {}", k + 1);
        let (_, games) = read_tune(&shared.join(format!("worker-{}.jsonl", k + 1)));
        for (key, g) in games {
            assert!(
                all.insert(key, g).is_none(),
                "{key:?} in two workers' files"
            );
        }
    }
    // Together they played every game of the run once.
    assert_eq!(all.len(), 24 * 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn three_players_and_a_fixed_opponent() {
    let dir = scratch("three");
    let file = dir.join("c.jsonl");
    let out = ok(&[
        "tune",
        "chexers",
        "--engine",
        "paranoid,depth=1",
        "--param",
        "material,step",
        "--opponent",
        "greedy",
        "--iterations",
        "2",
        "--out",
        s(&file),
    ]);
    assert!(
        out.contains("6 seat orders), theta+ and theta- each against greedy"),
        "{out}"
    );
    let (header, games) = read_tune(&file);
    assert_eq!(header["opponent"], "greedy");
    assert_eq!(games.len(), 2 * 6);
    for g in games.values() {
        let mut seats: Vec<u64> = g["game"]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        seats.sort();
        assert_eq!(seats, [0, 1, 2], "θ+, θ− and the opponent in every game");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_plays_the_tuned_values_against_the_start_and_draws_the_test() {
    let dir = scratch("verify");
    let file = dir.join("v.jsonl");
    let out = ok(&[
        "tune",
        "throne",
        "--engine",
        "engine,depth=2",
        "--param",
        "tempo,mobility,prisoner_move",
        "--iterations",
        "40",
        "--pairs",
        "2",
        "--concurrency",
        "2",
        "--out",
        s(&file),
        "--verify",
        "--verify-games",
        "16",
        "--verify-sprt",
        "0",
        "40",
    ]);
    assert!(out.contains("verify: engine,depth=2,tempo="), "{out}");
    let verify = dir.join("v.verify.jsonl");
    let text = std::fs::read_to_string(&verify).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["sprt"]["elo1"], 40.0);
    assert!(header["engines"][0].as_str().unwrap().contains("tempo="));
    assert!(header["engines"][1]
        .as_str()
        .unwrap()
        .ends_with("tempo=40,mobility=20,prisoner_move=80"));
    let svg = std::fs::read_to_string(dir.join("v.svg")).unwrap();
    assert!(svg.contains("verification: LLR"), "{svg}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn texel_fits_the_evaluation_to_recorded_games() {
    let dir = scratch("texel");
    let games = dir.join("games.jsonl");
    let record = dir.join("games.txt");
    ok(&[
        "match",
        "throne",
        "--engine",
        "engine,depth=1",
        "--engine",
        "engine,depth=1,tempo=0,mobility=0",
        "--games",
        "12",
        "--out",
        s(&games),
        "--record",
        s(&record),
        "--quiet",
    ]);
    for file in [&games, &record] {
        let out = ok(&[
            "tune",
            "throne",
            "--from-records",
            s(file),
            "--param",
            "tempo,mobility",
            "--folds",
            "3",
            "--rounds",
            "6",
        ]);
        assert!(out.contains("Throne Texel fit: 12 games"), "{out}");
        assert!(out.contains("cross-validated log loss (3 folds"), "{out}");
        let loss = |label: &str| -> (f64, f64) {
            let l = out.lines().find(|l| l.contains(label)).unwrap();
            let nums: Vec<f64> = l
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter_map(|w| w.parse().ok())
                .collect();
            (nums[nums.len() - 2], nums[nums.len() - 1])
        };
        let (start, fitted) = loss("log loss on all games");
        assert!(fitted <= start, "{out}");
        assert!(out.contains("fitted: engine,tempo="), "{out}");
    }
    // Bad records say where.
    let broken = dir.join("broken.txt");
    std::fs::write(&broken, "# game 1 | result: winner b\nnot-a-move\n").unwrap();
    bad(
        &["tune", "throne", "--from-records", s(&broken)],
        &["broken.txt line 1", "move 1"],
    );
    let other = dir.join("other.jsonl");
    ok(&[
        "match",
        "jumpy3",
        "--engine",
        "engine,depth=1",
        "--engine",
        "random",
        "--games",
        "2",
        "--out",
        s(&other),
        "--quiet",
    ]);
    bad(
        &["tune", "throne", "--from-records", s(&other)],
        &["the games of jumpy3, not throne"],
    );
    bad(
        &[
            "tune",
            "throne",
            "--from-records",
            s(&games),
            "--engine",
            "mcts",
            "--param",
            "c",
        ],
        &["--param c", "a setting of the search"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_refused_with_the_reason_and_exit_code_2() {
    bad(
        &["tune", "throne", "--param", "bravery"],
        &["no parameter \"bravery\"", "tempo"],
    );
    bad(
        &["tune", "throne", "--param", "tempo=900"],
        &["tempo=900", "between 0 and 200"],
    );
    bad(&["tune", "throne", "--param", "tempo=x"], &["tempo=x"]);
    // The search's own parameters belong to mcts engines only.
    bad(&["tune", "throne", "--param", "c"], &["no parameter \"c\""]);
    bad(
        &["tune", "throne", "--engine", "greedy"],
        &["needs the search engine"],
    );
    bad(
        &["tune", "throne", "--engine", "engine,depth=x"],
        &["depth=x"],
    );
    bad(&["tune", "throne", "--opponent", "nobody"], &["--opponent"]);
    bad(&["tune", "throne", "--iterations", "0"], &["at least 1"]);
    bad(&["tune", "throne", "--resume"], &["--resume", "--out"]);
    bad(&["tune", "throne", "--shard", "1/2"], &["--shard", "--out"]);
    bad(
        &["tune", "throne", "--shard", "3/2", "--out", "x.jsonl"],
        &["--shard"],
    );
    bad(&["tune", "throne", "--r-end", "0"], &["--r-end"]);
    bad(&["tune", "throne", "--time", "soon"], &["--time"]);
    bad(&["tune", "nogame"], &["nogame"]);
}

#[test]
fn a_fit_to_a_player_s_moves_predicts_them() {
    let dir = scratch("predict");
    let record = dir.join("games.txt");
    let games = dir.join("games.jsonl");
    // A one-ply player of the default evaluation: the default evaluation predicts it.
    ok(&[
        "match",
        "chexers",
        "--engine",
        "greedy,eval=default",
        "--engine",
        "random",
        "--engine",
        "engine,depth=1",
        "--games",
        "3",
        "--record",
        s(&record),
        "--out",
        s(&games),
        "--quiet",
    ]);
    let out = ok(&[
        "tune",
        "chexers",
        "--from-records",
        s(&record),
        "--predict",
        "greedy,eval=default",
        "--param",
        "material,spare",
        "--folds",
        "0",
        "--rounds",
        "2",
    ]);
    assert!(
        out.contains("Chexers move prediction: the moves of greedy,eval=default (1 of them seated"),
        "{out}"
    );
    let first = out
        .lines()
        .find(|l| l.contains("moves scored first"))
        .unwrap_or_else(|| panic!("{out}"));
    let start: f64 = first
        .split("start ")
        .nth(1)
        .and_then(|t| t.split('%').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    assert!(start > 75.0, "{first}");
    // The random player is predicted far worse.
    let random = ok(&[
        "tune",
        "chexers",
        "--from-records",
        s(&record),
        "--predict",
        "random",
        "--param",
        "material",
        "--folds",
        "0",
        "--rounds",
        "0",
    ]);
    assert!(random.contains("moves scored first: start "), "{random}");
    assert!(!random.contains(&format!("start {start:.1}%")), "{random}");
    // Records that do not name seats, or a name nobody had, are refused.
    bad(
        &[
            "tune",
            "chexers",
            "--from-records",
            s(&games),
            "--predict",
            "random",
        ],
        &["--predict", "names its seats"],
    );
    bad(
        &[
            "tune",
            "chexers",
            "--from-records",
            s(&record),
            "--predict",
            "nobody",
        ],
        &["--predict nobody", "no move of theirs"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tune_file_that_disagrees_with_its_run_is_refused_at_its_line() {
    let dir = scratch("tampered");
    let file = dir.join("t.jsonl");
    ok(&throne_args(&["--out", s(&file)]));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The values a game was played with, changed: the run computes others for it.
    let mut v: Value = serde_json::from_str(lines[3]).unwrap();
    v["plus"][0] = serde_json::json!(v["plus"][0].as_f64().unwrap() + 7.0);
    let mut tampered: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    tampered[3] = v.to_string();
    std::fs::write(&file, tampered.join("\n") + "\n").unwrap();
    bad(
        &throne_args(&["--out", s(&file), "--resume"]),
        &["line 4", "played with other values"],
    );
    // A result that contradicts its game: refused as the line is read.
    let mut v: Value = serde_json::from_str(lines[3]).unwrap();
    let d = v["diff"].as_f64().unwrap();
    v["diff"] = serde_json::json!(if d == 1.0 { -1.0 } else { 1.0 });
    tampered[3] = v.to_string();
    std::fs::write(&file, tampered.join("\n") + "\n").unwrap();
    bad(
        &throne_args(&["--out", s(&file), "--resume"]),
        &["line 4", "contradicts its game"],
    );
    std::fs::remove_dir_all(&dir).ok();
}
