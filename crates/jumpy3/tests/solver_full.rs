//! The full table: the start position's value, pinned after an independent check (the engine's
//! alpha-beta search proves a White win in 25 plies from the start at depth 25, score
//! `MATE - 25`; and `Table::verify` found the whole table consistent with the rules), and the
//! perfect-play line; and positions of random games checked against the rules and against
//! alpha-beta proofs.

use plyforge_jumpy3::search::{mate_distance, Game, Limits, MoveList, Search};
use plyforge_jumpy3::solve::{Table, Value};
use plyforge_jumpy3::{DefaultEval, Position};

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
        Some(plyforge_jumpy3::search::Outcome::Win(
            plyforge_jumpy3::WHITE
        ))
    );
    let s = t.stats();
    assert_eq!(s.positions, 28_180_560);
    assert_eq!(s.wins + s.losses + s.draws, s.positions);

    // Positions of seeded random games: the table's value follows from the children's, and
    // where the table says the game ends within 11 plies, a depth-12 alpha-beta search proves
    // exactly that (and any proof it finds elsewhere agrees with the table).
    let config = plyforge_jumpy3::engine_config().with_tt_mib(4);
    let mut seed = 77u64;
    let mut proofs = 0;
    let mut games = 0;
    while proofs < 30 {
        games += 1;
        assert!(games < 2000, "too few short wins in random games");
        let mut p = Position::start();
        loop {
            let mut m = MoveList::new();
            p.legal_moves(&mut m);
            if m.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            p.play(m[(seed >> 33) as usize % m.len()]);
            if p.outcome().is_some() {
                break;
            }
            let v = t.value(&p);
            assert_eq!(v, t.value_from_children(&p), "{p}");
            if v.distance().map_or(true, |d| d > 11) || seed % 5 != 0 {
                continue;
            }
            let mut search = Search::new(config.clone(), DefaultEval::default());
            let r = search.run(&p, &[], Limits::depth(12), |_| {});
            let n = mate_distance(r.score).expect("a proof within the horizon");
            let want = if n > 0 {
                Value::Win(n as u32)
            } else {
                Value::Loss(-n as u32)
            };
            assert_eq!(v, want, "{p}");
            proofs += 1;
            break;
        }
    }
}
