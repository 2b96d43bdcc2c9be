//! The action numbers and observation tensors of every game: round trips over random games,
//! the mask against the legal moves, and what the planes say (piece counts, the observer's
//! point of view checked against the game's symmetry).

use plyforge::encoding::{KindEncoding, StateEncoding};
use plyforge::search::rng::XorShift64Star;
use plyforge::search::Record;
use plyforge::{Error, GameKind, State};

/// Random games from the start (Chaos Clock: seeded random starts), each position visited.
fn random_positions(kind: GameKind, games: u64, mut visit: impl FnMut(&State)) {
    for seed in 1..=games {
        let mut rng = XorShift64Star::seeded(seed);
        let mut state = if kind.name() == "chaosclock" {
            kind.game_from(&format!("random:{seed}")).unwrap()
        } else {
            kind.new_game()
        };
        loop {
            visit(&state);
            let moves = state.legal_moves();
            if moves.is_empty() {
                assert!(state.is_over(), "{kind}: no moves in {state}");
                break;
            }
            state.play_index(rng.below(moves.len())).unwrap();
        }
    }
}

fn check_actions(state: &State) {
    let kind = state.kind();
    let n = kind.num_distinct_actions().unwrap();
    let moves = state.legal_moves();
    let actions = state.legal_actions().unwrap();
    assert_eq!(moves.len(), actions.len(), "{kind} {state}");
    let mut seen = vec![false; n];
    for (mv, &a) in moves.iter().zip(&actions) {
        assert!(a < n, "{kind}: action {a} of {mv} out of range");
        assert!(!seen[a], "{kind} {state}: two moves with action {a}");
        seen[a] = true;
        assert_eq!(&kind.action_to_move(a).unwrap(), mv, "{kind} action {a}");
        assert_eq!(state.action_of(mv).unwrap(), a, "{kind} move {mv}");
    }
    assert_eq!(
        state.legal_actions_mask().unwrap(),
        seen,
        "{kind} {state}: mask"
    );
    // Each legal action plays its move.
    for (mv, &a) in moves.iter().zip(&actions) {
        let mut by_action = state.clone();
        let mut by_move = state.clone();
        assert_eq!(&by_action.play_action(a).unwrap(), mv);
        by_move.play(mv).unwrap();
        assert_eq!(by_action.position(), by_move.position());
        assert_eq!(by_action.result(), by_move.result());
        let mut history = state.history_actions().unwrap();
        history.push(a);
        assert_eq!(by_action.history_actions().unwrap(), history);
    }
    // Some other actions are refused with a reason, and change nothing.
    let mut rng = XorShift64Star::seeded(state.key());
    for _ in 0..8 {
        let a = rng.below(n);
        if seen[a] {
            continue;
        }
        let mut copy = state.clone();
        let e = copy.play_action(a).unwrap_err();
        assert!(
            matches!(e, Error::Action { action, .. } if action == a)
                || matches!(e, Error::GameOver { .. }),
            "{kind}: {e:?}"
        );
        assert!(!e.to_string().is_empty());
        assert_eq!(copy.position(), state.position());
        assert_eq!(copy.moves(), state.moves());
    }
}

/// The sum of plane `plane` of an observation.
fn plane_sum(obs: &[f32], shape: &[usize], plane: usize) -> f32 {
    let len: usize = shape[1..].iter().product();
    obs[plane * len..(plane + 1) * len].iter().sum()
}

fn check_observation(state: &State, pieces: impl Fn(&State, usize) -> [usize; 2]) {
    let kind = state.kind();
    let shape = kind.observation_shape().unwrap();
    for p in 0..state.players() {
        let obs = state.observation(p).unwrap();
        assert_eq!(obs.len(), shape.iter().product::<usize>());
        assert!(obs.iter().all(|x| x.is_finite() && *x >= 0.0));
        let [own, others] = pieces(state, p);
        let counted = |planes: &[usize]| -> usize {
            planes
                .iter()
                .map(|&k| plane_sum(&obs, shape, k))
                .sum::<f32>() as usize
        };
        match kind.name() {
            "jumpy3" | "throne" => {
                assert_eq!(counted(&[0, 1]), own, "{kind} {state} player {p}");
                assert_eq!(counted(&[2, 3]), others, "{kind} {state} player {p}");
            }
            "chexers" => {
                assert_eq!(counted(&[0]), own, "{kind} {state} player {p}");
                assert_eq!(counted(&[1, 2]), others, "{kind} {state} player {p}");
            }
            _ => {}
        }
    }
    assert!(matches!(
        state.observation(state.players()),
        Err(Error::NoSuchPlayer { .. })
    ));
}

