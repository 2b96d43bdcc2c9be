//! The rules against a second, plain implementation (a grid of cells), perft counts pinned in
//! `tests/data/perft.txt`, the notation's examples, and the conformance checks of
//! `plyforge-search`.

use connect_four::search::conformance::{check_evaluator, random_play, RandomPlay, Shape};
use connect_four::search::{perft, Game, Outcome, Record};
use connect_four::{
    DefaultEval, Move, ParseMoveError, ParsePositionError, Position, COLUMNS, ROWS, X,
};
use plyforge_search::SideToMove;

/// Connect Four written plainly: `grid[column][row]`, 0 empty, 1 `x`, 2 `o`.
#[derive(Clone)]
struct Plain {
    grid: [[u8; ROWS]; COLUMNS],
    to_move: u8,
    won: bool,
    stones: usize,
}

impl Plain {
    fn new() -> Plain {
        Plain {
            grid: [[0; ROWS]; COLUMNS],
            to_move: 1,
            won: false,
            stones: 0,
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.won || self.stones == ROWS * COLUMNS {
            return Vec::new();
        }
        (0..COLUMNS)
            .filter(|&c| self.grid[c][ROWS - 1] == 0)
            .collect()
    }

    fn play(&mut self, c: usize) {
        let r = (0..ROWS).find(|&r| self.grid[c][r] == 0).unwrap();
        self.grid[c][r] = self.to_move;
        self.stones += 1;
        for (dc, dr) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut cc, mut rr) = (c as i32 + sign * dc, r as i32 + sign * dr);
                while (0..COLUMNS as i32).contains(&cc)
                    && (0..ROWS as i32).contains(&rr)
                    && self.grid[cc as usize][rr as usize] == self.to_move
                {
                    run += 1;
                    cc += sign * dc;
                    rr += sign * dr;
                }
            }
            self.won |= run >= 4;
        }
        self.to_move = 3 - self.to_move;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|c| {
                let mut next = self.clone();
                next.play(c);
                next.perft(depth - 1)
            })
            .sum()
    }

    fn text(&self) -> String {
        let rows: Vec<String> = (0..ROWS)
            .rev()
            .map(|r| {
                (0..COLUMNS)
                    .map(|c| ['.', 'x', 'o'][self.grid[c][r] as usize])
                    .collect()
            })
            .collect();
        format!(
            "{} {}",
            rows.join("/"),
            ['.', 'x', 'o'][self.to_move as usize]
        )
    }
}

