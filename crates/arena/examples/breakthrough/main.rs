//! The `arena` program with a 6×6 Breakthrough beside the default games: a board of squares
//! (`plyforge::view::Layout::Squares`) for the web page's browser tests (`cargo xtask web`),
//! registered through the public API as a user's game is (see `game.rs`; the rules are the
//! example game `example_games::breakthrough` of `examples/games`).
//!
//! ```sh
//! cargo run -p plyforge-arena --example breakthrough -- web   # then open /breakthrough
//! cargo run -p plyforge-arena --example breakthrough -- moves breakthrough start
//! ```

mod game;

fn main() -> std::process::ExitCode {
    plyforge_arena::Arena::with_default_games()
        .game::<game::Breakthrough>()
        .run()
}