/// Pieces on the board of `player` and of the others, from the notation.
fn count_letters(board: &str, own: &[char], all: &[char]) -> [usize; 2] {
    let mine = board.chars().filter(|c| own.contains(c)).count();
    let total = board.chars().filter(|c| all.contains(c)).count();
    [mine, total - mine]
}

#[test]
fn jumpy3_actions_and_observations() {
    let kind = GameKind::from_name("jumpy3").unwrap();
    assert_eq!(kind.num_distinct_actions().unwrap(), 16);
    assert_eq!(kind.observation_shape().unwrap(), [5, 16]);
    let start = kind.new_game();
    let white = start.observation(0).unwrap();
    // White's view of the start: its king on column 0, pawns on 1 to 3, Black's pawns on
    // 12 to 14 and king on 15, White to move.
    let mut want = vec![0.0; 80];
    want[0] = 1.0;
    want[16 + 1..16 + 4].fill(1.0);
    want[32 + 15] = 1.0;
    want[48 + 12..48 + 15].fill(1.0);
    want[64..80].fill(1.0);
    assert_eq!(white, want);
    // Black sees the same board (the start is symmetric), but not its turn.
    want[64..80].fill(0.0);
    assert_eq!(start.observation(1).unwrap(), want);

    let mut positions = 0;
    random_positions(kind, 40, |s| {
        positions += 1;
        check_actions(s);
        check_observation(s, |s, p| {
            let board = s.position().split(' ').next().unwrap().to_string();
            count_letters(
                &board,
                if p == 0 { &['W', 'w'] } else { &['B', 'b'] },
                &['W', 'w', 'B', 'b'],
            )
        });
        // The game is symmetric under the mirror: Black's view of a position is White's view of
        // its mirror image.
        let pos: plyforge::jumpy3::Position = s.position().parse().unwrap();
        let mirrored = State::of::<plyforge::games::Jumpy3>(Record::new(pos.mirror()));
        assert_eq!(s.observation(1).unwrap(), mirrored.observation(0).unwrap());
        assert_eq!(s.observation(0).unwrap(), mirrored.observation(1).unwrap());
    });
    assert!(positions > 400, "{positions}");
}

/// The Chexers position turned so that Green becomes Red (the hex (q, r) goes to (r, s), each
/// colour to the one before it in turn order).
fn chexers_turned(notation: &str) -> String {
    use plyforge::chexers::Hex;
    let fields: Vec<&str> = notation.split(' ').collect();
    let cells: Vec<char> = fields[0].chars().filter(|&c| c != '/').collect();
    let mut out = ['.'; 37];
    for (i, &c) in cells.iter().enumerate() {
        let h = Hex::from_index(i).unwrap();
        let t = Hex::new(h.r(), h.s()).unwrap();
        out[t.index()] = match c {
            'r' => 'b',
            'g' => 'r',
            'b' => 'g',
            other => other,
        };
    }
    let mut rows = Vec::new();
    let mut at = 0;
    for len in [4, 5, 6, 7, 6, 5, 4] {
        rows.push(out[at..at + len].iter().collect::<String>());
        at += len;
    }
    let side = match fields[1] {
        "r" => "b",
        "g" => "r",
        _ => "g",
    };
    // The side to move follows from the turn count: two turns more make it the one before.
    let turns: u32 = fields[3].parse().unwrap();
    let exits: Vec<&str> = fields[2].split(',').collect();
    format!(
        "{} {side} {},{},{} {}",
        rows.join("/"),
        exits[1],
        exits[2],
        exits[0],
        turns + 2
    )
}

