//! Perft counts pinned in `tests/data/perft.txt`, cross-checked against an independent
//! implementation of the sheet's array procedure (with its `flip` for Black) and the vectors.

use plyforge_jumpy3::search::{perft, perft_divide, Game, MoveList};
use plyforge_jumpy3::Position;

const PERFT: &str = include_str!("data/perft.txt");
const VECTORS: &str = include_str!("data/jumpy3-moves.jsonl");

/// The sheet's procedure, literally: White's moves on an array of letters.
fn white_moves(p: &[u8; 16]) -> Vec<[u8; 16]> {
    let mut out = Vec::new();
    for i in 0..16 {
        if p[i] != b'w' && p[i] != b'W' {
            continue;
        }
        let mut q = *p;
        if i == 15 {
            q[i] = b'x';
        } else if q[i + 1] == b'x' {
            q[i + 1] = q[i];
            q[i] = b'x';
        } else {
            match (i + 1..16).find(|&j| q[j] == b'x') {
                None => q[i] = b'x',
                Some(j) => {
                    q[j] = q[i];
                    q[i] = b'x';
                    if j - i == 2 && (q[i + 1] == b'b' || q[i + 1] == b'B') {
                        let k = (0..16).rev().find(|&k| q[k] == b'x').expect("i is empty");
                        q[k] = q[i + 1];
                        q[i + 1] = b'x';
                    }
                }
            }
        }
        out.push(q);
    }
    out
}

fn flip(p: &[u8; 16]) -> [u8; 16] {
    let mut q = [b'x'; 16];
    for i in 0..16 {
        q[15 - i] = match p[i] {
            b'w' => b'b',
            b'W' => b'B',
            b'b' => b'w',
            b'B' => b'W',
            c => c,
        };
    }
    q
}

fn over(p: &[u8; 16]) -> bool {
    !p.contains(&b'W') || !p.contains(&b'B')
}

/// Perft on arrays: `white` says whose turn it is.
fn array_perft(p: &[u8; 16], white: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if over(p) {
        return 0;
    }
    let children: Vec<[u8; 16]> = if white {
        white_moves(p)
    } else {
        white_moves(&flip(p)).iter().map(flip).collect()
    };
    children
        .iter()
        .map(|c| array_perft(c, !white, depth - 1))
        .sum()
}

fn entries() -> Vec<(Position, u32, u64)> {
    PERFT
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_file_matches_the_generator() {
    let e = entries();
    assert!(e.len() >= 40);
    for (p, d, n) in e {
        assert_eq!(perft(&p, d), n, "{p} depth {d}");
    }
}

#[test]
fn perft_agrees_with_the_sheets_array_procedure() {
    for (p, d, n) in entries() {
        if d > 6 {
            continue;
        }
        let text = p.to_string();
        let mut board = [b'x'; 16];
        for (i, c) in text.bytes().take(16).enumerate() {
            board[i] = if c == b'.' { b'x' } else { c };
        }
        assert_eq!(array_perft(&board, p.to_move() == 0, d), n, "{p} depth {d}");
    }
}

#[test]
fn perft_agrees_with_the_vectors() {
    for line in VECTORS.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let p: Position = v["pos"].as_str().unwrap().parse().unwrap();
        let moves = v["moves"].as_object().unwrap();
        assert_eq!(perft(&p, 1), moves.len() as u64);
        // Depth 2: the moves of every child that goes on.
        let depth2: u64 = moves
            .values()
            .filter_map(|r| r.as_str().unwrap().parse::<Position>().ok())
            .map(|c| {
                let mut m = MoveList::new();
                c.legal_moves(&mut m);
                m.len() as u64
            })
            .sum();
        assert_eq!(perft(&p, 2), depth2, "{p}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let p: Position = "wbB......wW...bb b".parse().unwrap();
    let d = perft_divide(&p, 5);
    assert_eq!(d.len(), 4);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), perft(&p, 5));
}
