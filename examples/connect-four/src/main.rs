//! `connect-four-arena`: the `arena` program with Connect Four beside the plyforge games.
//! Every subcommand takes `connect-four`: `moves`, `apply`, `perft`, `play`, `analyse`,
//! `match`, `merge`, `solve` (proof-number search), `engine`, `serve`, `connect`, `web`.

fn main() -> std::process::ExitCode {
    plyforge_arena::Arena::with_default_games()
        .game::<connect_four_arena::ConnectFour>()
        .run()
}
