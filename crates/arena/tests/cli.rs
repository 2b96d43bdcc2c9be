//! The `arena` binary driven as a user or a script would: every subcommand on every game,
//! bad input, a full match, the engine protocol and `play` through pipes.
//!
//! Expected rules results come from `tests/data/` (copied from the project's independent
//! vectors) or are derived by hand from the rules (each game crate's README), as noted at each test.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const GAMES: [&str; 4] = ["jumpy3", "chexers", "throne", "chaosclock"];

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the arena binary runs")
}

fn arena_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = input.to_string();
    // Write from another thread so that a full stdout pipe cannot deadlock us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the arena binary ends");
    writer.join().expect("the writer ends");
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn lines(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn ok(args: &[&str]) -> Vec<String> {
    let o = arena(args);
    assert!(
        o.status.success(),
        "arena {args:?} failed ({:?}): {}",
        o.status.code(),
        stderr(&o)
    );
    lines(&o)
}

/// Runs and expects exit code 2 with a message on stderr containing every piece of `what`.
fn bad(args: &[&str], what: &[&str]) {
    let o = arena(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "arena {args:?} should fail with code 2; stdout {} stderr {}",
        stdout(&o),
        stderr(&o)
    );
    let err = stderr(&o);
    for w in what {
        assert!(
            err.contains(w),
            "arena {args:?}: {err:?} should mention {w:?}"
        );
    }
    assert!(!err.contains("panicked"), "arena {args:?} panicked: {err}");
}

fn data(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

// ---------------------------------------------------------------------------------------
// moves / apply: the rules against the independent vectors

#[test]
fn moves_agree_with_the_vectors() {
    for row in data("moves.tsv") {
        let (game, pos, want) = (&row[0], &row[1], &row[2]);
        let got: BTreeSet<String> = ok(&["moves", game, pos]).into_iter().collect();
        let want: BTreeSet<String> = want
            .split('|')
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect();
        assert_eq!(got, want, "arena moves {game} {pos:?}");
    }
}

#[test]
fn apply_agrees_with_the_vectors() {
    for row in data("apply.tsv") {
        let (game, pos, moves, want_pos, want_result) =
            (&row[0], &row[1], &row[2], &row[3], &row[4]);
        let mut args = vec!["apply", game.as_str(), pos.as_str()];
        args.extend(moves.split('|'));
        let out = ok(&args);
        if want_pos != "*" {
            assert_eq!(&out[0], want_pos, "arena {args:?}");
        }
        if want_result == "-" {
            assert_eq!(out.len(), 1, "arena {args:?}: the game goes on: {out:?}");
        } else {
            assert_eq!(
                out.get(1),
                Some(&format!("result: {want_result}")),
                "arena {args:?}"
            );
        }
    }
}

#[test]
fn start_is_a_position_word_for_every_game() {
    // Jumpy3 and Chexers starts by hand from the rules (the crates' READMEs).
    assert_eq!(ok(&["moves", "jumpy3", "start"]), ["1", "2", "3", "4"]);
    assert_eq!(ok(&["apply", "jumpy3", "start"]), ["Wwww........bbbB w"]);
    assert_eq!(
        ok(&["apply", "chexers", "start"]),
        ["gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 0"]
    );
    assert_eq!(
        ok(&["apply", "throne", "start"]),
        ["wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 0 0 0 0 0"]
    );
    // Red's first move (-3,1) -> (-2,0), by hand: row r=0 gains a red piece at q=-2, row
    // r=1 loses the one at q=-3, Green to move, one turn played.
    assert_eq!(
        ok(&["apply", "chexers", "start", "MOVE -3 1 -2 0"]),
        ["gggg/...../....../rr....b/.....b/r...b/r..b g 0,0,0 1"]
    );
    // Chaos Clock's start is a derangement: no piece home, Even to move.
    let cc = ok(&["apply", "chaosclock", "start"]);
    let (board, rest) = cc[0].split_once(';').expect("board;side");
    assert!(rest.starts_with('1'), "{cc:?}");
    for (i, b) in board.split(',').enumerate() {
        assert_ne!(b.parse::<usize>().unwrap(), i + 1, "{cc:?}");
    }
}

#[test]
fn chexers_moves_as_one_argument_or_as_words() {
    let one = ok(&[
        "apply",
        "chexers",
        "start",
        "MOVE -3 1 -2 0",
        "MOVE 0 -3 0 -2",
    ]);
    let words = ok(&[
        "apply", "chexers", "start", "MOVE", "-3", "1", "-2", "0", "MOVE", "0", "-3", "0", "-2",
    ]);
    assert_eq!(one, words);
    // By hand: then Green (0,-3) -> (0,-2): row r=-3 loses q=0, row r=-2 gains q=0.
    assert_eq!(
        one[0],
        ".ggg/.g.../....../rr....b/.....b/r...b/r..b b 0,0,0 2"
    );
}

#[test]
fn results_and_moves_after_the_end() {
    // Jumpy3: White's king on square 16 leaves the board: White wins (rules: i == 15 leaves).
    assert_eq!(
        ok(&["apply", "jumpy3", "B..............W w", "16"]),
        ["B............... b", "result: winner w"]
    );
    bad(
        &["apply", "jumpy3", "B..............W w", "16", "1"],
        &["move 2", "\"1\"", "over"],
    );
}

// ---------------------------------------------------------------------------------------
// Bad input: exit code 2, a message naming what is wrong, never a panic.

#[test]
fn throne_gives_no_side_a_151st_move() {
    // The start board with Black to move at ply 299 (White's ply in a game from the start):
    // Black's pass is its 150th move and ends the game.
    let start = ok(&["apply", "throne", "start"])[0].clone();
    let board = start.split(' ').next().unwrap();
    let out = ok(&["apply", "throne", &format!("{board} b 299 0 0 0 0"), "pass"]);
    assert_eq!(out[1], "result: draw score", "{out:?}");
    bad(
        &[
            "apply",
            "throne",
            &format!("{board} b 299 0 0 0 0"),
            "pass",
            "pass",
        ],
        &["over"],
    );
}

#[test]
fn bad_input_is_named() {
    bad(&["moves", "jumpy3", "Wwww........bbbB"], &["position"]);
    bad(&["moves", "jumpy3", "Wwww........bbbB x"], &["position"]);
    bad(&["moves", "chexers", "gggg/... r 0,0,0 0"], &["position"]);
    bad(&["moves", "throne", "nonsense"], &["position"]);
    bad(&["moves", "chaosclock", "1,2,3;1;0"], &["position"]);
    bad(&["moves", "nosuchgame", "start"], &["nosuchgame"]);
    bad(
        &["apply", "jumpy3", "start", "4", "12"],
        &["move 2", "\"12\"", "12"],
    );
    bad(&["apply", "jumpy3", "start", "x"], &["move 1", "\"x\""]);
    // The square is quoted as typed, however long.
    bad(
        &["apply", "jumpy3", "start", "99999999999999999999999"],
        &["square 99999999999999999999999 is off the board"],
    );
    // Impossible positions, and Throne's ply parity.
    bad(
        &[
            "moves",
            "chexers",
            "..../...../....../......./....../...../.... r 0,0,0 0",
        ],
        &["no piece on the board"],
    );
    bad(
        &[
            "apply",
            "chexers",
            "..../...../....../r....../....../...../.... g 4,0,0 1",
        ],
        &["r has 4 exits but has taken only 1 turns"],
    );
    bad(&["moves", "jumpy3", "W............... b"], &["king"]);
    bad(
        &["moves", "chaosclock", "8,0,1,11,9,10,12,7,4,2,3,5;1;6"],
        &["piece 6 is not on the board"],
    );
    bad(&["apply", "jumpy3", "start", "4", ""], &["move 2"]);
    bad(
        &[
            "apply",
            "chexers",
            "start",
            "MOVE -3 1 -2 0",
            "MOVE 9 9 9 9",
        ],
        &["move 2"],
    );
    bad(&["apply", "chexers", "start", "PASS"], &["move 1", "PASS"]);
    bad(&["apply", "throne", "start", "0,0>1,1"], &["move 1"]);
    bad(&["apply", "chaosclock", "start", "w13"], &["move 1", "w13"]);
    bad(&["perft", "jumpy3", "start", "x"], &["x"]);
    bad(
        &["analyse", "jumpy3", "start", "--time", "soon"],
        &["--time"],
    );
    bad(
        &[
            "analyse",
            "jumpy3",
            "start",
            "--engine",
            "alphabeta,depth=x",
        ],
        &["depth"],
    );
    bad(&["match", "jumpy3", "--engine", "random"], &["2"]);
    bad(
        &[
            "match", "jumpy3", "--engine", "random", "--engine", "wizard",
        ],
        &["wizard"],
    );
    bad(
        &[
            "match",
            "jumpy3",
            "--engine",
            "random",
            "--engine",
            "greedy,eval=nope",
        ],
        &["eval"],
    );
    bad(
        &[
            "match", "chexers", "--engine", "random", "--engine", "random", "--engine", "random",
            "--engine", "random",
        ],
        &["2 or 3"],
    );
    bad(&["play", "jumpy3", "--human", "purple"], &["purple"]);
    bad(&["solve", "chexers", "start"], &["three players"]);
    bad(&["solve", "jumpy3", "start", "--time", "1s"], &["--time"]);
    bad(
        &["solve", "chaosclock", "start", "--table", "x"],
        &["--table"],
    );
    bad(
        &["solve", "chaosclock", "start", "--time", "soon"],
        &["--time"],
    );
    bad(&["engine", "jumpy3", "--threads", "0"], &["threads"]);
}

// ---------------------------------------------------------------------------------------
// perft

#[test]
fn perft_counts() {
    // The course implementations' reference: from the Jumpy3 start, plain minimax to depth d visits 4^d leaves
    // for d <= 10 (no game ends that early), which is the perft count.
    let out = ok(&["perft", "jumpy3", "start", "6"]);
    let want: Vec<String> = (1..=6)
        .map(|d| format!("perft {d} {}", 4u64.pow(d)))
        .collect();
    assert_eq!(out, want);
    // Chexers: Red has 8 first moves (referee vector); divide sums to the total.
    assert_eq!(ok(&["perft", "chexers", "start", "1"]), ["perft 1 8"]);
    let div = ok(&["perft", "chexers", "start", "2", "--divide"]);
    assert_eq!(div.len(), 9);
    let sum: u64 = div[..8]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(div[8], format!("total {sum}"));
    let total = ok(&["perft", "chexers", "start", "2"]);
    assert_eq!(total[1], format!("perft 2 {sum}"));
    for game in ["throne", "chaosclock"] {
        let out = ok(&["perft", game, "start", "2"]);
        let moves = ok(&["moves", game, "start"]).len();
        assert_eq!(out[0], format!("perft 1 {moves}"), "{game}");
    }
}

// ---------------------------------------------------------------------------------------
// solve

#[test]
fn solve_jumpy3_by_hand() {
    // White's king on 16 leaves at once: win in 1 ply with the move 16.
    let out = ok(&["solve", "jumpy3", "B..............W w"]);
    assert_eq!(out[0], "value: win 1");
    assert_eq!(out[1], "best: 16");
    // White to move with only its king on 3; Black's king on 1 leaves next: whatever White
    // does (its one move, 3), White loses in 2 plies.
    let out = ok(&["solve", "jumpy3", "B.W............. w"]);
    assert_eq!(out[0], "value: loss 2");
    assert_eq!(out[1], "best: 3");
    assert_eq!(out[2], "line: 3 1");
}

/// Throne, without a solver of its own, is solved by proof-number search: Black's queen
/// steps onto the throne, White can do nothing, and a soldier closes the ring (a win in 3);
/// a position far from the end gives up at the time limit with exit code 1.
#[test]
fn solve_throne_by_proof_search() {
    let pos = "wwwwww/...W.../......../........./....bb..../....b.Bb.../....bb..../........./......../......./...... b 100 0 0 0 0";
    let out = ok(&["solve", "throne", pos, "--time", "60s"]);
    assert_eq!(out[0], "value: win 3", "{out:?}");
    assert_eq!(out[1], "best: 1,0>0,0", "{out:?}");
    let line: Vec<&str> = out[2]
        .strip_prefix("line: ")
        .expect("a line")
        .split(' ')
        .collect();
    let played = ok(&[&["apply", "throne", pos][..], &line].concat());
    assert_eq!(played.last().unwrap(), "result: winner b", "{played:?}");
    let o = arena(&["solve", "throne", "start", "--time", "200ms"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no exact result within"),
        "{}",
        stderr(&o)
    );
}

/// A finished position solves to its result (exit 0, distance 0, no best move) in every
/// game with a solver: Throne by the default solver (proof-number search), Jumpy3 and Chaos
/// Clock by their own.
#[test]
fn solve_a_finished_position() {
    for (game, pos, value) in [
        (
            "throne",
            "....w./......./...W..../........./...w.ww.../....b..b..w/...Bbb..../...bb..../......../..w..../...... b 300 7 1 1 1",
            "win 0",
        ),
        ("jumpy3", "Ww..........w... w", "loss 0"),
        ("chaosclock", "1,2,3,4,5,0,7,8,9,0,11,12;0;12", "4"),
    ] {
        // `apply` with no move says the game is over.
        assert!(ok(&["apply", game, pos])[1].starts_with("result: winner"));
        let out = ok(&["solve", game, pos]);
        assert_eq!(out[0], format!("value: {value}"), "{game}: {out:?}");
        assert_eq!(out[1].trim_end(), "best:", "{game}: {out:?}");
    }
}

#[test]
fn solve_chaosclock_agrees_with_the_vectors() {
    for row in data("solve-chaosclock.tsv") {
        let (pos, code, best) = (&row[0], &row[1], &row[2]);
        let out = ok(&["solve", "chaosclock", pos, "--time", "10m"]);
        assert_eq!(out[0], format!("value: {code}"), "solve {pos}");
        let mut got: Vec<&str> = out[1]
            .strip_prefix("best:")
            .unwrap()
            .split_whitespace()
            .collect();
        got.sort_unstable();
        let want: Vec<&str> = best.split_whitespace().collect();
        assert_eq!(got, want, "solve {pos}");
    }
}

// ---------------------------------------------------------------------------------------
// analyse

#[test]
fn analyse_prints_a_line_per_depth() {
    for game in GAMES {
        let out = ok(&["analyse", game, "start", "--depth", "3"]);
        let depth_lines: Vec<&String> = out.iter().filter(|l| l.starts_with("depth")).collect();
        assert!(!depth_lines.is_empty(), "{game}: {out:?}");
        for l in &depth_lines {
            for field in ["score", "nodes", "nps", "time", "pv"] {
                assert!(l.contains(field), "{game}: {l}");
            }
        }
        assert!(
            depth_lines.last().unwrap().starts_with("depth  3"),
            "{game}: {out:?}"
        );
        let best = out.last().unwrap();
        let mv = best
            .strip_prefix("best ")
            .and_then(|b| b.split("  score").next())
            .unwrap_or_else(|| panic!("{game}: {out:?}"));
        let legal = ok(&["moves", game, "start"]);
        assert!(
            legal.iter().any(|m| m == mv),
            "{game}: {mv:?} not in {legal:?}"
        );
    }
    // A finished position is reported, not searched.
    let out = ok(&["analyse", "jumpy3", "B............... b", "--depth", "3"]);
    assert!(out[0].contains("result: winner w"), "{out:?}");
}

/// Before the iterations of an analysis by time, a mate search reports a forced result with
/// its exact distance, or that none is forced within the depth it reached; its line agrees
/// with the exact solver. An analysis to a fixed depth searches only to that depth.
#[test]
fn analyse_proves_forced_results_first() {
    let pos = ".B..........W... w";
    let solved = ok(&["solve", "jumpy3", pos]);
    let out = ok(&["analyse", "jumpy3", pos, "--time", "3s"]);
    let proof = out
        .iter()
        .find(|l| l.starts_with("proof"))
        .unwrap_or_else(|| panic!("no proof line: {out:?}"));
    let value = solved[0].strip_prefix("value: ").expect("a value line");
    let (kind, n) = value.split_once(' ').expect("win N or loss N");
    assert!(
        proof.starts_with(&format!("proof {kind} in {n} ")),
        "{proof} / {value}"
    );
    let pv = proof.split("pv ").nth(1).expect("a pv");
    let played = ok(&[
        &["apply", "jumpy3", pos][..],
        &pv.split(' ').collect::<Vec<_>>(),
    ]
    .concat());
    // A loss for White in 4: the line ends with Black's win.
    assert_eq!(played.last().unwrap(), "result: winner b", "{played:?}");
    // From the start nothing is forced within the first plies.
    let out = ok(&["analyse", "jumpy3", "start", "--time", "30ms"]);
    assert!(
        out.iter().any(|l| l.starts_with("proof none within depth")),
        "{out:?}"
    );
    // A fixed-depth analysis searches to that depth only.
    let out = ok(&["analyse", "jumpy3", pos, "--depth", "5"]);
    assert!(!out.iter().any(|l| l.starts_with("proof")), "{out:?}");
}

// ---------------------------------------------------------------------------------------
// match

/// Replays every game of a record file through `arena apply` and checks its result.
fn check_record(game: &str, path: &std::path::Path, games: usize) {
    let text = std::fs::read_to_string(path).expect("the record file exists");
    let mut blocks: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("# game ") {
            blocks.push((line.to_string(), Vec::new()));
        } else {
            blocks
                .last_mut()
                .expect("a header first")
                .1
                .push(line.to_string());
        }
    }
    assert_eq!(blocks.len(), games, "{text}");
    for (header, moves) in blocks {
        let fields: Vec<&str> = header.split(" | ").collect();
        let start = fields[1].strip_prefix("start: ").expect("start field");
        let result = fields[2].strip_prefix("result: ").expect("result field");
        let mut args = vec!["apply", game, start];
        args.extend(moves.iter().map(String::as_str));
        let out = ok(&args);
        assert_eq!(
            out.get(1).map(String::as_str),
            Some(format!("result: {result}").as_str()),
            "{header}"
        );
    }
}

#[test]
fn a_full_match_of_fast_games_for_every_game() {
    let dir = std::env::temp_dir().join(format!("arena-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (game, a, b, games) in [
        ("jumpy3", "engine,depth=2", "random", 4),
        ("chexers", "greedy", "random", 6),
        ("throne", "greedy", "random", 2),
        ("chaosclock", "greedy,eval=default", "random", 4),
    ] {
        let record = dir.join(format!("{game}.txt"));
        let n = games.to_string();
        let out = ok(&[
            "match",
            game,
            "--engine",
            a,
            "--engine",
            b,
            "--games",
            &n,
            "--record",
            record.to_str().unwrap(),
        ]);
        let text = out.join("\n");
        let row = |name: &str| {
            out.iter()
                .find(|l| l.split_whitespace().nth(1) == Some(name))
                .unwrap_or_else(|| panic!("{game}: no row for {name}: {text}"))
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let (ra, rb) = (row(a), row(b));
        // games, wins, draws, losses (and for Chaos Clock both-win, both-lose) add up.
        for r in [&ra, &rb] {
            let nums: Vec<u32> = r[2..r.len() - 1]
                .iter()
                .map(|x| x.parse().unwrap())
                .collect();
            assert_eq!(nums[0] as usize, games, "{game}: {text}");
            assert_eq!(
                nums[1..].iter().sum::<u32>() as usize,
                games,
                "{game}: {text}"
            );
        }
        assert!(text.contains("Elo engine 1 vs engine 2"), "{game}: {text}");
        assert_eq!(
            out.iter().filter(|l| l.starts_with("game ")).count(),
            games,
            "{text}"
        );
        check_record(game, &record, games);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn chexers_match_with_three_specs() {
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
    let text = out.join("\n");
    // Every spec plays every game (all six seat orders once).
    for name in ["greedy", "random", "random,seed=9"] {
        let row = out
            .iter()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}: {text}"));
        assert_eq!(row.split_whitespace().nth(2), Some("6"), "{text}");
    }
    for pair in [
        "engine 1 vs engine 2",
        "engine 1 vs engine 3",
        "engine 2 vs engine 3",
    ] {
        assert!(text.contains(pair), "{text}");
    }
    assert!(!text.contains("game   1/6"), "--quiet: {text}");
}

// ---------------------------------------------------------------------------------------
// The engine protocol through a pipe

#[test]
fn engine_protocol_through_a_pipe() {
    for game in GAMES {
        let input = "uci\nisready\nnewgame\nposition startpos\ngo depth 2\n";
        let o = arena_with_input(&["engine", game], input);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let out = lines(&o);
        assert!(
            out[0].starts_with(&format!("id name arena {game}")),
            "{out:?}"
        );
        assert!(out.contains(&"uciok".to_string()), "{out:?}");
        assert!(out.contains(&"readyok".to_string()), "{out:?}");
        let info: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(!info.is_empty(), "{game}: {out:?}");
        for l in info {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(words[1], "depth");
            assert_eq!(words[3], "score");
            assert_eq!(words[5], "nodes");
            assert_eq!(words[7], "nps");
            assert_eq!(words[9], "time");
        }
        let best = out
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .collect::<Vec<_>>();
        assert_eq!(best.len(), 1, "{out:?}");
        let mv = best[0].strip_prefix("bestmove ").unwrap();
        assert!(
            ok(&["moves", game, "start"]).iter().any(|m| m == mv),
            "{game}: {mv}"
        );
    }
}

#[test]
fn engine_protocol_errors_and_edge_cases() {
    let input = "\
position startpos moves 4 12
d
position fen nonsense
d
position startpos moves 4 13
d
frobnicate
go wibble
position fen B..............W w moves 16
go depth 3
position fen B..............W w
go depth 2
go infinite
stop
isready
quit
position startpos
";
    let o = arena_with_input(&["engine", "jumpy3"], input);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = lines(&o);
    let text = out.join("\n");
    // The illegal move is named and the previous position (the start) stays.
    assert!(
        out[0].starts_with("info string error: move 2 (\"12\")"),
        "{text}"
    );
    assert_eq!(out[1], "info string position Wwww........bbbB w");
    assert!(out[2].starts_with("info string error: position"), "{text}");
    assert_eq!(out[3], "info string position Wwww........bbbB w");
    // 4 then 13, by hand: White 4 -> 5; Black 13 -> 12.
    assert_eq!(out[4], "info string position Www.w......b.bbB w");
    assert_eq!(out[5], "info string error: unknown command frobnicate");
    // A `go` that cannot be read is refused, and answered (so that nobody waits for it).
    assert!(out[6].starts_with("info string error: go"), "{text}");
    assert_eq!(out[7], "bestmove none");
    // The game is over.
    assert_eq!(out[8], "bestmove none");
    // Win in one: the search finds 16.
    let bests: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bests.len(), 4, "{text}");
    assert_eq!(bests[2], "bestmove 16");
    assert!(out.contains(&"readyok".to_string()));
    // Nothing after quit.
    assert_eq!(out.last().unwrap(), "readyok", "{text}");
}

#[test]
fn engine_protocol_reads_chexers_move_lists_greedily() {
    let input = "position startpos moves MOVE -3 1 -2 0 MOVE 0 -3 0 -2\nd\n";
    let o = arena_with_input(&["engine", "chexers"], input);
    let out = lines(&o);
    let want = ok(&[
        "apply",
        "chexers",
        "start",
        "MOVE -3 1 -2 0",
        "MOVE 0 -3 0 -2",
    ]);
    assert_eq!(out, [format!("info string position {}", want[0])]);
}

// ---------------------------------------------------------------------------------------
// play through a pipe

#[test]
fn play_through_a_pipe() {
    // Bad input is answered and the prompt comes again; the end of input ends cleanly.
    let o = arena_with_input(
        &["play", "jumpy3", "--human", "w", "--depth", "2"],
        "help\nmoves\n17\nx\n12\n4\nboard\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Illegal move \"17\""), "{text}");
    assert!(text.contains("Illegal move \"x\""), "{text}");
    assert!(text.contains("Illegal move \"12\""), "{text}");
    assert!(text.contains("White (w) plays 4"), "{text}");
    assert!(text.contains("Black (b) plays"), "{text}");
    assert!(text.contains("End of input"), "{text}");
    assert!(text.matches("White (w) to move>").count() >= 6, "{text}");

    // People on both sides, to the end: White's king leaves at once.
    let o = arena_with_input(
        &[
            "play",
            "jumpy3",
            "--human",
            "all",
            "--position",
            "B..............W w",
        ],
        "16\n",
    );
    let text = stdout(&o);
    assert!(text.contains("result: winner w"), "{text}");

    // `#N` picks the N-th listed move; undo takes it back.
    let o = arena_with_input(
        &["play", "chexers", "--human", "all"],
        "#1\nundo\nmove -3 1 -2 0\nquit\n",
    );
    let text = stdout(&o);
    assert_eq!(text.matches("Red (r) plays MOVE").count(), 2, "{text}");
    assert!(text.contains("Red (r) plays MOVE -3 1 -2 0"), "{text}");
    assert_eq!(text.matches("Green (g) to move>").count(), 2, "{text}");
    assert!(text.contains("Bye."), "{text}");

    // The engine against itself, every game, to the end.
    for game in GAMES {
        let o = arena_with_input(&["play", game, "--human", "none", "--depth", "1"], "");
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        assert!(stdout(&o).contains("result: "), "{game}: {}", stdout(&o));
    }
}

#[test]
fn help_has_examples() {
    let top = ok(&["--help"]);
    // Examples made from the games: real moves of the first game, a three-player match.
    assert!(
        top.iter().any(|l| l.contains("arena match jumpy3")),
        "{top:?}"
    );
    assert!(
        top.iter()
            .any(|l| l.contains("arena apply jumpy3 start 1 13")),
        "{top:?}"
    );
    assert!(top
        .iter()
        .any(|l| l.contains("arena match chexers --engine paranoid")));
    assert!(
        top.iter().any(|l| l.starts_with("chaosclock ")),
        "the game list: {top:?}"
    );
    for sub in [
        "play", "analyse", "match", "solve", "perft", "moves", "apply", "engine",
    ] {
        let out = ok(&[sub, "--help"]);
        assert!(
            out.iter().any(|l| l.starts_with("Example")),
            "{sub}: {out:?}"
        );
    }
}

#[test]
fn bench_signature_is_pinned() {
    let want: Vec<(String, u64)> = include_str!("data/bench-signature.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (game, nodes) = l.split_once(' ').expect("GAME NODES");
            (
                game.to_string(),
                nodes.trim().parse().expect("a node count"),
            )
        })
        .collect();
    let out = ok(&["bench"]);
    let got: Vec<(String, u64)> = out
        .iter()
        .filter(|l| l.contains(" positions  nodes "))
        .map(|l| {
            let game = l.split_whitespace().next().unwrap().to_string();
            let nodes = l
                .split("nodes ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            (game, nodes.parse().unwrap())
        })
        .collect();
    assert_eq!(
        got, want,
        "the search's signature changed: if that is meant, pin the new counts in \
         crates/arena/tests/data/bench-signature.txt"
    );
    let total: u64 = want.iter().map(|(_, n)| n).sum();
    assert!(out.contains(&format!("signature  {total}")), "{out:?}");
    // A game by name, with two threads: every position searched.
    let two = ok(&["bench", "throne", "--threads", "2"]);
    assert_eq!(
        two.iter().filter(|l| l.starts_with("throne ")).count(),
        5,
        "{two:?}"
    );
    bad(&["bench", "chess"], &["invalid value 'chess'"]);
}

/// How the threads share the search, for a game by name: a line per thread count, the one
/// thread first, every one with the values of one thread; max^n (Chaos Clock) searches
/// nearly the same nodes at every thread count (its table of score vectors makes the count
/// depend a little on the threads' timing).
#[test]
fn bench_scaling_measures_the_threads() {
    let out = ok(&["bench", "chaosclock", "--scaling"]);
    let lines: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("chaosclock "))
        .collect();
    let threads: Vec<&str> = lines
        .iter()
        .map(|l| {
            l.split("threads")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(threads, ["1", "2", "4", "8", "16"], "{out:?}");
    assert!(lines.iter().all(|l| l.contains("values same")), "{out:?}");
    let overheads: Vec<f64> = lines
        .iter()
        .map(|l| {
            let x = l.split('(').nth(1).unwrap().split('x').next().unwrap();
            x.parse().unwrap()
        })
        .collect();
    assert_eq!(overheads[0], 1.0, "{out:?}");
    assert!(
        overheads.iter().all(|&o| (0.9..=1.1).contains(&o)),
        "{out:?}"
    );
    bad(
        &["bench", "chaosclock", "--scaling", "--threads", "2"],
        &["cannot be used with"],
    );
    bad(&["bench", "--deeper", "2"], &["--scaling"]);
}

#[test]
fn messages_start_with_the_program_s_own_name() {
    // A user's program with its game in it is called by its own name: so are its messages.
    let dir = std::env::temp_dir().join(format!("arena-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let own = dir.join("my-game-arena");
    std::fs::copy(env!("CARGO_BIN_EXE_arena"), &own).unwrap();
    let o = std::process::Command::new(&own)
        .args(["apply", "jumpy3", "start", "9"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.starts_with("my-game-arena: "), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