#[test]
fn chexers_actions_and_observations() {
    let kind = GameKind::from_name("chexers").unwrap();
    assert_eq!(kind.num_distinct_actions().unwrap(), 482);
    assert_eq!(kind.observation_shape().unwrap(), [11, 7, 7]);
    // Numbers from the rustdoc: hex 0 is (0, -3), direction 4 is (0, +1).
    assert_eq!(kind.action_to_move(4).unwrap(), "MOVE 0 -3 0 -2");
    assert_eq!(kind.action_to_move(222 + 4).unwrap(), "JUMP 0 -3 0 -1");
    assert_eq!(kind.action_to_move(444 + 36).unwrap(), "EXIT 0 3");
    assert_eq!(kind.action_to_move(481).unwrap(), "PASS");
    // A move off the board has no move; numbers past the last are out of range.
    assert!(matches!(
        kind.action_to_move(0),
        Err(Error::Action { action: 0, .. })
    ));
    assert!(kind
        .action_to_move(482)
        .unwrap_err()
        .to_string()
        .contains("0 to 481"));
    let start = kind.new_game();
    assert!(start.action_of("MOVE -3 0 3 0").is_err(), "not neighbours");

    let mut positions = 0;
    random_positions(kind, 6, |s| {
        positions += 1;
        if positions % 3 == 0 {
            check_actions(s);
        }
        check_observation(s, |s, p| {
            let board = s.position().split(' ').next().unwrap().to_string();
            count_letters(&board, &[['r', 'g', 'b'][p]], &['r', 'g', 'b'])
        });
        // Green's view of a position is Red's view of the position turned (but for the last
        // plane, the turn count, which the turned position has two more of).
        let turns: u32 = s.position().rsplit(' ').next().unwrap().parse().unwrap();
        if turns + 2 > plyforge::chexers::TURN_LIMIT {
            return;
        }
        let turned = GameKind::from_name("chexers")
            .unwrap()
            .game_from(&chexers_turned(&s.position()))
            .unwrap();
        let planes = 10 * 49;
        for (p, q) in [(1, 0), (2, 1), (0, 2)] {
            assert_eq!(
                s.observation(p).unwrap()[..planes],
                turned.observation(q).unwrap()[..planes],
                "{s}"
            );
        }
    });
    assert!(positions > 200, "{positions}");
}

/// The Throne position turned half round, colours swapped.
fn throne_turned(notation: &str) -> String {
    let fields: Vec<&str> = notation.split(' ').collect();
    let board: String = fields[0]
        .chars()
        .rev()
        .map(|c| match c {
            'b' => 'w',
            'w' => 'b',
            'B' => 'W',
            'W' => 'B',
            other => other,
        })
        .collect();
    let side = if fields[1] == "b" { "w" } else { "b" };
    format!(
        "{board} {side} {} {} {} {} {}",
        fields[2], fields[5], fields[6], fields[3], fields[4]
    )
}

#[test]
fn throne_actions_and_observations() {
    let kind = GameKind::from_name("throne").unwrap();
    assert_eq!(kind.num_distinct_actions().unwrap(), 8282);
    assert_eq!(kind.observation_shape().unwrap(), [11, 11, 11]);
    // Cell 45 is the throne (0,0), cell 0 is (0,-5), cell 90 is (0,5).
    assert_eq!(kind.action_to_move(45 * 91 + 46).unwrap(), "0,0>1,0");
    assert_eq!(kind.action_to_move(90).unwrap(), "0,-5>0,5");
    assert_eq!(kind.action_to_move(8281).unwrap(), "pass");
    assert!(kind.action_to_move(45 * 91 + 45).is_err());
    assert!(kind.action_to_move(8282).is_err());

    let mut positions = 0;
    random_positions(kind, 3, |s| {
        positions += 1;
        if positions % 4 == 0 {
            check_actions(s);
        }
        check_observation(s, |s, p| {
            let board = s.position().split(' ').next().unwrap().to_string();
            count_letters(
                &board,
                if p == 0 { &['B', 'b'] } else { &['W', 'w'] },
                &['B', 'b', 'W', 'w'],
            )
        });
        let turned = GameKind::from_name("throne")
            .unwrap()
            .game_from(&throne_turned(&s.position()))
            .unwrap();
        assert_eq!(
            s.observation(1).unwrap(),
            turned.observation(0).unwrap(),
            "{s}"
        );
        assert_eq!(
            s.observation(0).unwrap(),
            turned.observation(1).unwrap(),
            "{s}"
        );
    });
    assert!(positions > 300, "{positions}");
}

