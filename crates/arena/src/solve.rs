//! `arena solve`: exact values from the game crates' solvers.

use std::time::Duration;

use indicatif::ProgressBar;

use crate::analyse::join_moves;
use crate::fail::{outln, Fail};
use plyforge::{read_start, GameAdapter, SolveSettings};

/// Runs `arena solve`: `value: …`, `best: …`, `line: …`.
pub(crate) fn solve<A: GameAdapter>(
    position: &str,
    settings: &SolveSettings<'_>,
) -> Result<(), Fail> {
    let pos = read_start::<A>(position)?;
    let record = plyforge::search::Record::<A::Pos>::new(pos);
    let spinner = ProgressBar::new_spinner();
    spinner.set_message(format!(
        "solving {} exactly (large positions take long{})",
        A::TITLE,
        if settings.time.is_none() && A::SOLVER.time_limit {
            "; --time T gives up after T"
        } else {
            ""
        }
    ));
    spinner.enable_steady_tick(Duration::from_millis(100));
    let solution = A::solve(&record, settings);
    spinner.finish_and_clear();
    let solution =
        solution.ok_or_else(|| Fail::usage(format!("{} has no exact solver", A::TITLE)))??;
    outln!("value: {}", solution.value);
    outln!("best: {}", join(&solution.best));
    if !solution.line.is_empty() {
        outln!("line: {}", join_moves(&solution.line));
    }
    Ok(())
}

/// Best moves: space separated (every game with a solver has moves without spaces).
fn join<M: std::fmt::Display>(moves: &[M]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
