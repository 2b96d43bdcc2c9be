//! The solver against a reference that knows nothing of its theory: plain backward induction
//! over the game tree played through `search::Record` (which applies the repetition rule
//! itself), on small random positions, comparing result codes and best-move sets.

use plyforge_chaosclock::search::{Game, Outcome, Player, Record};
use plyforge_chaosclock::{solve, Move, Position};

/// How much `p` likes `o` (own win > both win > both lose > own loss).
fn pref(o: Outcome, p: Player) -> i32 {
    o.utility(p)
}

struct Reference {
    nodes: u64,
    limit: u64,
    repetitions: u64,
}

impl Reference {
    /// The outcome of the game from the record's current position, both sides choosing what
    /// they prefer; `None` past the node limit.
    fn value(&mut self, rec: &Record<Position>) -> Option<Outcome> {
        if let Some(o) = rec.result() {
            return Some(o);
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        let mover = rec.position().to_move();
        let mut best: Option<Outcome> = None;
        for mv in rec.legal_moves() {
            let v = self.child(rec, mv)?;
            if best.map_or(true, |b| pref(v, mover) > pref(b, mover)) {
                best = Some(v);
            }
        }
        best
    }

    fn child(&mut self, rec: &Record<Position>, mv: Move) -> Option<Outcome> {
        let mut r = rec.clone();
        r.play(mv).expect("legal");
        if r.result() == Some(Outcome::BothLose) && r.occurrences() >= 2 {
            self.repetitions += 1;
        }
        self.value(&r)
    }
}

/// A small deterministic generator for the test positions.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A position where piece 4, 6 or 8 can walk round a cycle of empty squares: the pieces
/// whose home squares lie on its orbit are away too (on other squares or in hand).
fn cycling_position(rng: &mut Lcg) -> Position {
    loop {
        let w = [4u8, 6, 8][rng.next(3) as usize];
        let q = 1 + rng.next(12) as u8;
        let period = if w == 6 { 2 } else { 3 }; // 12 / gcd(w, 12)
        let orbit: Vec<u8> = (0..period).map(|k| (q - 1 + k * w) % 12 + 1).collect();
        if orbit.contains(&w) {
            continue;
        }
        let mut away: Vec<u8> = orbit.clone();
        away.push(w);
        away.sort();
        away.dedup();
        let mut board = [0u8; 12];
        for p in 1..=12u8 {
            if !away.contains(&p) {
                board[p as usize - 1] = p;
            }
        }
        board[q as usize - 1] = w;
        for &p in away.iter().filter(|&&p| p != w) {
            let free: Vec<usize> = (0..12)
                .filter(|&i| board[i] == 0 && i + 1 != p as usize)
                .collect();
            if !free.is_empty() && rng.next(2) == 0 {
                board[free[rng.next(free.len() as u64) as usize]] = p;
            }
        }
        let side = rng.next(2) as usize;
        let pos = Position::from_parts(board, side, 0).expect("valid");
        if pos.outcome().is_none() {
            return pos;
        }
    }
}

/// A position with most pieces home: `off` pieces not home, each on a random free square
/// (not its own) or in hand.
fn small_position(rng: &mut Lcg, off: usize) -> Position {
    loop {
        let mut pieces: Vec<u8> = (1..=12).collect();
        for i in (1..12).rev() {
            let j = rng.next(i as u64 + 1) as usize;
            pieces.swap(i, j);
        }
        let away = &pieces[..off];
        let mut board = [0u8; 12];
        for p in 1..=12u8 {
            if !away.contains(&p) {
                board[p as usize - 1] = p;
            }
        }
        let mut ok = true;
        for &p in away {
            if rng.next(6) == 0 {
                continue; // in hand
            }
            let free: Vec<usize> = (0..12)
                .filter(|&i| board[i] == 0 && i + 1 != p as usize)
                .collect();
            if free.is_empty() {
                ok = false;
                break;
            }
            board[free[rng.next(free.len() as u64) as usize]] = p;
        }
        if !ok {
            continue;
        }
        let side = rng.next(2) as usize;
        let on_board: Vec<u8> = board.iter().copied().filter(|&p| p != 0).collect();
        let last = if rng.next(2) == 0 {
            0
        } else {
            on_board[rng.next(on_board.len() as u64) as usize]
        };
        let pos = Position::from_parts(board, side, last).expect("valid");
        if pos.outcome().is_none() {
            return pos;
        }
    }
}

/// Compares the solver with the reference at the record's current position (with its
/// history); `None` if too big for the reference, else how many repetitions it met.
fn check(rec: &Record<Position>, codes: &mut [u32; 5]) -> Option<u64> {
    let pos = rec.position().clone();
    let mut reference = Reference {
        nodes: 0,
        limit: 30_000,
        repetitions: 0,
    };
    let mover = pos.to_move();
    let moves = rec.legal_moves();
    let mut values = Vec::new();
    for &mv in &moves {
        values.push(reference.child(rec, mv)?);
    }
    let best = values
        .iter()
        .copied()
        .max_by_key(|&v| pref(v, mover))
        .expect("a move");
    let want_best: Vec<Move> = moves
        .iter()
        .zip(&values)
        .filter(|(_, &v)| v == best)
        .map(|(&m, _)| m)
        .collect();
    let opts = solve::SolveOptions {
        threads: 1,
        ..solve::SolveOptions::for_record(rec)
    };
    let s = solve::solve_with(&pos, &opts).expect("no limit");
    let context = format!("{pos} after {:?} from {}", rec.moves(), rec.start());
    assert_eq!(s.outcome, best, "{context}: value");
    assert_eq!(
        s.value.code(),
        solve::result_code(best, mover),
        "{context}: code"
    );
    assert_eq!(s.best, want_best, "{context}: best moves");
    codes[s.value.code() as usize] += 1;
    Some(reference.repetitions)
}

#[test]
fn solver_agrees_with_backward_induction_through_record() {
    let mut rng = Lcg(0x5EED_C10C);
    let (mut compared, mut with_repetitions, mut codes) = (0, 0, [0; 5]);
    let mut attempts = 0;
    // Hand-made: Even's 6 can walk between squares 3 and 9 while Odd passes.
    let hand_made = [
        "1,2,6,4,5,0,7,8,0,10,11,12;1;0",
        "1,2,6,4,5,0,7,8,0,10,11,12;0;0",
    ];
    while compared < 300 && attempts < 5000 {
        attempts += 1;
        let pos = match hand_made.get(attempts - 1) {
            Some(text) => text.parse().expect("valid"),
            None if attempts % 2 == 0 => cycling_position(&mut rng),
            None => {
                let off = 2 + rng.next(5) as usize;
                small_position(&mut rng, off)
            }
        };
        let mut rec = Record::new(pos);
        // Half of the time, a few random moves first: the solver then gets a history.
        if attempts > hand_made.len() && attempts % 4 < 2 {
            for _ in 0..1 + rng.next(4) {
                let moves = rec.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rec.play(moves[rng.next(moves.len() as u64) as usize])
                    .expect("legal");
            }
            if rec.result().is_some() {
                continue;
            }
        }
        let Some(repetitions) = check(&rec, &mut codes) else {
            continue; // too big for the reference
        };
        compared += 1;
        if repetitions > 0 {
            with_repetitions += 1;
        }
        if attempts <= hand_made.len() {
            assert!(repetitions > 0, "{}: no repetition found", rec.position());
        }
    }
    eprintln!("{compared} compared, {with_repetitions} with repetitions, codes {codes:?}");
    assert!(compared >= 300, "only {compared} positions small enough");
    // The sample must exercise the repetition rule and every result.
    assert!(
        with_repetitions >= 80,
        "{with_repetitions} with repetitions"
    );
    assert!(codes[1..].iter().all(|&c| c > 0), "codes {codes:?}");
}
