//! The boards for pictures (`plyforge::view`): every game's cells with their notation
//! coordinates, and for every legal move of random games the spots it leaves and reaches,
//! checked against the position after the move.

use std::collections::{BTreeMap, HashSet};

use plyforge::search::rng::XorShift64Star;
use plyforge::view::{self, Board, Mark, Role, Shape, Symbol};
use plyforge::{GameKind, State};

/// How many pieces of each (player, name, symbol) stand on a spot.
fn census(board: &Board, spot: &str) -> BTreeMap<(usize, &'static str, Symbol), usize> {
    let mut out = BTreeMap::new();
    for p in board.pieces.iter().filter(|p| p.spot == spot) {
        *out.entry((p.player, p.name, p.symbol.clone())).or_insert(0) += 1;
    }
    out
}

fn cells(board: &Board) -> Vec<&str> {
    board
        .spots
        .iter()
        .filter(|s| s.role == Role::Cell)
        .map(|s| s.id.as_str())
        .collect()
}

#[test]
fn every_board_has_its_cells_with_their_coordinates() {
    for kind in GameKind::all() {
        let board = view::board(&kind.new_game()).unwrap();
        let ids: HashSet<&str> = board.spots.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids.len(), board.spots.len(), "{kind}: spot ids are unique");
        assert_eq!(board.players.len(), kind.players());
        for piece in &board.pieces {
            assert!(ids.contains(piece.spot.as_str()), "{kind}: {piece:?}");
        }
        let cells = cells(&board);
        match kind.name() {
            "jumpy3" => {
                let want: Vec<String> = (1..=16).map(|n| n.to_string()).collect();
                assert_eq!(cells, want);
            }
            "chaosclock" => {
                let want: Vec<String> = (1..=12).map(|n| n.to_string()).collect();
                assert_eq!(cells, want);
                // Twelve pieces, on the board or in hand.
                assert_eq!(board.pieces.len(), 12);
            }
            "chexers" | "throne" => {
                let radius: i32 = if kind.name() == "chexers" { 3 } else { 5 };
                let mut want = Vec::new();
                for r in -radius..=radius {
                    for q in -radius..=radius {
                        if (q + r).abs() <= radius {
                            want.push(format!("{q},{r}"));
                        }
                    }
                }
                assert_eq!(cells, want, "{kind}: the notation's order of rows");
                // Neighbours in the notation are neighbours in the picture: every cell's
                // centre is √3 from the centres of (q+1, r) and (q, r+1).
                let at: BTreeMap<&str, (f64, f64)> = board
                    .spots
                    .iter()
                    .map(|s| (s.id.as_str(), s.shape.centre()))
                    .collect();
                for s in board.spots.iter().filter(|s| s.role == Role::Cell) {
                    let (q, r) = s.id.split_once(',').unwrap();
                    let (q, r): (i32, i32) = (q.parse().unwrap(), r.parse().unwrap());
                    for n in [format!("{},{r}", q + 1), format!("{q},{}", r + 1)] {
                        if let Some(&(x, y)) = at.get(n.as_str()) {
                            let (x0, y0) = s.shape.centre();
                            let d = ((x - x0).powi(2) + (y - y0).powi(2)).sqrt();
                            assert!((d - 3f64.sqrt()).abs() < 1e-9, "{kind} {} {n}", s.id);
                        }
                    }
                    assert!(matches!(s.shape, Shape::Hex { r, .. } if (r - 1.0).abs() < 1e-9));
                }
            }
            other => panic!("a game this test does not know: {other}"),
        }
        if kind.name() == "chexers" {
            // Four exit hexes per player, on the rules' edges, and an exit band each.
            for p in 0..3 {
                let exits: Vec<&str> = board
                    .spots
                    .iter()
                    .filter(|s| s.marks.contains(&Mark::ExitFor(p)))
                    .map(|s| s.id.as_str())
                    .collect();
                let want = [
                    ["3,-3", "3,-2", "3,-1", "3,0"],
                    ["-3,3", "-2,3", "-1,3", "0,3"],
                    ["0,-3", "-1,-2", "-2,-1", "-3,0"],
                ][p];
                assert_eq!(exits, want, "player {p}");
                assert!(board.spots.iter().any(|s| s.role == Role::Off(p)));
            }
        }
        if kind.name() == "throne" {
            let mut by_grade = [0; 7];
            for s in &board.spots {
                by_grade[s.grade as usize] += 1;
            }
            assert_eq!(by_grade, [0, 30, 24, 18, 12, 6, 1]);
            let throne: Vec<&str> = board
                .spots
                .iter()
                .filter(|s| s.marks.contains(&Mark::Goal))
                .map(|s| s.id.as_str())
                .collect();
            assert_eq!(throne, ["0,0"]);
            assert_eq!(board.pieces.len(), 14);
        }
    }
}

