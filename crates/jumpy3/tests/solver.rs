//! The exact solver against independent means: a naive solver on a sub-game, the table's own
//! consistency with the rules, alpha-beta proofs, and the start position's value.

use std::collections::HashMap;
use std::sync::OnceLock;

use plyforge_jumpy3::search::{mate_distance, Game, Limits, MoveList, Search};
use plyforge_jumpy3::solve::{Table, Value};
use plyforge_jumpy3::{DefaultEval, Position, BLACK, WHITE};

/// The sub-game with at most two pawns a side, solved once for all tests here.
fn table2() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| Table::build_up_to(2))
}

/// Every position with both kings on the board and at most one pawn a side.
fn small_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for wk in 0..16 {
        for bk in 0..16 {
            if bk == wk {
                continue;
            }
            let kings = (1u16 << wk) | (1 << bk);
            for wp in (0..17).map(|s| if s == 16 { 0 } else { 1u16 << s }) {
                if wp & kings != 0 {
                    continue;
                }
                for bp in (0..17).map(|s| if s == 16 { 0 } else { 1u16 << s }) {
                    if bp & (kings | wp) != 0 {
                        continue;
                    }
                    for side in [WHITE, BLACK] {
                        let p = Position::from_bits(wp | 1 << wk, bp | 1 << bk, kings, side)
                            .expect("a position");
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// A naive solver: value iteration by distance over a hash map, using only `Position`'s
/// rules. Wins at distance n need a child lost at n − 1; losses need every child won, the
/// slowest at n − 1.
fn naive_solve(positions: &[Position]) -> HashMap<Position, Value> {
    let mut values: HashMap<Position, Value> = HashMap::new();
    let value_of = |values: &HashMap<Position, Value>, c: &Position| -> Option<Value> {
        if c.outcome().is_some() {
            Some(Value::Loss(0))
        } else {
            values.get(c).copied()
        }
    };
    let mut open: Vec<Position> = positions.to_vec();
    let mut n = 1;
    loop {
        let mut settled = Vec::new();
        for p in &open {
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            let children: Vec<Option<Value>> = moves
                .iter()
                .map(|&m| value_of(&values, &p.after(m)))
                .collect();
            let wins = children.iter().any(|v| *v == Some(Value::Loss(n - 1)));
            let all_lost = children
                .iter()
                .all(|v| matches!(v, Some(Value::Win(k)) if *k < n));
            let slowest = children
                .iter()
                .filter_map(|v| match v {
                    Some(Value::Win(k)) => Some(*k),
                    _ => None,
                })
                .max();
            if wins {
                settled.push((*p, Value::Win(n)));
            } else if all_lost && slowest == Some(n - 1) {
                settled.push((*p, Value::Loss(n)));
            }
        }
        // Nothing settled at n: nothing can settle at n + 1 either.
        if settled.is_empty() {
            break;
        }
        for (p, v) in settled {
            values.insert(p, v);
        }
        open.retain(|p| !values.contains_key(p));
        n += 1;
    }
    for p in open {
        values.insert(p, Value::Draw);
    }
    values
}

#[test]
fn the_solver_agrees_with_a_naive_solver_on_the_one_pawn_game() {
    let positions = small_positions();
    assert_eq!(positions.len(), 2 * 50640);
    let naive = naive_solve(&positions);
    let table = Table::build_up_to(1);
    for p in &positions {
        assert_eq!(table.value(p), naive[p], "{p}");
    }
    // All three kinds occur.
    let s = table.stats();
    assert!(s.wins > 0 && s.losses > 0 && s.draws > 0, "{s:?}");
}

#[test]
fn the_two_pawn_table_is_consistent_with_the_rules() {
    let t = table2();
    assert_eq!(t.verify(), Ok(()));
    let s = t.stats();
    assert_eq!(s.positions, 2_059_920);
    assert_eq!(s.wins + s.losses + s.draws, s.positions);
}

fn random_covered_position(seed: &mut u64, max_pawns: u32) -> Position {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as u32
    };
    loop {
        let mut white = 0u16;
        let mut black = 0u16;
        let wk = next() % 16;
        let bk = next() % 16;
        if wk == bk {
            continue;
        }
        let kings = (1 << wk) | (1 << bk);
        white |= 1 << wk;
        black |= 1 << bk;
        for _ in 0..next() % (max_pawns + 1) {
            white |= 1 << (next() % 16);
        }
        for _ in 0..next() % (max_pawns + 1) {
            black |= 1 << (next() % 16);
        }
        let white = white & !(black & !(1 << wk));
        let black = black & !white | (1 << bk);
        if let Some(p) = Position::from_bits(white, black & !white, kings, (next() % 2) as usize) {
            if p.pawns(WHITE) <= max_pawns && p.pawns(BLACK) <= max_pawns && p.outcome().is_none() {
                return p;
            }
        }
    }
}

#[test]
fn the_solver_agrees_with_alpha_beta_proofs() {
    let t = table2();
    let mut seed = 99;
    let mut proofs = 0;
    let config = plyforge_jumpy3::engine_config().with_tt_mib(4);
    for _ in 0..40 {
        let p = random_covered_position(&mut seed, 2);
        let mut s = Search::new(config.clone(), DefaultEval::default());
        let r = s.run(&p, &[], Limits::depth(14), |_| {});
        let v = t.value(&p);
        if let Some(n) = mate_distance(r.score) {
            proofs += 1;
            let want = if n > 0 {
                Value::Win(n as u32)
            } else {
                Value::Loss((-n) as u32)
            };
            assert_eq!(v, want, "{p}");
        } else {
            // No proof within the horizon: the table's distance lies beyond it, or a draw.
            assert!(
                v.distance().map_or(true, |d| d > 14),
                "{p}: {v}, search {}",
                r.score
            );
        }
    }
    assert!(proofs >= 15, "only {proofs} proofs");
}

#[test]
fn distance_drops_by_one_along_the_perfect_line() {
    let t = table2();
    let mut seed = 5;
    for _ in 0..200 {
        let p = random_covered_position(&mut seed, 2);
        let v = t.value(&p);
        let line = t.line(&p);
        let mut q = p;
        let mut expected = v;
        for &m in &line {
            assert!(t.best_moves(&q).contains(&m));
            q.play(m);
            expected = match expected {
                Value::Win(n) => Value::Loss(n - 1),
                Value::Loss(n) => Value::Win(n - 1),
                Value::Draw => Value::Draw,
                other => panic!("{p}: a value this test does not know: {other:?}"),
            };
            assert_eq!(t.value(&q), expected, "{p} along {line:?}");
        }
        match v {
            Value::Win(n) | Value::Loss(n) => {
                assert_eq!(line.len() as u32, n, "{p}");
                assert!(q.outcome().is_some());
            }
            Value::Draw => assert!(q.outcome().is_none()),
            other => panic!("{p}: a value this test does not know: {other:?}"),
        }
    }
}

#[test]
fn save_and_load_round_trip() {
    let t = Table::build_up_to(1);
    let path = std::env::temp_dir().join(format!("jumpy3-test-{}.tb", std::process::id()));
    t.save(&path).unwrap();
    let u = Table::load(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(u.stats(), t.stats());
    assert_eq!(u.max_pawns(), 1);
    for p in small_positions().iter().step_by(97) {
        assert_eq!(u.value(p), t.value(p));
    }
    let bad = std::env::temp_dir().join(format!("jumpy3-bad-{}.tb", std::process::id()));
    std::fs::write(&bad, b"not a table").unwrap();
    assert!(Table::load(&bad).is_err());
    std::fs::remove_file(&bad).ok();
}

/// A damaged, truncated or stale file is refused with the reason, and `load_or_build`
/// solves the table again and replaces it; a good file is taken as it is.
#[test]
fn a_bad_table_file_is_refused_and_rebuilt() {
    let dir = std::env::temp_dir().join(format!("jumpy3-cache-{}", std::process::id()));
    let path = dir.join("sub").join("jumpy3.table");
    let (t, built) = Table::load_or_build_up_to(&path, 1).unwrap();
    assert!(built, "no file yet: solved");
    let (u, built) = Table::load_or_build_up_to(&path, 1).unwrap();
    assert!(!built, "a good file is loaded");
    assert_eq!(u.stats(), t.stats());
    let good = std::fs::read(&path).unwrap();

    let mut damaged = good.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40;
    std::fs::write(&path, &damaged).unwrap();
    let err = Table::load(&path).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    let (_, built) = Table::load_or_build_up_to(&path, 1).unwrap();
    assert!(built, "a damaged file is solved again");
    assert_eq!(std::fs::read(&path).unwrap(), good);

    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let err = Table::load(&path).unwrap_err();
    assert!(err.to_string().contains("wrong size"), "{err}");

    let mut stale = good.clone();
    stale[12] += 1; // the rules version
    std::fs::write(&path, &stale).unwrap();
    let err = Table::load(&path).unwrap_err();
    assert!(err.to_string().contains("stale"), "{err}");
    let (_, built) = Table::load_or_build_up_to(&path, 1).unwrap();
    assert!(built, "a stale file is solved again");
    std::fs::remove_dir_all(&dir).ok();
}
