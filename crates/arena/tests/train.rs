//! `arena train`: a run writes its network, games, state and loss curve; the network plays
//! through `eval=net:FILE`; a killed run resumes to the same weights; bad input exits 2
//! with the reason.

mod runs;

use runs::{bad, kill_after, ok, s, scratch, start, text};

/// `arena train jumpy3` with small settings and `extra`.
fn jumpy3_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "train",
        "jumpy3",
        "--out",
        out,
        "--engine",
        "engine,depth=2",
        "--games",
        "40",
        "--hidden",
        "16",
        "--epochs",
        "4",
        "--batch",
        "64",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_run_writes_its_files_and_the_network_plays() {
    let dir = scratch("train-run");
    let net = dir.join("j.safetensors");
    let out = ok(&jumpy3_args(s(&net), &["--target", "tdleaf"]));
    for want in [
        "games: 40 self-play",
        "epoch   4",
        "network: dense [80, 16, 2]",
        "trainer: ",
        "nodes/s with the network",
    ] {
        assert!(out.contains(want), "{want:?} not in {out}");
    }
    for suffix in ["", ".games.jsonl", ".state.safetensors", ".loss.svg"] {
        let f = format!("{}{suffix}", net.display());
        assert!(std::fs::metadata(&f).is_ok_and(|m| m.len() > 0), "{f}");
    }
    let games = std::fs::read_to_string(format!("{}.games.jsonl", net.display())).unwrap();
    assert_eq!(
        games
            .lines()
            .filter(|l| l.contains("\"train-game\""))
            .count(),
        40
    );
    // The network searches in a match.
    let spec = format!("engine,depth=2,eval=net:{}", net.display());
    let table = ok(&[
        "match", "jumpy3", "--engine", &spec, "--engine", "greedy", "--games", "4", "--quiet",
    ]);
    assert!(table.contains("eval=net:"), "{table}");
    // The games file is a record that another run learns from.
    let again = dir.join("again.safetensors");
    let games_file = format!("{}.games.jsonl", net.display());
    let out = ok(&[
        "train",
        "jumpy3",
        "--out",
        s(&again),
        "--games",
        "0",
        "--records",
        &games_file,
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--terms",
    ]);
    assert!(out.contains("0 self-play, 40 recorded"), "{out}");
    // With --terms it reads the evaluation's two scores after the 80 observed inputs, and
    // its searches compute them.
    assert!(out.contains("network: dense [82, 8, 2]"), "{out}");
    let spec = format!("engine,depth=2,eval=net:{}", again.display());
    let table = ok(&[
        "match", "jumpy3", "--engine", &spec, "--engine", "greedy", "--games", "2", "--quiet",
    ]);
    assert!(table.contains("eval=net:"), "{table}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_killed_run_resumes_to_the_same_weights() {
    let dir = scratch("train-resume");
    let whole = dir.join("whole.safetensors");
    ok(&jumpy3_args(s(&whole), &[]));
    let reference = std::fs::read(&whole).unwrap();
    let same = |path: &std::path::Path| std::fs::read(path).unwrap() == reference;
    // Killed while playing, resumed with games at once (they do not change the games).
    let killed = dir.join("killed.safetensors");
    let games = dir.join("killed.safetensors.games.jsonl");
    kill_after(&jumpy3_args(s(&killed), &[]), &games, "\"train-game\"", 12);
    let said = ok(&jumpy3_args(
        s(&killed),
        &["--resume", "--concurrency", "2"],
    ));
    assert!(said.contains("4 epochs, resumed"), "{said}");
    assert!(same(&killed), "a run killed while playing ends elsewhere");
    // --resume with nothing to resume: a new run, said so.
    let fresh = dir.join("fresh.safetensors");
    let said = ok(&jumpy3_args(s(&fresh), &["--resume"]));
    assert!(said.contains("nothing to resume: a new run"), "{said}");
    assert!(same(&fresh), "a new run with --resume ends elsewhere");
    // Stopped after 2 epochs, resumed to 4.
    let part = dir.join("part.safetensors");
    let mut two = jumpy3_args(s(&part), &[]);
    let at = two.iter().position(|a| *a == "--epochs").unwrap();
    two[at + 1] = "2";
    ok(&two);
    ok(&jumpy3_args(s(&part), &["--resume"]));
    assert!(same(&part), "a run resumed for more epochs ends elsewhere");
    // Other settings: the state is refused.
    bad(
        &jumpy3_args(s(&part), &["--resume", "--hidden", "12"]),
        &["--resume", "state of another training run"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_2_with_the_reason() {
    let dir = scratch("train-bad");
    let net = dir.join("n.safetensors");
    ok(&jumpy3_args(s(&net), &[]));
    // A corrupt state file.
    let state = dir.join("n.safetensors.state.safetensors");
    let mut bytes = std::fs::read(&state).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&state, bytes).unwrap();
    bad(
        &jumpy3_args(s(&net), &["--resume"]),
        &["state.safetensors", "not a whole plyforge network"],
    );
    // A network of another game, and a file that is no network.
    let foreign = format!("paranoid,depth=1,eval=net:{}", net.display());
    bad(
        &[
            "match", "chexers", "--engine", &foreign, "--engine", "greedy", "--games", "1",
        ],
        &["a network for \"jumpy3\", not \"chexers\""],
    );
    let games_file = format!("{}.games.jsonl", net.display());
    let junk = format!("engine,depth=1,eval=net:{games_file}");
    bad(
        &[
            "match", "jumpy3", "--engine", &junk, "--engine", "greedy", "--games", "1",
        ],
        &["games.jsonl", "not a whole plyforge network"],
    );
    // Records of another game; settings out of range; files in the way.
    bad(
        &[
            "train",
            "chexers",
            "--out",
            s(&dir.join("c")),
            "--games",
            "0",
            "--records",
            &games_file,
        ],
        &["the games of jumpy3, not chexers"],
    );
    bad(
        &jumpy3_args(s(&dir.join("t")), &["--target", "win"]),
        &["--target win"],
    );
    bad(
        &jumpy3_args(s(&dir.join("h")), &["--hidden", "0"]),
        &["--hidden"],
    );
    bad(
        &jumpy3_args(s(&dir.join("e")), &["--explore", "2"]),
        &["--explore 2"],
    );
    bad(
        &jumpy3_args(s(&dir.join("d")), &["--draw-value", "losses"]),
        &["--draw-value losses", "-1 to 1, or wins"],
    );
    bad(
        &jumpy3_args(s(&dir.join("d")), &["--draw-value", "1.5"]),
        &["--draw-value 1.5"],
    );
    bad(
        &[
            "train",
            "jumpy3",
            "--out",
            s(&dir.join("g")),
            "--engine",
            "engine",
        ],
        &["self-play needs a depth or node budget"],
    );
    bad(&jumpy3_args(s(&net), &[]), &["the file exists", "--resume"]);
    bad(
        &jumpy3_args(s(&dir.join("none").join("x")), &[]),
        &["does not exist"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn generations_are_judged_by_a_match_and_a_run_resumes_past_the_decided_ones() {
    let dir = scratch("train-generations");
    let net = dir.join("g.safetensors");
    let args = |extra: &[&str]| generation_args(s(&net), "4", extra);
    let out = ok(&strs(&args(&[])));
    for want in ["generation  1: 4 games", "generation  2: 4 games"] {
        assert!(out.contains(want), "{want:?} not in {out}");
    }
    let log = std::fs::read_to_string(dir.join("g.safetensors.generations.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    // Generation 2 learned from generation 1's games too.
    let two = format!("{}.gen2", net.display());
    assert!(std::fs::metadata(&two).is_ok(), "{two}");
    assert!(std::fs::metadata(format!("{}.gen1.match.jsonl", net.display())).is_ok());
    // Resumed after its end: the decided generations are read, nothing is played again.
    let out2 = ok(&strs(&args(&["--resume"])));
    let lines = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("generation"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&out2), lines(&out));
    // A network in the self-play engine is refused: the generations play with their own
    // (generation 2's network: a file that exists, whether or not a generation was kept).
    let spec = format!("engine,depth=1,eval=net:{two}");
    bad(
        &[
            "train",
            "jumpy3",
            "--out",
            s(&dir.join("h")),
            "--engine",
            &spec,
            "--generations",
            "2",
        ],
        &["no eval=net: with --generations"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn workers_share_every_generation_and_decide_alike() {
    let dir = scratch("train-generation-workers");
    let args = |out: &str, shard: Option<&str>| match shard {
        Some(k) => generation_args(out, "8", &["--shard", k]),
        None => generation_args(out, "8", &[]),
    };
    // One run alone: its first network depends on its self-play only (at a fixed depth).
    let alone = dir.join("alone.safetensors");
    ok(&strs(&args(s(&alone), None)));
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let outs: Vec<_> = (1..=2)
        .map(|k| shared.join(format!("w{k}.safetensors")))
        .collect();
    let children: Vec<_> = outs
        .iter()
        .enumerate()
        .map(|(i, out)| {
            let shard = format!("{}/2", i + 1);
            start(&strs(&args(s(out), Some(&shard))))
        })
        .collect();
    for (k, child) in children.into_iter().enumerate() {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "worker {}: {}", k + 1, text(&o));
    }
    let bytes = |p: String| std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let at = |out: &std::path::Path, tail: &str| format!("{}{tail}", out.display());
    assert!(
        bytes(at(&outs[0], ".gen1")) == bytes(at(&alone, ".gen1")),
        "the workers' first network differs from the one run's"
    );
    // Each generation: the same network for both, and the same verdict on the same games.
    for g in ["gen1", "gen2"] {
        assert!(
            bytes(at(&outs[0], &format!(".{g}"))) == bytes(at(&outs[1], &format!(".{g}"))),
            "{g}: the workers' networks differ"
        );
    }
    let decisions = |out: &std::path::Path| -> Vec<(u64, String, bool, String)> {
        std::fs::read_to_string(at(out, ".generations.jsonl"))
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["games"].as_u64().unwrap(),
                    v["score"].to_string(),
                    v["kept"].as_bool().unwrap(),
                    v["verdict"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let d1 = decisions(&outs[0]);
    assert_eq!(d1.len(), 2, "{d1:?}");
    assert_eq!(d1, decisions(&outs[1]));
    // The match of each generation: each worker played its own openings (2 games each).
    for (k, out) in outs.iter().enumerate() {
        for g in ["gen1", "gen2"] {
            let m = std::fs::read_to_string(at(out, &format!(".{g}.match.jsonl"))).unwrap();
            let games: Vec<u64> = m
                .lines()
                .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
                .filter_map(|v| v.get("game").and_then(|g| g.as_u64()))
                .collect();
            assert_eq!(games.len(), 4, "worker {}, {g}: {m}", k + 1);
            assert!(
                games.iter().all(|g| (g / 2) % 2 == k as u64),
                "worker {}, {g}: {games:?}",
                k + 1
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn workers_sharing_the_self_play_write_the_network_of_one_run() {
    let dir = scratch("train-workers");
    let one = dir.join("one.safetensors");
    ok(&jumpy3_args(s(&one), &[]));
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let children: Vec<_> = (1..=2)
        .map(|k| {
            let out = shared.join(format!("w{k}.safetensors"));
            let shard = format!("{k}/2");
            start(&jumpy3_args(s(&out), &["--shard", &shard]))
        })
        .collect();
    let want = std::fs::read(&one).unwrap();
    for (k, child) in children.into_iter().enumerate() {
        let k = k + 1;
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "worker {k}: {}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("games: 40 self-play"), "worker {k}: {out}");
        let net = shared.join(format!("w{k}.safetensors"));
        assert!(
            std::fs::read(&net).unwrap() == want,
            "worker {k}'s network differs from the one run's"
        );
        // Its file holds its own games only: every other index.
        let games = std::fs::read_to_string(format!("{}.games.jsonl", net.display())).unwrap();
        let lines: Vec<&str> = games
            .lines()
            .filter(|l| l.contains("\"train-game\""))
            .collect();
        assert_eq!(lines.len(), 20, "worker {k}");
        for l in lines {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(
                v["index"].as_u64().unwrap() % 2,
                (k - 1) as u64,
                "worker {k}: {l}"
            );
        }
    }
    // A worker's file resumed as another shard's, and a shard without --out, are refused.
    let w1 = shared.join("w1.safetensors");
    std::fs::remove_file(&w1).unwrap();
    bad(
        &jumpy3_args(s(&w1), &["--shard", "2/2", "--resume"]),
        &["written by worker 1/2, not 2/2"],
    );
    bad(
        &[
            "train",
            "jumpy3",
            "--out",
            s(&dir.join("x")),
            "--games",
            "0",
            "--records",
            s(&one),
            "--shard",
            "1/2",
        ],
        &["--shard", "--games"],
    );
    bad(
        &jumpy3_args(s(&dir.join("y")), &["--shard", "3/2"]),
        &["--shard"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `arena train jumpy3 --net sparse` with small settings (width 32 unless `extra` gives
/// one) and `extra`.
fn sparse_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["train", "jumpy3", "--out", out, "--net", "sparse"];
    if !extra.contains(&"--width") {
        args.extend(["--width", "32"]);
    }
    args.extend([
        "--engine",
        "engine,depth=2",
        "--games",
        "30",
        "--epochs",
        "4",
        "--batch",
        "64",
        "--target",
        "score",
        "--lambda",
        "0.5",
    ]);
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_sparse_run_writes_its_files_plays_and_resumes_to_the_same_bytes() {
    let dir = scratch("train-sparse");
    let whole = dir.join("whole.safetensors");
    let out = ok(&sparse_args(s(&whole), &[]));
    for want in [
        "games: 30 self-play",
        "sparse width 32, 1 view",
        "target score (lambda 0.5)",
        "network: sparse 80 features, width 32, 1 view, 2 outputs",
        "trainer: ",
        "nodes/s with the network",
    ] {
        assert!(out.contains(want), "{want:?} not in {out}");
    }
    for suffix in ["", ".games.jsonl", ".state.safetensors", ".loss.svg"] {
        let f = format!("{}{suffix}", whole.display());
        assert!(std::fs::metadata(&f).is_ok_and(|m| m.len() > 0), "{f}");
    }
    // The network searches in a match, as every search's evaluation.
    for search in [
        "engine,depth=2",
        "alphabeta,depth=2",
        "mcts,iterations=100,playout=0",
    ] {
        let spec = format!("{search},eval=net:{}", whole.display());
        let table = ok(&[
            "match", "jumpy3", "--engine", &spec, "--engine", "greedy", "--games", "2", "--quiet",
        ]);
        assert!(table.contains("eval=net:"), "{table}");
    }
    // Killed while playing, resumed with games at once: the same bytes.
    let reference = std::fs::read(&whole).unwrap();
    let killed = dir.join("killed.safetensors");
    let games = dir.join("killed.safetensors.games.jsonl");
    kill_after(&sparse_args(s(&killed), &[]), &games, "\"train-game\"", 10);
    let said = ok(&sparse_args(
        s(&killed),
        &["--resume", "--concurrency", "2"],
    ));
    assert!(said.contains("4 epochs, resumed"), "{said}");
    assert!(
        std::fs::read(&killed).unwrap() == reference,
        "a sparse run killed while playing ends elsewhere"
    );
    // Stopped after 2 epochs, resumed to 4: the same bytes.
    let part = dir.join("part.safetensors");
    let mut two = sparse_args(s(&part), &[]);
    let at = two.iter().position(|a| *a == "--epochs").unwrap();
    two[at + 1] = "2";
    ok(&two);
    ok(&sparse_args(s(&part), &["--resume"]));
    assert!(
        std::fs::read(&part).unwrap() == reference,
        "a sparse run resumed for more epochs ends elsewhere"
    );
    // Another shape: the state is refused; a dense run's state is not a sparse one's.
    bad(
        &sparse_args(s(&part), &["--resume", "--width", "64"]),
        &["--resume", "state of another training run"],
    );
    // Options of the other kind of network, and shapes the game cannot take.
    bad(
        &sparse_args(s(&dir.join("a")), &["--hidden", "16"]),
        &["--hidden and --terms shape a dense network"],
    );
    bad(
        &jumpy3_args(s(&dir.join("b")), &["--width", "16"]),
        &["add --net sparse"],
    );
    bad(
        &sparse_args(s(&dir.join("c")), &["--perspectives", "3"]),
        &["--perspectives 3: 1 (the mover's view) or 2"],
    );
    bad(
        &sparse_args(s(&dir.join("d")), &["--width", "0"]),
        &["--net sparse", "width is 0"],
    );
    bad(
        &jumpy3_args(s(&dir.join("e")), &["--net", "wide"]),
        &["--net wide: dense or sparse"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `arena train jumpy3` in two small generations, each judged by at most `gate_games`
/// games, with `extra`.
fn generation_args(out: &str, gate_games: &str, extra: &[&str]) -> Vec<String> {
    [
        "train",
        "jumpy3",
        "--out",
        out,
        "--engine",
        "engine,depth=1",
        "--games",
        "12",
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--generations",
        "2",
        "--gate-games",
        gate_games,
        "--gate-time",
        "5ms",
        "--gate-engine",
        "engine,depth=2",
    ]
    .iter()
    .chain(extra)
    .map(|x| x.to_string())
    .collect()
}

/// Borrowed arguments.
fn strs(a: &[String]) -> Vec<&str> {
    a.iter().map(String::as_str).collect()
}

#[test]
fn a_network_key_without_a_file_says_what_the_key_looks_like() {
    for (eval, want) in [
        ("net", "eval=net:FILE"),
        ("net:", "eval=net:FILE"),
        ("nope", "or net:FILE"),
    ] {
        let spec = format!("engine,depth=1,eval={eval}");
        bad(
            &[
                "match", "jumpy3", "--engine", &spec, "--engine", "greedy", "--games", "1",
            ],
            &[want],
        );
    }
}

#[test]
fn progress_goes_to_a_log_as_it_happens_and_nothing_held_out_is_said() {
    let dir = scratch("train-log");
    let net = dir.join("n.safetensors");
    // Stdout and stderr are pipes here, as in a log file: no bar is drawn, lines are.
    let out = ok(&jumpy3_args(s(&net), &["--holdout", "0"]));
    let epochs = out
        .find("epochs: 4/4")
        .expect("the last epoch's progress line");
    let games = out.find("games: 40/40").expect("self-play's progress line");
    let summary = out.find("games: 40 self-play").expect("the summary");
    assert!(games < summary && epochs < summary, "{out}");
    assert!(out.contains("none held out"), "{out}");
    assert!(!out.contains("0.00000 held out"), "{out}");
    let svg = std::fs::read_to_string(format!("{}.loss.svg", net.display())).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 1, "no held-out line");
    std::fs::remove_dir_all(&dir).ok();
}
