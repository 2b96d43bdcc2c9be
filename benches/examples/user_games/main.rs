//! The benchmark games a user would write, each searched by this engine (1 and 2 threads),
//! the `minimax` crate (`IterativeSearch`, `ParallelSearch` with 2 threads) and a plain
//! hand-written alpha-beta (`benches::plain`), to a fixed depth from the positions of
//! `benches/data/<game>.txt`. Prints the nodes, the times (fastest of the runs), the ratios
//! and whether every value agrees; exits non-zero if one does not.
//!
//! ```text
//! cargo run --release -p benches --example user_games [-- --runs N] [--quick] [--game NAME]
//!     [--ours-only] [--config KEY=VALUE,...]
//! ```
#[path = "../../peer/user_compare.rs"]
mod user_compare;
#[path = "../../peer/user_peer.rs"]
mod user_peer;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match user_compare::Opts::parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("user_games: {e}");
            return ExitCode::from(2);
        }
    };
    let report = user_compare::run(&opts);
    print!("{}", report.markdown());
    if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        for e in &report.errors {
            eprintln!("user_games: {e}");
        }
        ExitCode::FAILURE
    }
}
