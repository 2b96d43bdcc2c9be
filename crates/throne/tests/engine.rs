//! The engine on Throne: wins, losses and the move limit are seen by the search.

use search::{Limits, Search, MATE};
use throne::{engine_config, DefaultEval, Move, Position};

fn best(pos: &str, depth: u32) -> (Move, i32) {
    let p: Position = pos.parse().unwrap();
    let mut s = Search::new(engine_config(), DefaultEval);
    let r = s.run(&p, &[p.key()], Limits::depth(depth), |_| {});
    let mv = r.best.expect("a move");
    assert!(p.why_illegal(mv).is_none());
    (mv, r.score)
}

#[test]
fn takes_the_throne_win() {
    // Black's queen on the throne, five soldiers around it, the sixth one step away.
    let pos = "wwwwww/...W.../......../........./....bb..../....bBb..../.....b..../....b..../......../......./...... b 10 0 0 0 0";
    for depth in 1..=4 {
        let (mv, score) = best(pos, depth);
        assert_eq!(mv.to_string(), "-1,2>-1,1");
        assert_eq!(score, MATE - 1);
    }
}

#[test]
fn avoids_surrounding_the_empty_throne() {
    // The same step with the throne empty loses at once.
    let pos = "wwwwww/...W.../......../........./....bb..../....b.b..../.....b..../....b..../......../...B.../...... b 10 0 0 0 0";
    for depth in 1..=4 {
        let (mv, score) = best(pos, depth);
        assert_ne!(mv.to_string(), "-1,2>-1,1");
        assert!(score > -MATE / 2, "depth {depth}: {score}");
    }
}

#[test]
fn knows_the_move_limit() {
    // Ply 299, equal scores (110 each), White to move: any inward step wins on score, a pass
    // or a step along a ring draws.
    let pos = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 2 0 0 1";
    let (mv, score) = best(pos, 2);
    assert_eq!(score, MATE - 1);
    let mut p: Position = pos.parse().unwrap();
    p.play(mv);
    assert_eq!(p.outcome(), Some(search::Outcome::Win(throne::WHITE)));
    // The same board far from the limit is not a proven result.
    let early = pos.replace(" w 299 ", " w 99 ");
    let (_, score) = best(&early, 2);
    assert!(score.abs() < MATE / 2);
}

#[test]
fn clock_limits_use_the_moves_left_and_keep_a_reserve() {
    use std::time::Duration;
    let late: Position = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 0 0 0 0"
        .parse()
        .unwrap();
    // One move left: 1/11 of 2 s (the proportional reserve is the larger one).
    let c = throne::clock_limits(&late, Duration::from_millis(2000))
        .clock
        .unwrap();
    assert_eq!(c.moves_to_go, Some(1));
    assert_eq!(c.increment, Duration::ZERO);
    assert_eq!(c.remaining, Duration::from_millis(2000).mul_f64(1.0 / 11.0));
    // The start of a contest game: 150 moves, 120 s * 150 / 160.
    let c = throne::clock_limits(&Position::start(), Duration::from_secs(120))
        .clock
        .unwrap();
    assert_eq!(c.moves_to_go, Some(150));
    assert_eq!(c.remaining, Duration::from_millis(112_500));
    // Mid-game with 300 ms left and 40 moves: the 150 ms floor is the larger reserve.
    let mid: Position = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 220 0 0 0 0"
        .parse()
        .unwrap();
    let c = throne::clock_limits(&mid, Duration::from_millis(300))
        .clock
        .unwrap();
    assert_eq!(c.moves_to_go, Some(40));
    assert_eq!(c.remaining, Duration::from_millis(150));
    // Less than twice the floor left: half of it is kept.
    let c = throne::clock_limits(&mid, Duration::from_millis(100))
        .clock
        .unwrap();
    assert_eq!(c.remaining, Duration::from_millis(50));
}
