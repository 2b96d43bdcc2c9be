//! The `arena` program with a 6×6 Othello beside the default games, registered through the
//! public API as a user's game is (see `game.rs`; the rules are the example game
//! `example_games::othello` of `examples/games`). Its encoding gives sparse features, so a
//! network learns it from its rules alone (`docs/training.md`, "From the rules alone").
//!
//! ```sh
//! cargo run --release -p plyforge-arena --example othello -- moves othello start
//! cargo run --release -p plyforge-arena --example othello -- analyse othello start --time 3s
//! cargo run --release -p plyforge-arena --example othello -- web   # then open /othello
//! ```

mod game;

fn main() -> std::process::ExitCode {
    plyforge_arena::Arena::with_default_games()
        .game::<game::Othello>()
        .run()
}