/// The move's notation names the cells the view gives (Chexers `MOVE q1 r1 q2 r2`, Throne
/// `q,r>q,r`, Jumpy3 the square of the piece that moves).
fn check_notation(kind: GameKind, m: &view::MoveSpots) {
    let (from, to) = (m.from.as_deref(), m.to.as_deref());
    match kind.name() {
        "jumpy3" => assert_eq!(from, Some(m.text.as_str())),
        "chexers" => {
            let w: Vec<&str> = m.text.split(' ').collect();
            match w[0] {
                "MOVE" | "JUMP" => {
                    assert_eq!(from, Some(format!("{},{}", w[1], w[2]).as_str()));
                    assert_eq!(to, Some(format!("{},{}", w[3], w[4]).as_str()));
                }
                "EXIT" => assert_eq!(from, Some(format!("{},{}", w[1], w[2]).as_str())),
                _ => assert_eq!((from, to), (None, None)),
            }
        }
        "throne" => match m.text.split_once('>') {
            Some((a, b)) => assert_eq!((from, to), (Some(a), Some(b))),
            None => assert_eq!((from, to), (None, None)),
        },
        "chaosclock" => {
            if let Some(n) = m.text.strip_prefix('p').filter(|n| n.parse::<u8>().is_ok()) {
                assert_eq!(to, Some(n), "a piece is placed on its home");
            }
        }
        other => panic!("a game this test does not know: {other}"),
    }
}

/// Plays random games; at every position every legal move's spots exist, and the position
/// after the move agrees with them: one piece that stood on `from` now stands on `to`.
fn random_games(kind: GameKind, starts: &[State], games: usize, max_plies: usize) -> usize {
    let mut rng = XorShift64Star::seeded(0x5eed ^ kind.players() as u64);
    let mut checked = 0;
    for g in 0..games {
        let mut state = starts[g % starts.len()].clone();
        for _ in 0..max_plies {
            let board = view::board(&state).unwrap();
            let ids: HashSet<&str> = board.spots.iter().map(|s| s.id.as_str()).collect();
            let legal = state.legal_moves();
            let texts: Vec<&str> = board.moves.iter().map(|m| m.text.as_str()).collect();
            assert_eq!(texts, legal, "{kind}: the view's moves are the legal moves");
            if legal.is_empty() {
                break;
            }
            for (i, m) in board.moves.iter().enumerate() {
                check_notation(kind, m);
                let (Some(from), Some(to)) = (m.from.as_deref(), m.to.as_deref()) else {
                    assert!(m.from.is_none() && m.to.is_none(), "{kind} {m:?}");
                    assert!(m.text.eq_ignore_ascii_case("pass"), "{kind} {m:?}");
                    continue;
                };
                assert!(ids.contains(from) && ids.contains(to), "{kind} {m:?}");
                assert_ne!(from, to, "{kind} {m:?}");
                let mut next = state.clone();
                next.play_index(i).unwrap();
                let after = view::board(&next).unwrap();
                assert_eq!(
                    after.last.as_ref(),
                    Some(m),
                    "{kind}: the last move's spots"
                );
                let (from0, to0) = (census(&board, from), census(&board, to));
                let (from1, to1) = (census(&after, from), census(&after, to));
                let moved = from0.keys().any(|piece| {
                    let n = |c: &BTreeMap<_, usize>| c.get(piece).copied().unwrap_or(0);
                    n(&from1) + 1 == n(&from0) && n(&to1) == n(&to0) + 1
                });
                assert!(
                    moved,
                    "{kind} {} at {}: {from} {from0:?} -> {from1:?}, {to} {to0:?} -> {to1:?}",
                    m.text,
                    state.position()
                );
                checked += 1;
            }
            let pick = rng.below(legal.len());
            state.play_index(pick).unwrap();
        }
    }
    checked
}

#[test]
fn every_legal_move_of_random_games_leaves_from_and_reaches_to() {
    for kind in GameKind::all() {
        let mut starts = vec![kind.new_game()];
        if kind.name() == "chaosclock" {
            starts.extend((1..8).map(|s| kind.game_from(&format!("random:{s}")).unwrap()));
        }
        let checked = random_games(kind, &starts, 24, 160);
        assert!(checked > 2000, "{kind}: only {checked} moves checked");
    }
}

#[test]
fn the_last_move_is_none_at_the_start_and_facts_name_the_players() {
    for kind in GameKind::all() {
        let board = view::board(&kind.new_game()).unwrap();
        assert!(board.last.is_none());
        for p in &board.players {
            assert!(p.colour.starts_with('#'), "{kind}: {p:?}");
        }
        assert!(!board.facts.is_empty(), "{kind}");
        assert!(!board.moves.is_empty(), "{kind}");
    }
}
