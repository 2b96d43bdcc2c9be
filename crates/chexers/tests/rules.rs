//! Every rule of the crate's README ("The game" and its rulings) on hand-built positions.

use plyforge_chexers::search::{DrawKind, Game, MoveList, Outcome, Record};
use plyforge_chexers::{Hex, Move, Position};

/// Builds a position from pieces `(q, r, colour letter)`.
fn pos(pieces: &[(i8, i8, char)], to_move: char, exits: [u32; 3], turns: u32) -> Position {
    let mut rows = Vec::new();
    for r in -3i8..=3 {
        let mut row = String::new();
        for q in -3i8..=3 {
            if Hex::new(q, r).is_none() {
                continue;
            }
            let c = pieces
                .iter()
                .find(|&&(pq, pr, _)| (pq, pr) == (q, r))
                .map_or('.', |p| p.2);
            row.push(c);
        }
        rows.push(row);
    }
    let text = format!(
        "{} {} {},{},{} {}",
        rows.join("/"),
        to_move,
        exits[0],
        exits[1],
        exits[2],
        turns
    );
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(Move::to_string).collect();
    out.sort();
    out
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn h(q: i8, r: i8) -> Hex {
    Hex::new(q, r).unwrap()
}

#[test]
fn start_position_and_turn_order() {
    let start = Position::start();
    assert_eq!(
        start.to_string(),
        "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 0"
    );
    assert_eq!(start.to_move(), 0);
    assert_eq!(start.players(), 3);
    for (q, r) in [(-3, 0), (-3, 1), (-3, 2), (-3, 3)] {
        assert_eq!(start.piece_at(h(q, r)), Some(0));
    }
    for (q, r) in [(0, -3), (1, -3), (2, -3), (3, -3)] {
        assert_eq!(start.piece_at(h(q, r)), Some(1));
    }
    for (q, r) in [(3, 0), (2, 1), (1, 2), (0, 3)] {
        assert_eq!(start.piece_at(h(q, r)), Some(2));
    }
    // Red, Green, Blue, Red, ...
    let mut p = start;
    let mut order = Vec::new();
    for _ in 0..6 {
        order.push(p.to_move());
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        p.play(moves[0]);
    }
    assert_eq!(order, vec![0, 1, 2, 0, 1, 2]);
    assert_eq!(p.turns(), 6);
}

#[test]
fn move_steps_to_any_adjacent_empty_hex() {
    let p = pos(&[(0, 0, 'r')], 'r', [0, 0, 0], 0);
    assert_eq!(
        legal(&p),
        vec![
            "MOVE 0 0 -1 0",
            "MOVE 0 0 -1 1",
            "MOVE 0 0 0 -1",
            "MOVE 0 0 0 1",
            "MOVE 0 0 1 -1",
            "MOVE 0 0 1 0"
        ]
    );
    // A corner hex has three neighbours on the board.
    let p = pos(&[(-3, 0, 'r')], 'r', [0, 0, 0], 0);
    assert_eq!(
        legal(&p),
        vec!["MOVE -3 0 -2 -1", "MOVE -3 0 -2 0", "MOVE -3 0 -3 1"]
    );
    let mut after = p.clone();
    after.play(mv("MOVE -3 0 -2 0"));
    assert_eq!(after.piece_at(h(-3, 0)), None);
    assert_eq!(after.piece_at(h(-2, 0)), Some(0));
    assert_eq!(after.to_move(), 1);
    // Not onto an occupied hex, not two hexes away.
    let p = pos(&[(0, 0, 'r'), (1, 0, 'g'), (2, 0, 'b')], 'r', [0, 0, 0], 0);
    assert!(p.why_illegal(mv("MOVE 0 0 1 0")).is_some());
    let why = p.why_illegal(mv("MOVE 0 0 0 2")).unwrap();
    assert!(why.reason().contains("not adjacent"), "{why}");
}

#[test]
fn jump_over_own_piece_does_not_convert() {
    let p = pos(&[(0, 0, 'r'), (1, 0, 'r')], 'r', [0, 0, 0], 0);
    let moves = legal(&p);
    assert!(moves.contains(&"JUMP 0 0 2 0".to_string()));
    assert!(!moves.contains(&"MOVE 0 0 1 0".to_string()));
    let mut q = p.clone();
    q.play(mv("JUMP 0 0 2 0"));
    assert_eq!(q.pieces(0).count_ones(), 2);
    assert_eq!(q.piece_at(h(1, 0)), Some(0));
    assert_eq!(q.piece_at(h(2, 0)), Some(0));
    assert_eq!(q.piece_at(h(0, 0)), None);
}

#[test]
fn jump_over_another_colour_converts_it() {
    let p = pos(&[(0, 0, 'r'), (1, 0, 'g'), (0, 1, 'b')], 'r', [0, 0, 0], 0);
    let moves = legal(&p);
    assert!(moves.contains(&"JUMP 0 0 2 0".to_string()));
    assert!(moves.contains(&"JUMP 0 0 0 2".to_string()));
    let mut q = p.clone();
    q.play(mv("JUMP 0 0 2 0"));
    assert_eq!(q.piece_at(h(1, 0)), Some(0), "green piece converted to red");
    assert_eq!(q.pieces(1), 0);
    assert_eq!(q.pieces(0).count_ones(), 2);
    assert_eq!(
        q.to_string(),
        "..../...../....../....rr./...b../...../.... g 0,0,0 1"
    );
    assert_eq!(q.key(), q.recompute_key());
    let mut q = p.clone();
    q.play(mv("JUMP 0 0 0 2"));
    assert_eq!(q.piece_at(h(0, 1)), Some(0), "blue piece converted to red");
    assert_eq!(q.pieces(2), 0);
}

#[test]
fn jump_needs_an_empty_landing_on_the_board_and_goes_over_one_piece_only() {
    // Landing occupied.
    let p = pos(&[(0, 0, 'r'), (1, 0, 'g'), (2, 0, 'b')], 'r', [0, 0, 0], 0);
    assert!(!legal(&p).contains(&"JUMP 0 0 2 0".to_string()));
    let why = p.why_illegal(mv("JUMP 0 0 2 0")).unwrap();
    assert!(why.reason().contains("occupied"), "{why}");
    // Landing off the board: no jumping off.
    let p = pos(&[(2, 0, 'r'), (3, 0, 'g')], 'r', [0, 0, 0], 0);
    assert!(legal(&p).iter().all(|m| !m.starts_with("JUMP")));
    // A "jump" over an empty hex is not a move of two.
    let p = pos(&[(0, 0, 'r')], 'r', [0, 0, 0], 0);
    let why = p.why_illegal(mv("JUMP 0 0 2 0")).unwrap();
    assert!(why.reason().contains("no piece on (1, 0)"), "{why}");
    // No chains: a second jump is a second turn; exactly one piece converts per jump.
    let p = pos(
        &[(-2, 0, 'r'), (-1, 0, 'g'), (1, 0, 'g'), (1, -1, 'b')],
        'r',
        [0, 0, 0],
        0,
    );
    let mut q = p.clone();
    q.play(mv("JUMP -2 0 0 0"));
    assert_eq!(q.piece_at(h(1, 0)), Some(1));
    assert_eq!(q.to_move(), 1);
    let why = p.why_illegal(mv("JUMP -2 0 2 0")).unwrap();
    assert!(why.reason().contains("two hexes"), "{why}");
    // Not along a line.
    let why = p.why_illegal(mv("JUMP -2 0 -1 1")).unwrap();
    assert!(why.reason().contains("straight line"), "{why}");
}

#[test]
fn exit_only_from_own_exit_hexes() {
    // Red exits from q = 3, Green from r = 3, Blue from s = 3.
    let p = pos(
        &[
            (3, -1, 'r'),
            (0, -3, 'r'),
            (-1, 3, 'g'),
            (3, -3, 'g'),
            (-2, -1, 'b'),
            (0, 3, 'b'),
        ],
        'r',
        [0, 0, 0],
        0,
    );
    let exits = |p: &Position| -> Vec<String> {
        legal(p)
            .into_iter()
            .filter(|m| m.starts_with("EXIT"))
            .collect()
    };
    assert_eq!(exits(&p), vec!["EXIT 3 -1"]);
    let g = pos(
        &[
            (3, -1, 'r'),
            (0, -3, 'r'),
            (-1, 3, 'g'),
            (3, -3, 'g'),
            (-2, -1, 'b'),
            (0, 3, 'b'),
        ],
        'g',
        [0, 0, 0],
        1,
    );
    assert_eq!(exits(&g), vec!["EXIT -1 3"]);
    let b = pos(
        &[
            (3, -1, 'r'),
            (0, -3, 'r'),
            (-1, 3, 'g'),
            (3, -3, 'g'),
            (-2, -1, 'b'),
            (0, 3, 'b'),
        ],
        'b',
        [0, 0, 0],
        2,
    );
    assert_eq!(exits(&b), vec!["EXIT -2 -1"]);
    let why = p.why_illegal(mv("EXIT 0 -3")).unwrap();
    assert!(why.reason().contains("not an exit hex of red"), "{why}");
    let why = p.why_illegal(mv("EXIT -1 3")).unwrap();
    assert!(why.reason().contains("holds no piece of red"), "{why}");
    // Exiting removes the piece and counts.
    let mut q = p.clone();
    q.play(mv("EXIT 3 -1"));
    assert_eq!(q.piece_at(h(3, -1)), None);
    assert_eq!(q.exits(0), 1);
    assert!(q.to_string().ends_with(" g 1,0,0 1"), "{q}");
}

#[test]
fn pass_only_when_nothing_else_and_then_forced() {
    // No pieces: a forced pass.
    let p = pos(&[(0, 0, 'g')], 'r', [0, 0, 0], 0);
    assert_eq!(legal(&p), vec!["PASS"]);
    let mut q = p.clone();
    q.play(Move::Pass);
    assert_eq!(q.to_move(), 1);
    assert_eq!(q.turns(), 1);
    // Blocked in a corner: every neighbour taken and every landing taken or off the board.
    let p = pos(
        &[
            (-3, 0, 'r'),
            (-2, -1, 'g'),
            (-2, 0, 'g'),
            (-3, 1, 'b'),
            (-1, -2, 'b'),
            (-1, 0, 'b'),
            (-3, 2, 'g'),
        ],
        'r',
        [0, 0, 0],
        0,
    );
    assert_eq!(legal(&p), vec!["PASS"]);
    assert_eq!(p.why_illegal(Move::Pass), None);
    // With any other action, PASS is illegal.
    let p = pos(&[(0, 0, 'r')], 'r', [0, 0, 0], 0);
    let why = p.why_illegal(Move::Pass).unwrap();
    assert!(
        why.reason()
            .contains("only allowed when red has no other action"),
        "{why}"
    );
}

#[test]
fn four_exits_win_at_once() {
    let p = pos(&[(3, 0, 'r'), (0, 0, 'g'), (1, 1, 'b')], 'r', [3, 2, 2], 9);
    assert_eq!(p.outcome(), None);
    let mut q = p.clone();
    q.play(mv("EXIT 3 0"));
    assert_eq!(q.exits(0), 4);
    assert_eq!(q.outcome(), Some(Outcome::Win(0)));
    let mut moves = MoveList::new();
    q.legal_moves(&mut moves);
    assert!(moves.is_empty(), "no actions once the game is over");
    let mut rec = Record::new(p);
    assert_eq!(rec.play(mv("EXIT 3 0")), Ok(Some(Outcome::Win(0))));
    // Four pieces in position are not enough: the exits must be made.
    let p = pos(
        &[(3, 0, 'r'), (3, -1, 'r'), (3, -2, 'r'), (3, -3, 'r')],
        'g',
        [0, 0, 0],
        1,
    );
    assert_eq!(p.outcome(), None);
}

#[test]
fn turn_limit_draws_after_768_turns() {
    let p = pos(
        &[(0, 0, 'r'), (0, -2, 'g'), (0, 2, 'b')],
        'g',
        [0, 0, 0],
        766,
    );
    let mut rec = Record::new(p);
    assert_eq!(rec.play(mv("MOVE 0 -2 0 -1")), Ok(None));
    assert_eq!(rec.position().turns(), 767);
    assert_eq!(
        rec.play(mv("MOVE 0 2 1 1")),
        Ok(Some(Outcome::Draw(DrawKind::TurnLimit)))
    );
    assert_eq!(rec.position().turns(), 768);
    assert_eq!(
        rec.play(mv("MOVE 0 0 1 0")),
        Err(plyforge_chexers::search::PlayError::GameOver(
            Outcome::Draw(DrawKind::TurnLimit)
        ))
    );
}

#[test]
fn turn_limit_draw_overrides_a_fourth_exit_on_the_same_action() {
    // Turn 767 is Blue's; Blue's 4th exit lands on the 768th turn: the referee reports a draw.
    let p = pos(&[(-3, 0, 'b'), (0, 0, 'r')], 'b', [1, 0, 3], 767);
    let mut q = p.clone();
    q.play(mv("EXIT -3 0"));
    assert_eq!(q.exits(2), 4);
    assert_eq!(q.outcome(), Some(Outcome::Draw(DrawKind::TurnLimit)));
    let mut rec = Record::new(p);
    assert_eq!(
        rec.play(mv("EXIT -3 0")),
        Ok(Some(Outcome::Draw(DrawKind::TurnLimit)))
    );
    // One turn earlier the 4th exit wins.
    let p = pos(&[(-3, 0, 'b'), (0, 0, 'r')], 'b', [1, 0, 3], 764);
    let mut rec = Record::new(p);
    assert_eq!(rec.play(mv("EXIT -3 0")), Ok(Some(Outcome::Win(2))));
}

/// Each player steps out and back: the start board with Red to move recurs every 6 turns.
const SHUFFLE: [&str; 6] = [
    "MOVE -3 0 -2 0",
    "MOVE 0 -3 0 -2",
    "MOVE 3 0 2 0",
    "MOVE -2 0 -3 0",
    "MOVE 0 -2 0 -3",
    "MOVE 2 0 3 0",
];

#[test]
fn fourth_occurrence_draws_counting_the_start_once() {
    let mut rec = Record::new(Position::start());
    for turn in 0..18 {
        let r = rec.play(mv(SHUFFLE[turn % 6])).unwrap();
        if turn < 17 {
            assert_eq!(r, None, "turn {turn}");
        } else {
            // Start, after 6, after 12, after 18 turns: the 4th occurrence.
            assert_eq!(r, Some(Outcome::Draw(DrawKind::Repetition)));
        }
    }
    assert_eq!(rec.occurrences(), 4);
}

#[test]
fn repetition_ignores_exit_counts_and_same_colour_rearrangements() {
    // Same board, same player to move, different exits and turns: one repetition key.
    let a = pos(&[(0, 0, 'r'), (1, 0, 'r'), (0, 2, 'g')], 'r', [0, 0, 0], 0);
    let b = pos(
        &[(0, 0, 'r'), (1, 0, 'r'), (0, 2, 'g')],
        'r',
        [2, 1, 0],
        300,
    );
    assert_eq!(a.repetition_key(), b.repetition_key());
    assert_ne!(a.key(), b.key(), "exit counts are part of the full key");
    // Different player to move: different positions for the rule.
    let c = pos(&[(0, 0, 'r'), (1, 0, 'r'), (0, 2, 'g')], 'g', [0, 0, 0], 1);
    assert_ne!(a.repetition_key(), c.repetition_key());
    // Pieces of one colour are interchangeable: the two red pieces trade places (B steps
    // aside, A takes B's hex, B takes A's), green walks a triangle, blue has no piece and
    // passes; after 9 turns the board recurs with Red to move.
    let mut rec = Record::new(a.clone());
    for m in [
        "MOVE 1 0 1 -1",
        "MOVE 0 2 1 1",
        "PASS",
        "MOVE 0 0 1 0",
        "MOVE 1 1 1 2",
        "PASS",
        "MOVE 1 -1 0 0",
        "MOVE 1 2 0 2",
        "PASS",
    ] {
        assert_eq!(rec.play(mv(m)), Ok(None), "{m}");
    }
    assert_eq!(rec.occurrences(), 2);
    assert_eq!(rec.position().repetition_key(), a.repetition_key());
    assert_eq!(
        rec.position().to_string(),
        "..../...../....../...rr../....../...g./.... r 0,0,0 9"
    );
}

#[test]
fn repetition_draw_overrides_the_turn_limit_on_the_same_action() {
    // The start board at turn 750: its 4th occurrence falls on the 768th turn.
    let p: Position = "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 750"
        .parse()
        .unwrap();
    let mut rec = Record::new(p);
    for turn in 0..18 {
        let r = rec.play(mv(SHUFFLE[turn % 6])).unwrap();
        if turn == 17 {
            assert_eq!(rec.position().turns(), 768);
            assert_eq!(
                rec.position().outcome(),
                Some(Outcome::Draw(DrawKind::TurnLimit))
            );
            assert_eq!(r, Some(Outcome::Draw(DrawKind::Repetition)));
        } else {
            assert_eq!(r, None);
        }
    }
}

#[test]
fn key_holds_the_turn_count_only_near_the_limit() {
    let at = |t: u32| -> Position {
        let to = ['r', 'g', 'b'][t as usize % 3];
        pos(&[(0, 0, 'r'), (1, 1, 'g')], to, [0, 0, 0], t)
    };
    // Far from the limit, turns 3 apart (same player) share a key.
    assert_eq!(at(3).key(), at(6).key());
    assert_eq!(at(600).key(), at(300).key());
    // Within 60 turns of 768 every turn count has its own key.
    assert_ne!(at(705).key(), at(708).key());
    assert_ne!(at(708).key(), at(711).key());
    assert_ne!(at(765).key(), at(762).key());
    for t in [0, 3, 705, 708, 711, 765, 768] {
        let p = at(t);
        assert_eq!(p.key(), p.recompute_key());
    }
    // The incremental key crosses into the window correctly.
    let mut p = pos(
        &[(0, 0, 'r'), (1, 1, 'g'), (-2, 2, 'b')],
        'b',
        [0, 0, 0],
        704,
    );
    for _ in 0..10 {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        p.play(moves[0]);
        assert_eq!(p.key(), p.recompute_key());
    }
}

#[test]
fn skip_turn_passes_without_a_move() {
    let mut p = Position::start();
    let before = p.clone();
    assert!(p.skip_turn());
    assert_eq!(p.to_move(), 1);
    assert_eq!(p.turns(), 1);
    assert_eq!(p.pieces(0), before.pieces(0));
    assert_eq!(p.key(), p.recompute_key());
    assert_eq!(
        p.to_string(),
        "gggg/...../....../r.....b/r....b/r...b/r..b g 0,0,0 1"
    );
}

#[test]
fn noisy_moves_are_the_converting_jumps() {
    let p = pos(&[(0, 0, 'r'), (1, 0, 'g'), (-1, 0, 'r')], 'r', [0, 0, 0], 0);
    let mut noisy = MoveList::new();
    p.noisy_moves(&mut noisy);
    assert_eq!(noisy.as_slice(), &[mv("JUMP 0 0 2 0")]);
}
