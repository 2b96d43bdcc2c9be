//! The scriptable interface to the rules: `moves`, `apply`, `perft`.

use std::time::Instant;

use plyforge::search::Game;

use crate::fail::{outln, Fail};
use plyforge::{legal_moves, play_list, read_start, result_text, GameAdapter};

/// `arena moves GAME POSITION`: every legal move, one per line, in the game's order.
pub(crate) fn moves<A: GameAdapter>(position: &str) -> Result<(), Fail> {
    let pos = read_start::<A>(position)?;
    for mv in legal_moves(&pos) {
        outln!("{mv}");
    }
    if let Some(o) = pos.outcome() {
        crate::errln!("the game is over ({})", result_text::<A>(o));
    }
    Ok(())
}

/// `arena apply GAME POSITION MOVE...`: the position after the moves, then `result: ...` if the
/// game is over. Moves go through `plyforge::search::Record`, so history rules (repetition) apply.
pub(crate) fn apply<A: GameAdapter>(position: &str, moves: &[String]) -> Result<(), Fail> {
    let pos = read_start::<A>(position)?;
    let mut record = plyforge::search::Record::<A::Pos>::new(pos);
    let items: Vec<&str> = moves.iter().map(String::as_str).collect();
    play_list::<A>(&mut record, &items).map_err(|e| Fail::usage(e.to_string()))?;
    outln!("{}", record.position());
    if let Some(o) = record.result() {
        outln!("result: {}", result_text::<A>(o));
    }
    Ok(())
}

/// Leaf count of the move tree to `depth` (the position's own rules; history rules such as
/// repetition are not applied, and finished positions are leaves of no further moves).
pub(crate) fn perft_count<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            perft_count(&child, depth - 1)
        })
        .sum()
}

/// `arena perft GAME POSITION DEPTH [--divide]`.
pub(crate) fn perft<A: GameAdapter>(position: &str, depth: u32, divide: bool) -> Result<(), Fail> {
    let pos = read_start::<A>(position)?;
    if divide {
        if depth == 0 {
            return Err(Fail::usage("perft --divide needs a depth of at least 1"));
        }
        let start = Instant::now();
        let mut total = 0;
        for mv in legal_moves(&pos) {
            let mut child = pos.clone();
            child.play(mv);
            let n = perft_count(&child, depth - 1);
            total += n;
            outln!("{mv}: {n}");
        }
        outln!("total {total}");
        report_speed(total, start);
    } else {
        for d in 1..=depth {
            let start = Instant::now();
            let n = perft_count(&pos, d);
            outln!("perft {d} {n}");
            report_speed(n, start);
        }
        if depth == 0 {
            outln!("perft 0 1");
        }
    }
    Ok(())
}

fn report_speed(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    if secs > 0.05 {
        eprintln!(
            "  ({:.2} s, {:.0} leaves/s)",
            secs,
            nodes as f64 / secs.max(1e-9)
        );
    }
}
