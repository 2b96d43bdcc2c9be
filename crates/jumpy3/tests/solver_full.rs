//! The full table: the start position's value, pinned after an independent check (the engine's
//! alpha-beta search proves a White win in 25 plies from the start at depth 25, score
//! `MATE - 25`; and `Table::verify` found the whole table consistent with the rules), and the
//! perfect-play line.

use jumpy3::search::Game;
use jumpy3::solve::{Table, Value};
use jumpy3::Position;

#[test]
fn the_start_position_is_a_white_win_in_25() {
    let t = Table::build();
    let start = Position::start();
    assert_eq!(t.value(&start), Value::Win(25));
    let line = t.line(&start);
    assert_eq!(line.len(), 25);
    let mut p = start;
    for (n, &m) in line.iter().enumerate() {
        p.play(m);
        let left = 25 - 1 - n as u32;
        let want = if n % 2 == 0 {
            Value::Loss(left)
        } else {
            Value::Win(left)
        };
        assert_eq!(t.value(&p), want, "after {n} plies");
    }
    assert_eq!(
        p.outcome(),
        Some(jumpy3::search::Outcome::Win(jumpy3::WHITE))
    );
    let s = t.stats();
    assert_eq!(s.positions, 28_180_560);
    assert_eq!(s.wins + s.losses + s.draws, s.positions);
}