/// The pinned counts: `position;depth;count`.
fn perft_data() -> Vec<(Position, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            (
                f[0].parse().unwrap_or_else(|e| panic!("{}: {e}", f[0])),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_counts_are_the_pinned_ones() {
    let data = perft_data();
    assert!(data.len() >= 20);
    for (p, depth, count) in data {
        assert_eq!(perft(&p, depth), count, "{p} depth {depth}");
    }
}

#[test]
fn the_pinned_counts_agree_with_the_plain_rules() {
    // The plain generator from the same positions (replayed from their text), to depth 6.
    for (p, depth, count) in perft_data().into_iter().filter(|d| d.1 <= 6) {
        let plain = replay(&p);
        assert_eq!(plain.text(), p.to_string());
        assert_eq!(plain.perft(depth), count, "{p} depth {depth}");
    }
}

/// The plain board with the same stones and player to move (for positions not over).
fn replay(p: &Position) -> Plain {
    let mut plain = Plain::new();
    for c in 0..COLUMNS {
        for r in 0..ROWS {
            if let Some(who) = p.cell(c, r) {
                plain.grid[c][r] = who as u8 + 1;
                plain.stones += 1;
            }
        }
    }
    plain.to_move = p.to_move() as u8 + 1;
    assert!(p.outcome().is_none());
    plain
}

#[test]
fn random_games_agree_with_the_plain_rules() {
    let mut rng = plyforge_search::rng::XorShift64Star::seeded(11);
    let (mut wins, mut draws) = (0, 0);
    for _ in 0..3000 {
        let mut p = Position::start();
        let mut plain = Plain::new();
        loop {
            let mut ours: Vec<usize> = p.moves().iter().map(|m| m.index()).collect();
            ours.sort_unstable();
            assert_eq!(ours, plain.moves(), "{p}");
            assert_eq!(p.to_string(), plain.text());
            match p.outcome() {
                Some(Outcome::Win(w)) => {
                    assert!(plain.won);
                    assert_eq!(w as u8 + 1, 3 - plain.to_move);
                    wins += 1;
                    break;
                }
                Some(_) => {
                    assert!(!plain.won);
                    draws += 1;
                    break;
                }
                None => assert!(!plain.won),
            }
            let c = ours[rng.below(ours.len())];
            p.play(Move::new(c as u8 + 1).unwrap());
            plain.play(c);
        }
    }
    assert!(wins > 2500 && draws > 0, "{wins} wins, {draws} draws");
}

#[test]
fn conformance_random_play() {
    let stats = random_play(|_| Position::start(), &RandomPlay::new(2000, 29), |_, _| {});
    assert_eq!(stats.games, 2000);
    assert!(stats.count(Outcome::Win(0)) > 0 && stats.count(Outcome::Win(1)) > 0);
    assert!(stats.plies > 2000 * 7);
}

#[test]
fn the_evaluation_passes_the_check() {
    let (shape, stats) = check_evaluator(
        |_| Position::start(),
        &SideToMove(DefaultEval),
        &RandomPlay::new(500, 3),
    );
    assert_eq!((shape, stats.games), (Shape::ZeroSum, 500));
}

#[test]
fn moves_refused_with_the_reason() {
    let full: Position = "...x.../...o.../...x.../...o.../...x.../...o... x"
        .parse()
        .unwrap();
    let four = Move::new(4).unwrap();
    assert!(!full.moves().contains(&four));
    assert_eq!(full.why_illegal(four).unwrap().reason(), "column 4 is full");
    let mut r = Record::new(full);
    assert!(r.play(four).is_err());
    assert!(r.play(Move::new(3).unwrap()).is_ok());
    let won: Position = "......./......./......./......./ooo..../xxxx... o"
        .parse()
        .unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(X)));
    assert_eq!(
        won.why_illegal(Move::new(5).unwrap()).unwrap().reason(),
        "the game is over: x has won"
    );
}

#[test]
fn the_notation_examples() {
    for text in include_str!("data/positions-valid.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let p: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_string(), text);
        assert_eq!(p.key(), p.recompute_key());
    }
    use ParsePositionError::*;
    let bad: [(&str, ParsePositionError); 10] = [
        ("", Fields { found: 0 }),
        ("start", Fields { found: 1 }),
        (
            "......./......./......./......./....... x",
            Rows { found: 5 },
        ),
        (
            "......./......./......./......./......./...... x",
            RowLength { row: 1, found: 6 },
        ),
        (
            "......./......./......./......./......./..y.... x",
            Cell {
                row: 1,
                column: 3,
                found: 'y',
            },
        ),
        (
            "......./......./......./......./..x..../....... o",
            Floating { row: 2, column: 3 },
        ),
        (
            "......./......./......./......./......./...x... z",
            Side { found: "z".into() },
        ),
        (
            "......./......./......./......./......./...o... x",
            Counts { x: 0, o: 1 },
        ),
        (
            "......./......./......./......./......./...x... x",
            SideToMove {
                expected: 'o',
                found: 'x',
            },
        ),
        (
            "......./......./......./......./o....../oooxxxx x",
            Won { player: 'x' },
        ),
    ];
    for (text, want) in bad {
        let got = text.parse::<Position>().unwrap_err();
        assert!(!got.to_string().is_empty());
        assert_eq!(got, want, "{text:?}");
    }
    assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
    assert_eq!(
        "a".parse::<Move>(),
        Err(ParseMoveError::NotANumber("a".into()))
    );
    assert_eq!("0".parse::<Move>(), Err(ParseMoveError::NoSuchColumn(0)));
    assert_eq!(
        "99999999999".parse::<Move>(),
        Err(ParseMoveError::NoSuchColumn(99_999_999_999))
    );
    assert_eq!(" 7 ".parse::<Move>(), Ok(Move::new(7).unwrap()));
}