#[test]
fn chaosclock_actions_and_observations() {
    let kind = GameKind::from_name("chaosclock").unwrap();
    assert_eq!(kind.num_distinct_actions().unwrap(), 25);
    assert_eq!(kind.observation_shape().unwrap(), [17, 12]);
    assert_eq!(kind.action_to_move(0).unwrap(), "w1");
    assert_eq!(kind.action_to_move(23).unwrap(), "p12");
    assert_eq!(kind.action_to_move(24).unwrap(), "pass");
    let mut positions = 0;
    random_positions(kind, 60, |s| {
        positions += 1;
        check_actions(s);
        let position = s.position();
        let fields: Vec<&str> = position.split(';').collect();
        let board: Vec<u8> = fields[0].split(',').map(|x| x.parse().unwrap()).collect();
        for p in 0..2 {
            let obs = s.observation(p).unwrap();
            // Each piece is on its square or in a hand, never both.
            for piece in 1..=12usize {
                let on_board: f32 = obs[(piece - 1) * 12..piece * 12].iter().sum();
                let square = board.iter().position(|&b| usize::from(b) == piece);
                assert_eq!(on_board, f32::from(u8::from(square.is_some())));
                if let Some(sq) = square {
                    assert_eq!(obs[(piece - 1) * 12 + sq], 1.0);
                }
                assert_eq!(obs[12 * 12 + piece - 1] + on_board, 1.0);
                // Plane 13: the observer's pieces (Odd is player 0).
                assert_eq!(
                    obs[13 * 12 + piece - 1],
                    f32::from(u8::from(piece % 2 == 1 - p))
                );
            }
            assert!(plane_sum(&obs, &[17, 12], 14) <= 1.0);
        }
        // Exactly one of the two players is to move.
        assert_eq!(
            plane_sum(&s.observation(0).unwrap(), &[17, 12], 15)
                + plane_sum(&s.observation(1).unwrap(), &[17, 12], 15),
            12.0
        );
    });
    assert!(positions > 300, "{positions}");
}

#[test]
fn bad_actions_name_the_reason() {
    let mut game = GameKind::from_name("jumpy3").unwrap().new_game();
    let e = game.play_action(16).unwrap_err();
    assert_eq!(
        e.to_string(),
        "action 16: out of range: Jumpy3 has actions 0 to 15"
    );
    let e = game.play_action(9).unwrap_err();
    assert!(e.to_string().starts_with("action 9: 10: "), "{e}");
    assert_eq!(game.moves(), Vec::<String>::new());
    let mut over = GameKind::from_name("jumpy3")
        .unwrap()
        .game_from("B..............W w")
        .unwrap();
    over.play("16").unwrap();
    assert!(over.is_over());
    assert!(matches!(over.play_action(0), Err(Error::GameOver { .. })));
    assert!(over.legal_actions().unwrap().is_empty());
    assert!(over.legal_actions_mask().unwrap().iter().all(|&x| !x));
    let mut mask = vec![false; 3];
    assert!(GameKind::from_name("jumpy3")
        .unwrap()
        .new_game()
        .write_legal_actions_mask(&mut mask)
        .is_err());
    let mut obs = vec![0.0; 3];
    assert!(GameKind::from_name("jumpy3")
        .unwrap()
        .new_game()
        .write_observation(0, &mut obs)
        .is_err());
}
