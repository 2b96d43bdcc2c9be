//! The engine on Throne: wins, losses and the move limit are seen by the search.

use plyforge_throne::{engine_config, DefaultEval, Move, Position};
use search::{Game, Limits, Search, MATE};

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
    assert_eq!(
        p.outcome(),
        Some(search::Outcome::Win(plyforge_throne::WHITE))
    );
    // The same board far from the limit is not a proven result.
    let early = pos.replace(" w 299 ", " w 99 ");
    let (_, score) = best(&early, 2);
    assert!(score.abs() < MATE / 2);
}

#[test]
fn clock_limits_use_the_moves_left_and_keep_a_reserve() {
    use std::time::Duration;
    let ms = Duration::from_millis;
    let close = |a: Duration, b: Duration| {
        assert!(a.abs_diff(b) < Duration::from_micros(1), "{a:?} != {b:?}");
    };
    let late: Position = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 0 0 0 0"
        .parse()
        .unwrap();
    // One move left with 2 s: (2000 - 150) ms * 1 / 11.
    let c = plyforge_throne::clock_limits(&late, ms(2000))
        .clock
        .unwrap();
    assert_eq!(c.moves_to_go, Some(1));
    assert_eq!(c.increment, Duration::ZERO);
    close(c.remaining, ms(1850) / 11);
    // Below the floor: a quarter of the per-move share, 100 ms / 44.
    let c = plyforge_throne::clock_limits(&late, ms(100)).clock.unwrap();
    close(c.remaining, ms(100) / 44);
    // The start of a contest game: (120 s - 150 ms) * 150 / 160.
    let c = plyforge_throne::clock_limits(&Position::start(), Duration::from_secs(120))
        .clock
        .unwrap();
    assert_eq!(c.moves_to_go, Some(150));
    close(c.remaining, ms(119_850) * 15 / 16);
    // Mid-game: 40 moves left for White at ply 221.
    let mid: Position = "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 221 0 0 0 0"
        .parse()
        .unwrap();
    let c = plyforge_throne::clock_limits(&mid, ms(650)).clock.unwrap();
    assert_eq!(c.moves_to_go, Some(40));
    close(c.remaining, ms(400));
}
